"""The settings a person may choose for a meta-evaluation, their names on the
pages, and :class:`scoring.stats.ProtocolSettings` to and from what a job
stores (``ProtocolSettings.to_dict()``)."""

from __future__ import annotations

from typing import Any

from scoring.stats import TASKS, ProtocolSettings

# How the pages name each task: (level, statistic).
TASK_LABELS = {
    "system:pearson": ("System", "Pearson r"),
    "system:accuracy": ("System", "pairwise accuracy"),
    "system:spa": ("System", "SPA"),
    "segment:acc_eq": ("Segment", "acc_eq"),
    "segment:kendall": ("Segment", "Kendall"),
    "segment:pearson": ("Segment", "Pearson r"),
}
# Segment groupings: one group per segment (WMT), per system, or none.
GROUPINGS = {"item": "by item (WMT)", "system": "by system", "none": "ungrouped"}
KENDALL_VARIANTS = {
    "23": "τ_23 (WMT)",
    "acc23": "acc_23",
    "b": "τ_b (ties not calibrated)",
}
# The statistic a Kendall column shows, by variant.
KENDALL_NAMES = {"23": "τ_23", "acc23": "acc_23", "b": "τ_b"}
MAX_PERMUTATIONS = 10_000
DEFAULTS = ProtocolSettings()


def chosen_settings(
    *,
    permutations: int = DEFAULTS.n_permutations,
    seed: int = DEFAULTS.seed,
    group_by: str = DEFAULTS.group_by,
    tie_calibration: bool = DEFAULTS.tie_calibration,
    kendall_variant: str = DEFAULTS.kendall_variant,
) -> ProtocolSettings:
    """WMT's settings with what a person chose (every task, α 0.05, per-judge
    z-scores, ungrouped segment Pearson); raises ``ScoringError`` for a
    value the library refuses."""
    return ProtocolSettings(
        n_permutations=permutations,
        seed=seed,
        group_by=group_by,
        tie_calibration=tie_calibration,
        kendall_variant=kendall_variant,
    )


def settings_from_dict(data: dict[str, Any]) -> ProtocolSettings:
    """The settings a job stored (``ProtocolSettings.to_dict()``)."""
    return ProtocolSettings(
        tasks=tuple(data.get("tasks", TASKS)),
        n_permutations=data["permutations"],
        seed=data["seed"],
        alpha=data["alpha"],
        group_by=data["group_by"],
        pearson_group_by=data["pearson_group_by"],
        tie_calibration=data["tie_calibration"],
        tie_sample_rate=data["tie_sample_rate"],
        kendall_variant=data["kendall_variant"],
        standardise=data.get("human", "z") == "z",
    )


def form_values(data: dict[str, Any] | None) -> dict[str, Any]:
    """The chosen settings of a stored ``to_dict()`` (the defaults for None),
    as the settings form's initial values."""
    data = data or DEFAULTS.to_dict()
    return {
        "permutations": data["permutations"],
        "seed": data["seed"],
        "group_by": data["group_by"],
        "tie_calibration": data["tie_calibration"],
        "kendall_variant": data["kendall_variant"],
    }


def grouped(grouping: str) -> str:
    """ "grouped by item (WMT)", "grouped by system" or "ungrouped"."""
    label = GROUPINGS.get(grouping, grouping)
    return label if grouping == "none" else f"grouped {label}"


def describe(data: dict[str, Any]) -> str:
    """One line for the pages: "1000 permutations, seed 1, α = 0.05, ..."."""
    variant = data["kendall_variant"]
    ties = "calibrated" if data["tie_calibration"] else "not calibrated"
    human = "per-judge z-scores" if data["human"] == "z" else "raw"
    return (
        f"{data['permutations']} permutations, seed {data['seed']}, "
        f"α = {data['alpha']:g}; segment acc_eq and Kendall "
        f"{grouped(data['group_by'])}, ties {ties}; Kendall variant "
        f"{KENDALL_NAMES.get(variant, variant)}; segment Pearson "
        f"{grouped(data['pearson_group_by'])}; human scores {human}"
    )
