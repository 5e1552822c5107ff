"""Whether a test set's leaderboard is about to change, for the page that
shows it: while scoring jobs run or the statistics (intervals, clusters) are
pending, the page polls this and reloads itself once the state it shows is
out of date."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from mtdash.evaluation.leaderboard.stored import LeaderboardQuery
from mtdash.evaluation.leaderboard.version import LeaderboardVersion


@dataclass(frozen=True)
class LeaderboardState:
    # Digest of the data's version and the page's query: a page that
    # rendered another one is out of date.
    state: str
    # A worker will change it: scoring jobs unfinished or statistics pending.
    pending: bool

    def to_dict(self) -> dict:
        return {"state": self.state, "pending": self.pending}


def leaderboard_state(
    version: LeaderboardVersion, query: LeaderboardQuery
) -> LeaderboardState:
    """The state of the leaderboard at ``version`` as ranked by ``query``."""
    text = repr((version.digest, query.key()))
    return LeaderboardState(
        state=hashlib.sha256(text.encode("utf-8")).hexdigest()[:32],
        pending=version.pending,
    )
