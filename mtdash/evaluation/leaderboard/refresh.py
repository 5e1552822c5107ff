"""Whether a test set's leaderboard is about to change, for the page that
shows it: while scoring jobs run or the statistics (intervals, clusters) are
pending, the page polls this and reloads itself once the state it shows is
out of date."""

from __future__ import annotations

from dataclasses import dataclass

from mtdash.evaluation.leaderboard.page import (
    comparison_pending,
    leaderboard_cache_key,
)
from mtdash.evaluation.models import ScoringJob, TestSet


@dataclass(frozen=True)
class LeaderboardState:
    # Digest of everything the leaderboard shows (its cache key): a page
    # that rendered another one is out of date.
    state: str
    # A worker will change it: scoring jobs unfinished or statistics pending.
    pending: bool

    def to_dict(self) -> dict:
        return {"state": self.state, "pending": self.pending}


def leaderboard_state(
    test_set: TestSet,
    rank_by: str | None,
    test: str | None = None,
    correction: str | None = None,
) -> LeaderboardState:
    """The state of the leaderboard as ranked by the page's query."""
    scoring = ScoringJob.objects.filter(output__test_set=test_set).unfinished()
    return LeaderboardState(
        state=leaderboard_cache_key(test_set, rank_by, test, correction).rsplit(":", 1)[
            -1
        ],
        pending=comparison_pending(test_set) or scoring.exists(),
    )
