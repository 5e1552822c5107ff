"""How the protocol tests run ``run_protocol``: settings, the run on a
synthetic world, and the cells read back by metric."""

from __future__ import annotations

from scoring.stats.wmt_protocol import (
    ProtocolSettings,
    run_protocol,
)
from scoring.stats.wmt_results import ProtocolResult
from tests.scoring.support.wmt_protocol_data import (
    World,
    metric_scores,
)

DRAWS = 200
SEED = 7
NAME = "synthetic"
SETTINGS = ProtocolSettings(n_permutations=DRAWS, seed=SEED)


def run(
    world: World, settings: ProtocolSettings = SETTINGS, name: str = NAME, data=None
):
    """The protocol on ``world`` (or on other SCORES.json ``data``)."""
    scores = world.scores() if data is None else metric_scores(data)
    return run_protocol(scores, world.judgments, world.criterion, settings, name=name)


def quick(**settings) -> ProtocolSettings:
    return ProtocolSettings(n_permutations=20, **settings)


def coefficients(result: ProtocolResult, task: str) -> dict[str, float | None]:
    return {c["metric"]: c["coefficient"] for c in result.task(task).cells()}


def epsilons(result: ProtocolResult, task: str) -> dict[str, float | None]:
    return {c["metric"]: c["tie_epsilon"] for c in result.task(task).cells()}
