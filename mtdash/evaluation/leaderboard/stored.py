"""Stored renderings of a leaderboard, served with an ETag.

A rendering (the page, the API's JSON) is built once per version of the
leaderboard's data (:mod:`.version`), per query (ranked metric, test,
correction, p-values) and per team, and kept in the web process; every
request reads the version (four small SQL statements), answers 304 when the
client already holds that version (``If-None-Match``: the ETag is known
before the rendering is looked at), and otherwise sends the stored text. A new score, status, output, hidden flag, judgment
(through the statistics job's human columns) or deletion changes the
version, so the next request builds a new rendering: never a stale one.

Why the process's memory and not a table or Django's cache: a rendering is
derived data, cheap to lose (a restart or an evicted entry costs one build
of 50-80 ms per process), and serving it must cost next to nothing. A table
would cost a query and a 300 KB copy out of the database per request;
Django's local-memory cache unpickles every value it returns (0.85 ms for
the page, a fifth of the budget of 5 ms), Redis adds a round trip to that.
A module-level LRU hands back the stored object itself. Each (test set,
team, kind, query) holds its latest version only: a new version replaces
the old one, and at most ``STORED_RENDERINGS`` are kept per process.

Team scoping: the caller has already found the test set through the user's
teams (another team's test set is a 404 before any of this runs); the
team's id is part of every key and ETag all the same, so a rendering or an
ETag confirmation is never shared across teams even if a test set's
ownership changed.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.utils.http import parse_etags

from mtdash.evaluation.leaderboard.version import LeaderboardVersion
from mtdash.evaluation.models import TestSet

# Renderings kept per web process, least recently used dropped first (the
# page of 50 x 20 is about 0.6 MB with its content: at most ~40 MB).
STORED_RENDERINGS = 64
# Longest query value kept in a key as given (longer ones are digested).
_QUERY_VALUE_CHARS = 200

T = TypeVar("T")


@dataclass(frozen=True)
class LeaderboardQuery:
    """What a request asks of the leaderboard, as the renderings are keyed."""

    metric: str | None = None
    test: str | None = None
    correction: str | None = None
    p_values: bool = False

    @classmethod
    def of(cls, params: Mapping[str, str], p_values: bool = False) -> LeaderboardQuery:
        return cls(
            params.get("metric") or None,
            params.get("test") or None,
            params.get("correction") or None,
            p_values,
        )

    def items(self) -> list[tuple[str, str]]:
        """The query's given parameters (for links that repeat it)."""
        given = {"metric": self.metric, "test": self.test}
        given["correction"] = self.correction
        return [(key, value) for key, value in given.items() if value]

    def key(self) -> str:
        text = repr((self.metric, self.test, self.correction, self.p_values))
        if len(text) <= _QUERY_VALUE_CHARS:
            return text
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Rendering:
    """Which stored rendering a request asks for, known before it is read."""

    key: tuple  # (kind, test set, team, query): one version stored at a time
    etag: str  # quoted, as the ETag header carries it; changes with the version


def _digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()[:32]


def rendering(
    test_set: TestSet, version: LeaderboardVersion, kind: str, query: LeaderboardQuery
) -> Rendering:
    """The rendering of ``kind`` for this test set, its team, ``version``
    and ``query``."""
    key = (kind, test_set.pk, test_set.team_id, query.key())
    return Rendering(key, f'"{_digest(*key, version.digest)}"')


_store: OrderedDict[tuple, tuple[str, object]] = OrderedDict()
_store_lock = threading.Lock()  # a threaded server shares the store


def stored_value(wanted: Rendering, build: Callable[[], T]) -> T:
    """The rendering's value: the stored one when it is of this version,
    else ``build()``'s, stored in place of an older version's."""
    with _store_lock:
        found = _store.get(wanted.key)
        if found is not None and found[0] == wanted.etag:
            _store.move_to_end(wanted.key)
            return found[1]  # type: ignore[return-value]
    value = build()  # outside the lock: a build takes tens of milliseconds
    with _store_lock:
        _store[wanted.key] = (wanted.etag, value)
        _store.move_to_end(wanted.key)
        while len(_store) > STORED_RENDERINGS:
            _store.popitem(last=False)
    return value


def forget_renderings() -> None:
    """Drop every stored rendering of this process (tests start afresh)."""
    with _store_lock:
        _store.clear()


def personal_etag(etag: str, request: HttpRequest) -> str:
    """An ETag for a page that also shows who is signed in: the stored part's
    tag joined with the user and the CSRF secret its forms carry (a page
    cached before a new login holds a token that is no longer valid)."""
    if "CSRF_COOKIE" not in request.META:
        get_token(request)  # a first visit: its secret is made (and sent) now
    secret = request.META["CSRF_COOKIE"]
    return f'"{_digest(etag, request.user.pk, secret)}"'


def not_modified(request: HttpRequest, etag: str) -> bool:
    """The client's ``If-None-Match`` names ``etag`` (or ``*``)."""
    header = request.META.get("HTTP_IF_NONE_MATCH")
    if not header:
        return False
    tags = parse_etags(header)
    # A weak comparison, as RFC 9110 asks for If-None-Match.
    return "*" in tags or etag in {tag.removeprefix("W/") for tag in tags}


def revalidated(etag: str) -> HttpResponse:
    """304: the client's copy is this version."""
    response = HttpResponseNotModified()
    return with_validator(response, etag)


def with_validator(response: HttpResponse, etag: str) -> HttpResponse:
    """``ETag`` plus ``Cache-Control: private, no-cache``: browsers keep the
    body but ask again each time (a 304 is cheap), shared caches keep
    nothing (the content is a team's)."""
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response
