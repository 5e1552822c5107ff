"""Stored renderings of a leaderboard, served with an ETag.

A rendering (the page's content, the API's JSON) is built once per version
of the leaderboard's data (:mod:`.version`), per query (ranked metric, test,
correction, p-values) and per team, and kept in Django's cache; every
request reads the version (four small SQL statements), answers 304 when the
client already holds that version (``If-None-Match``), and otherwise sends
the stored bytes. A new score, status, output, hidden flag, judgment
(through the statistics job's human columns) or deletion changes the
version, so the next request builds a new rendering: never a stale one.

Why the cache and not a table: serving from the web process's memory (the
default local-memory cache; Redis if ``CACHES`` points there) costs no query
and no copy of 300 KB out of the database on every request, and a lost
rendering (a restart, a culled entry) costs one build of 50-80 ms. Old
versions are never read again and are culled or expire.

Team scoping: the caller has already found the test set through the user's
teams (another team's test set is a 404 before any of this runs); the
team's id is part of every key and ETag all the same, so a rendering or an
ETag confirmation is never shared across teams even if a test set's
ownership changed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.utils.http import parse_etags

from mtdash.evaluation.leaderboard.version import LeaderboardVersion
from mtdash.evaluation.models import TestSet

# A rendering is rebuilt when its version changes; this only bounds how long
# an unused one stays.
STORED_SECONDS = 3600
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
class Stored:
    value: object  # what ``build`` returned
    etag: str  # quoted, as the ETag header carries it


def _digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()[:32]


def stored_rendering(
    test_set: TestSet,
    version: LeaderboardVersion,
    kind: str,
    query: LeaderboardQuery,
    build: Callable[[], T],
) -> Stored:
    """``build()``'s value for this test set, team, version, kind and query:
    from the cache when it was built before, else built now and stored."""
    tag = _digest(kind, test_set.pk, test_set.team_id, version.digest, query.key())
    key = f"leaderboard:{test_set.pk}:{test_set.team_id}:{kind}:{tag}"
    value = cache.get(key)
    if value is None:
        value = build()
        cache.set(key, value, STORED_SECONDS)
    return Stored(value, f'"{tag}"')


def personal_etag(etag: str, request: HttpRequest) -> str:
    """An ETag for a page that also shows who is signed in: the stored part's
    tag joined with the user and the CSRF secret its forms carry (a page
    cached before a new login holds a token that is no longer valid)."""
    get_token(request)  # sets the secret of a first visit before it is read
    secret = request.META.get("CSRF_COOKIE", "")
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
