"""Strict readers for settings that come from environment variables.

A value that cannot be parsed is refused with an error naming the variable,
instead of being guessed at: ``MTDASH_DEBUG=Flase`` must not mean "on".
"""

from __future__ import annotations

import os
import re
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_str(name: str, default: str) -> str:
    """Return the variable's value, or ``default`` when it is unset or empty."""
    value = os.environ.get(name, "").strip()
    return value or default


def env_bool(name: str, default: bool) -> bool:
    """Parse true/false/yes/no/on/off/1/0 (any case); anything else is an error."""
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean; use one of "
        f"{', '.join(sorted(_TRUE | _FALSE))}."
    )


def env_int(name: str, default: int, *, minimum: int = 0) -> int:
    """Parse a whole number no smaller than ``minimum``."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number.") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name}={value} must be at least {minimum}.")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    """Parse a comma-separated list, ignoring blanks around the items."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """One of ``choices`` (any case); anything else is an error listing them."""
    raw = os.environ.get(name, "").strip().lower()
    if not raw:
        return default
    if raw not in choices:
        raise ImproperlyConfigured(
            f"{name}={raw!r} is not one of {', '.join(choices)}."
        )
    return raw


ARTIFACT_STORAGES = ("filesystem", "s3")


def artifact_storage(name: str) -> dict:
    """The ``STORAGES`` entry for artifacts, chosen by the variable ``name``.

    ``filesystem`` (the default) keeps them under ``MTDASH_ARTIFACT_DIR``;
    ``s3`` puts them in the bucket ``MTDASH_S3_BUCKET`` of Amazon S3 or, with
    ``MTDASH_S3_ENDPOINT_URL``, of any S3-compatible server (MinIO, Ceph,
    moto). boto3 reads ``AWS_ACCESS_KEY_ID`` and ``AWS_SECRET_ACCESS_KEY``
    (or its other credential sources) itself.
    """
    kind = env_choice(name, "filesystem", ARTIFACT_STORAGES)
    if kind == "filesystem":
        # Its location follows settings.MTDASH_ARTIFACT_DIR (also when a test
        # overrides it); saves replace a file atomically.
        return {"BACKEND": "mtdash.orange.artifact_storage.ArtifactFileSystemStorage"}
    bucket = env_str("MTDASH_S3_BUCKET", "")
    if not bucket:
        raise ImproperlyConfigured(
            f"{name}=s3 needs MTDASH_S3_BUCKET, the bucket that holds the "
            "artifacts (and MTDASH_S3_ENDPOINT_URL for a server other than "
            "Amazon S3)."
        )
    endpoint = env_str("MTDASH_S3_ENDPOINT_URL", "") or None
    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "endpoint_url": endpoint,
            "region_name": env_str("MTDASH_S3_REGION", "") or None,
            # S3-compatible servers on their own host name (MinIO, moto) serve
            # buckets under the path, not as sub-domains.
            "addressing_style": "path" if endpoint else None,
            # A chunk run again replaces its partial result under the same name.
            "file_overwrite": True,
            # Opaque bytes: without this, "candidates.txt.gz" would be stored
            # with "Content-Encoding: gzip", which an HTTP client or proxy may
            # undo behind our back.
            "object_parameters": {"ContentType": "application/octet-stream"},
        },
    }


_HEADER_NAME = re.compile(r"^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$")


def env_proxy_header(name: str) -> tuple[str, str] | None:
    """Parse ``Header-Name`` or ``Header-Name: value`` into Django's form.

    The header a trusted reverse proxy sets on requests that reached it over
    HTTPS, for ``SECURE_PROXY_SSL_HEADER``: ``X-Forwarded-Proto`` means
    ``("HTTP_X_FORWARDED_PROTO", "https")``. Unset gives None (no proxy).
    """
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    header, colon, value = raw.partition(":")
    header, value = header.strip(), value.strip() if colon else "https"
    if not _HEADER_NAME.match(header) or not value or " " in value:
        raise ImproperlyConfigured(
            f"{name}={raw!r} is not a header name (optionally ': value'); "
            "e.g. X-Forwarded-Proto or X-Forwarded-Proto: https."
        )
    return f"HTTP_{header.upper().replace('-', '_')}", value


def secret_key(name: str, key_file: Path) -> str:
    """The secret key from ``name``, else from ``key_file`` (created on first use).

    No key is ever written in source; a single-machine install gets a random
    key that survives restarts, a team server sets the variable.
    """
    value = os.environ.get(name, "").strip()
    if value:
        if len(value) < 32:
            raise ImproperlyConfigured(f"{name} must be at least 32 characters long.")
        return value
    key_file.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(50))
    return key_file.read_text().strip()
