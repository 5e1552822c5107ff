"""Bounded load on a running mtdash over loopback; standard library only.

    python bin/loadtest_client.py --url http://127.0.0.1:8000 --test-set 1 \
        --job 1 --clients 20 --requests 1000 --uploads 20

Each client logs in once (its own session), then the clients share a fixed
number of requests per endpoint: the leaderboard page, the leaderboard page
again with the ETag it was given (``If-None-Match``: 304 expected), the
leaderboard API (JSON) and its revalidation, the job status JSON and,
fewer, system-output uploads (multipart, with the CSRF token of the form).
Prints throughput, p50/p95/p99 latency and the errors (any status other
than the expected one) per endpoint and, given ``--server-pid`` (gunicorn's
master), the CPU time (user + system) the web processes spent per request:
read from ``/proc`` before and after each endpoint's requests, summed over
the master and its workers. Stops after ``--seconds`` whatever is left. Run
by ``bin/loadtest``.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import re
import statistics
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor

CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # a 302 is the answer itself
        return None


class Client:
    """One logged-in browser session."""

    def __init__(self, base: str, username: str, password: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirect()
        )
        token = self.csrf_token("/accounts/login/")
        status, _ = self.post_form(
            "/accounts/login/",
            {"username": username, "password": password},
            token,
        )
        if status != 302:
            raise SystemExit(f"login as {username!r} failed (HTTP {status})")

    def request(self, request: urllib.request.Request) -> tuple[int, bytes]:
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def get(self, path: str, headers: dict | None = None) -> tuple[int, bytes]:
        return self.request(
            urllib.request.Request(self.base + path, headers=headers or {})
        )

    def etag(self, path: str, headers: dict | None = None) -> str | None:
        """The ETag a GET of ``path`` answers with, if any (the load test's
        revalidations send it back)."""
        request = urllib.request.Request(self.base + path, headers=headers or {})
        with self.opener.open(request, timeout=30) as response:
            response.read()
            return response.headers.get("ETag")

    def csrf_token(self, path: str) -> str:
        status, body = self.get(path)
        found = CSRF_INPUT.search(body.decode("utf-8", "replace"))
        if status != 200 or not found:
            raise SystemExit(f"no CSRF token on {path} (HTTP {status})")
        return found.group(1)

    def post_form(self, path: str, fields: dict, token: str) -> tuple[int, bytes]:
        data = urllib.parse.urlencode({**fields, "csrfmiddlewaretoken": token})
        request = urllib.request.Request(
            self.base + path, data=data.encode(), headers={"Referer": self.base + path}
        )
        return self.request(request)

    def post_multipart(
        self, path: str, fields: dict, files: dict, token: str
    ) -> tuple[int, bytes]:
        boundary = uuid.uuid4().hex
        parts = []
        for name, value in {**fields, "csrfmiddlewaretoken": token}.items():
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"'
                f"\r\n\r\n{value}\r\n".encode()
            )
        for name, (file_name, content) in files.items():
            parts.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                f'filename="{file_name}"\r\nContent-Type: text/plain\r\n\r\n'.encode()
                + content
                + b"\r\n"
            )
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        request = urllib.request.Request(
            self.base + path,
            data=body,
            headers={
                "Content-Type": f"multipart/form-data; boundary={boundary}",
                "Referer": self.base + path,
            },
        )
        return self.request(request)


def web_cpu_seconds(master: int) -> float:
    """User + system CPU of gunicorn's master and its live workers, and of
    workers that ended and were reaped (the master's children times)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                # The command may hold spaces: the fields follow its ")".
                fields = stat.read().rpartition(")")[2].split()
        except OSError:  # the process ended meanwhile
            continue
        pid, ppid = int(entry), int(fields[1])
        if pid == master:  # utime, stime, cutime, cstime
            total += sum(int(value) for value in fields[11:15])
        elif ppid == master:
            total += int(fields[11]) + int(fields[12])
    return total / ticks


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True, help="e.g. http://127.0.0.1:8000")
    parser.add_argument("--test-set", type=int, required=True)
    parser.add_argument("--job", type=int, required=True, help="a scoring job id")
    parser.add_argument("--username", default="load")
    parser.add_argument("--password", default="mtdash-load")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=1000, help="per endpoint")
    parser.add_argument("--uploads", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=120, help="time bound")
    parser.add_argument(
        "--server-pid", type=int, help="gunicorn's master: print CPU per request"
    )
    args = parser.parse_args(argv)
    if urllib.parse.urlparse(args.url).hostname not in ("127.0.0.1", "localhost"):
        raise SystemExit("the load test only runs against loopback")

    clients = [
        Client(args.url, args.username, args.password) for _ in range(args.clients)
    ]
    upload_path = f"/test-sets/{args.test_set}/outputs/new/"
    hypotheses = "\n".join(f"hypothesis {i}" for i in range(4)).encode() + b"\n"
    uploaded = iter(range(args.uploads))

    page_path = f"/test-sets/{args.test_set}/"
    api_path = f"/api/v1/test-sets/{args.test_set}/leaderboard"
    as_json = {"Accept": "application/json"}
    # The page's ETag is the reader's own (it names them and carries their
    # CSRF token); the API's is the team's.
    page_etags = {id(client): client.etag(page_path) for client in clients}
    api_etag = clients[0].etag(api_path, as_json)

    def leaderboard(client: Client) -> bool:
        return client.get(page_path)[0] == 200

    def leaderboard_304(client: Client) -> bool:
        etag = page_etags[id(client)]
        return client.get(page_path, {"If-None-Match": etag})[0] == 304

    def api(client: Client) -> bool:
        return client.get(api_path, as_json)[0] == 200

    def api_304(client: Client) -> bool:
        return client.get(api_path, {**as_json, "If-None-Match": api_etag})[0] == 304

    def job_status(client: Client) -> bool:
        return client.get(f"/jobs/{args.job}/status.json")[0] == 200

    def upload(client: Client) -> bool:
        token = client.csrf_token(upload_path)
        status, _ = client.post_multipart(
            upload_path,
            {"system_name": f"load-upload-{next(uploaded)}-{uuid.uuid4().hex[:6]}"},
            {"hypothesis_file": ("hyp.txt", hypotheses)},
            token,
        )
        return status == 302

    deadline = time.monotonic() + args.seconds
    lock = threading.Lock()
    with open("/proc/loadavg") as loadavg:
        load = " ".join(loadavg.read().split()[:3])
    print(
        f"{args.clients} clients on {args.url}; bounded to {args.seconds:g} s; "
        f"load average {load} at the start"
    )
    print(
        f"{'endpoint':<18}{'requests':>9}{'errors':>8}{'req/s':>9}"
        f"{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}"
        + (f"{'CPU ms/req':>12}" if args.server_pid else "")
    )
    for name, call, count in (
        ("leaderboard", leaderboard, args.requests),
        ("leaderboard 304", leaderboard_304, args.requests),
        ("API leaderboard", api, args.requests),
        ("API 304", api_304, args.requests),
        ("job status", job_status, args.requests),
        ("upload", upload, args.uploads),
    ):
        if name.endswith("304") and not (all(page_etags.values()) and api_etag):
            print(f"{name:<18} not run: the server sent no ETag")
            continue
        latencies: list[float] = []
        errors = [0]

        def one(index: int, call=call, latencies=latencies, errors=errors) -> None:
            if time.monotonic() > deadline:
                return
            started = time.perf_counter()
            ok = call(clients[index % len(clients)])
            elapsed = time.perf_counter() - started
            with lock:
                latencies.append(elapsed)
                errors[0] += not ok

        cpu_before = web_cpu_seconds(args.server_pid) if args.server_pid else 0.0
        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=args.clients) as pool:
            list(pool.map(one, range(count)))
        wall = time.perf_counter() - started
        if not latencies:
            print(f"{name:<18} not run: the time bound was reached")
            continue
        cpu = ""
        if args.server_pid:
            spent = web_cpu_seconds(args.server_pid) - cpu_before
            cpu = f"{1000 * spent / len(latencies):>12.2f}"
        print(
            f"{name:<18}{len(latencies):>9}{errors[0]:>8}"
            f"{len(latencies) / wall:>9.1f}"
            f"{1000 * statistics.median(latencies):>9.0f}"
            f"{1000 * percentile(latencies, 95):>9.0f}"
            f"{1000 * percentile(latencies, 99):>9.0f}" + cpu
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
