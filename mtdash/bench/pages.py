"""Time the dashboard's pages on the benchmark leaderboard.

Each page is requested with Django's test ``Client`` logged in as a team
member (the whole request: middleware, view, queries, template), ``n``
times after warm-up requests (*warm*: what the caches hold stays), and ``n``
times with the cache cleared before each request (*cold*: the leaderboard
renders its fragment again). A page whose URL name does not resolve yet is
reported as not available rather than failing the run.
"""

from __future__ import annotations

import cProfile
import io
import pstats
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from urllib.parse import urlencode

import numpy as np
from django.conf import settings
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import NoReverseMatch, reverse

from mtdash.bench.build import METRIC_SPECS, BenchData
from mtdash.bench.judged import META_CRITERION
from mtdash.evaluation.leaderboard.stored import forget_renderings
from mtdash.judgments.correlations.points import first_cell

PAGE_TARGET_MS = 300.0
SENTENCE_TARGET_MS = 100.0
CORRELATIONS_TARGET_MS = 500.0


@dataclass(frozen=True)
class Page:
    """A page to time: its URL name and the argument lists to try in turn
    (the first that reverses wins), a query string and request headers."""

    label: str
    url_name: str
    arguments: Callable[[BenchData], Sequence[Sequence]]
    query: Callable[[BenchData], str] = lambda data: ""
    headers: dict = field(default_factory=dict)
    target_ms: float = PAGE_TARGET_MS


def _output(data: BenchData) -> int:
    """A mid-table output: the system page and its sentences."""
    return data.output_ids[len(data.output_ids) // 2]


def _sentence(data: BenchData) -> int:
    return data.test_set.segments.count() // 2  # 1500 of 3,000


def _pair_query(data: BenchData) -> str:
    first, second = (
        data.output_ids[0],
        data.output_ids[min(1, len(data.output_ids) - 1)],
    )
    return f"?a={first}&b={second}"


def _judged(data: BenchData) -> list[list[int]]:
    """The judged test set's id, or nothing (the page is then not available)."""
    return [[data.judged_test_set.pk]] if data.judged_test_set else []


def _meta(data: BenchData, *rest) -> list[list]:
    """The stored meta-evaluation's id (with ``rest``), or nothing."""
    return [[data.meta_evaluation_id, *rest]] if data.meta_evaluation_id else []


def _drill_down(data: BenchData) -> list[list]:
    """(meta-evaluation, judged test set, its first metric), or nothing."""
    if not data.meta_evaluation_id or not data.judged_test_set:
        return []
    return [[data.meta_evaluation_id, data.judged_test_set.pk, METRIC_SPECS[0]]]


def _meta_query(data: BenchData) -> str:
    """The metric-evaluation page showing the meta-evaluation's criterion."""
    return "?" + urlencode({"criterion": META_CRITERION})


def _scatter_query(data: BenchData) -> str:
    """A sentence-level cell: the largest stored scatter plot."""
    metric, criterion = first_cell(data.judged_test_set)
    query = {"level": "sentence", "metric": metric, "criterion": criterion}
    return "?" + urlencode(query)


PAGES = (
    Page("leaderboard", "test_set_detail", lambda d: [[d.test_set.pk]]),
    Page(
        "system page",
        "output_detail",
        lambda d: [[_output(d)], [d.test_set.pk, _output(d)]],
    ),
    Page(
        "system page, sorted",
        "output_detail",
        lambda d: [[_output(d)]],
        lambda d: "?sort=-chrf&q=ka&page=2",
    ),
    Page(
        "sentence page",
        "sentence_detail",
        lambda d: [
            [_output(d), _sentence(d)],
            [d.test_set.pk, _output(d), _sentence(d)],
        ],
        target_ms=SENTENCE_TARGET_MS,
    ),
    Page(
        "compare page", "compare_outputs", lambda d: [[d.test_set.pk], []], _pair_query
    ),
    Page("compare n-grams", "compare_ngrams", lambda d: [[d.test_set.pk]], _pair_query),
    Page("reference diagnostics", "reference_diagnostics", lambda d: [[d.test_set.pk]]),
    Page(
        "API leaderboard",
        "api_leaderboard",
        lambda d: [[d.test_set.pk]],
        headers={"HTTP_ACCEPT": "application/json"},
    ),
    Page("export CSV", "test_set_export", lambda d: [[d.test_set.pk, "csv"]]),
    Page("export LaTeX", "test_set_export", lambda d: [[d.test_set.pk, "tex"]]),
    Page("export JSON", "test_set_export", lambda d: [[d.test_set.pk, "json"]]),
    Page(
        "correlations",
        "test_set_correlations",
        _judged,
        target_ms=CORRELATIONS_TARGET_MS,
    ),
    Page(
        "correlations, sentence",
        "test_set_correlations",
        _judged,
        lambda d: "?level=sentence&method=kendall",
        target_ms=CORRELATIONS_TARGET_MS,
    ),
    Page(
        "correlation scatter",
        "test_set_correlation_scatter",
        _judged,
        _scatter_query,
        target_ms=CORRELATIONS_TARGET_MS,
    ),
    Page(
        "correlations CSV",
        "test_set_correlation_export",
        lambda d: [[*row, "csv"] for row in _judged(d)],
        target_ms=CORRELATIONS_TARGET_MS,
    ),
    Page(
        "API correlations",
        "api_test_set_correlations",
        _judged,
        lambda d: "?level=sentence&method=pearson",
        headers={"HTTP_ACCEPT": "application/json"},
        target_ms=CORRELATIONS_TARGET_MS,
    ),
    # The WMT meta-evaluation: the metric-evaluation page showing the stored
    # result in its section, the result's exports and its page across test
    # sets (the bench's one judged test set alone).
    Page("WMT section", "test_set_correlations", _judged, _meta_query),
    Page("WMT CSV", "meta_evaluation_export", lambda d: _meta(d, "csv")),
    Page("WMT LaTeX", "meta_evaluation_export", lambda d: _meta(d, "tex")),
    Page("WMT across test sets", "meta_evaluation_detail", _meta),
    # One metric's drill-down: its system pairs and the segments deciding
    # acc_eq, read from that metric's scores (BLEU, the first registered).
    Page("WMT drill-down", "meta_evaluation_metric", _drill_down),
)


@dataclass(frozen=True)
class PageTiming:
    """``n`` request times of one page in one mode (warm or cold), in ms."""

    page: str
    mode: str
    url: str | None  # None: the URL name does not resolve (page not built yet)
    status: int | None  # the first status other than 200, else 200
    times_ms: tuple[float, ...]
    target_ms: float
    size_bytes: int = 0  # the last response's body

    @property
    def available(self) -> bool:
        return self.url is not None

    def percentile(self, q: float) -> float:
        return float(np.percentile(self.times_ms, q)) if self.times_ms else float("nan")

    @property
    def passed(self) -> bool:
        """Every response 200 and the 95th percentile within the target."""
        return self.status == 200 and self.percentile(95) <= self.target_ms

    def to_dict(self) -> dict:
        return {
            "page": self.page,
            "mode": self.mode,
            "url": self.url,
            "status": self.status,
            "median_ms": self.percentile(50) if self.available else None,
            "p95_ms": self.percentile(95) if self.available else None,
            "max_ms": max(self.times_ms) if self.times_ms else None,
            "target_ms": self.target_ms,
            "size_bytes": self.size_bytes,
            "passed": self.passed if self.available else None,
            "times_ms": list(self.times_ms),
        }


def page_url(page: Page, data: BenchData) -> str | None:
    for arguments in page.arguments(data):
        try:
            return reverse(page.url_name, args=list(arguments)) + page.query(data)
        except NoReverseMatch:
            continue
    return None


def logged_in_client(data: BenchData) -> Client:
    """A client logged in as the bench team's member. Call it, and request
    with it, inside ``test_host_allowed()``."""
    client = Client()
    client.force_login(data.user)
    return client


def test_host_allowed():
    """The test client's host, ``testserver``, allowed while timing (as
    Django's test runner does; its other test set-up, which instruments
    template rendering, would slow the pages down)."""
    return override_settings(ALLOWED_HOSTS=[*settings.ALLOWED_HOSTS, "testserver"])


def time_page(
    client: Client, page: Page, data: BenchData, n: int, warmups: int, mode: str
) -> PageTiming:
    url = page_url(page, data)
    if url is None:
        return PageTiming(page.label, mode, None, None, (), page.target_ms)
    if mode == "warm":
        for _ in range(warmups):
            client.get(url, **page.headers)
    times, status, size = [], None, 0
    for _ in range(n):
        if mode == "cold":
            forget_everything()
        started = time.perf_counter()
        response = client.get(url, **page.headers)
        times.append((time.perf_counter() - started) * 1000)
        status = response.status_code if status in (None, 200) else status
        size = len(response.getvalue())
    return PageTiming(page.label, mode, url, status, tuple(times), page.target_ms, size)


def forget_everything() -> None:
    """A cold request: Django's cache and the leaderboard's stored renderings
    (kept in the web process, not in the cache) emptied."""
    cache.clear()
    forget_renderings()


def time_pages(
    data: BenchData,
    n: int = 20,
    warmups: int = 2,
    modes: Sequence[str] = ("warm", "cold"),
    say: Callable[[str], None] = print,
) -> list[PageTiming]:
    results = []
    with test_host_allowed():
        client = logged_in_client(data)
        for page in PAGES:
            for mode in modes:
                result = time_page(client, page, data, n, warmups, mode)
                results.append(result)
                if result.available:
                    median = result.percentile(50)
                    say(f"{page.label} ({mode}): median {median:.0f} ms")
    return results


def profile_page(data: BenchData, label: str, mode: str = "warm", top: int = 30) -> str:
    """cProfile of one request of the page labelled ``label``, warm (after a
    warm-up request) or cold (cache cleared first), as text sorted by
    cumulative and by own time (``top`` lines each)."""
    page = next(p for p in PAGES if p.label == label)
    url = page_url(page, data)
    if url is None:
        return f"{label}: not available"
    profiler = cProfile.Profile()
    with test_host_allowed():
        client = logged_in_client(data)
        client.get(url, **page.headers)
        if mode == "cold":
            forget_everything()
        profiler.enable()
        client.get(url, **page.headers)
        profiler.disable()
    text = io.StringIO()
    stats = pstats.Stats(profiler, stream=text)
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)
    return f"profile of {label}, {mode} ({url})\n{text.getvalue()}"


def format_table(results: Sequence[PageTiming]) -> str:
    """page, mode, median, p95, max, target, size, pass/fail: one line each."""
    header = (
        f"{'page':<23} {'mode':<5} {'median ms':>9} {'p95 ms':>8} {'max ms':>8} "
        f"{'target':>7} {'KB':>6}  result"
    )
    lines = [header, "-" * len(header)]
    for r in results:
        start = f"{r.page:<23} {r.mode:<5}"
        if not r.available:
            blank = f"{'':>9} {'':>8} {'':>8}"
            lines.append(f"{start} {blank} {r.target_ms:>7.0f} {'':>6}  not available")
            continue
        verdict = "pass" if r.passed else "FAIL"
        if r.status != 200:
            verdict = f"FAIL (HTTP {r.status})"
        lines.append(
            f"{start} {r.percentile(50):>9.1f} {r.percentile(95):>8.1f} "
            f"{max(r.times_ms):>8.1f} {r.target_ms:>7.0f} "
            f"{r.size_bytes / 1024:>6.0f}  {verdict}"
        )
    return "\n".join(lines)
