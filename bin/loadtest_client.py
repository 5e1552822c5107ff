"""Bounded load on a running mtdash over loopback; standard library only.

    python bin/loadtest_client.py --url http://127.0.0.1:8000 --test-set 1 \
        --job 1 --clients 20 --requests 1000 --uploads 20

Each client logs in once (its own session), then the clients share a fixed
number of requests per endpoint: the leaderboard page, the job status JSON
and, fewer, system-output uploads (multipart, with the CSRF token of the
form). Prints throughput and p50/p95/p99 latency per endpoint and the
number of errors (any status other than the expected one). Stops after
``--seconds`` whatever is left. Run by ``bin/loadtest``.
"""

from __future__ import annotations

import argparse
import http.cookiejar
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

    def get(self, path: str) -> tuple[int, bytes]:
        return self.request(urllib.request.Request(self.base + path))

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
    args = parser.parse_args(argv)
    if urllib.parse.urlparse(args.url).hostname not in ("127.0.0.1", "localhost"):
        raise SystemExit("the load test only runs against loopback")

    clients = [
        Client(args.url, args.username, args.password) for _ in range(args.clients)
    ]
    upload_path = f"/test-sets/{args.test_set}/outputs/new/"
    hypotheses = "\n".join(f"hypothesis {i}" for i in range(4)).encode() + b"\n"
    uploaded = iter(range(args.uploads))

    def leaderboard(client: Client) -> bool:
        return client.get(f"/test-sets/{args.test_set}/")[0] == 200

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
    print(f"{args.clients} clients on {args.url}; bounded to {args.seconds:g} s")
    print(
        f"{'endpoint':<14}{'requests':>9}{'errors':>8}{'req/s':>9}"
        f"{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}"
    )
    for name, call, count in (
        ("leaderboard", leaderboard, args.requests),
        ("job status", job_status, args.requests),
        ("upload", upload, args.uploads),
    ):
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

        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=args.clients) as pool:
            list(pool.map(one, range(count)))
        wall = time.perf_counter() - started
        if not latencies:
            print(f"{name:<14} not run: the time bound was reached")
            continue
        print(
            f"{name:<14}{len(latencies):>9}{errors[0]:>8}"
            f"{len(latencies) / wall:>9.1f}"
            f"{1000 * statistics.median(latencies):>9.0f}"
            f"{1000 * percentile(latencies, 95):>9.0f}"
            f"{1000 * percentile(latencies, 99):>9.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
