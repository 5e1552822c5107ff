"""Which metrics a user may pick, and checking the specs they typed.

Specs are the ``scoring`` registry's (``bleu``, ``rouge-w:w=1.2``…), so the
web, the API and the command line accept exactly the same names.
"""

from __future__ import annotations

from collections.abc import Iterable

from scoring import MetricError, get_metric, list_metrics


def metric_choices() -> list[tuple[str, str]]:
    """(spec, label) for every registered metric at its default parameters."""
    choices = []
    for info in list_metrics():
        direction = "↑" if info.higher_is_better else "↓"
        choices.append((info.name, f"{info.name} {direction} — {info.description}"))
    return choices


def parse_metric_specs(text: str) -> list[str]:
    """Split free text on commas between specs, spaces and new lines.

    Commas also separate a spec's own parameters (``bleu:n=2,smooth=none``),
    so a comma starts a new spec only when what follows has no ``=`` before
    the next ``:``.
    """
    specs: list[str] = []
    for chunk in text.replace(";", " ").split():
        for part in chunk.split(","):
            part = part.strip()
            if not part:
                continue
            if specs and "=" in part and ":" not in part:
                specs[-1] = f"{specs[-1]},{part}"  # a parameter of the previous spec
            else:
                specs.append(part)
    return specs


def check_metric_specs(specs: Iterable[str], *, has_document_ids: bool) -> list[str]:
    """The specs, de-duplicated in order; raise ``MetricError`` naming a bad one."""
    checked = list(dict.fromkeys(specs))
    if not checked:
        raise MetricError("choose at least one metric")
    for spec in checked:
        try:
            metric = get_metric(spec)
        except MetricError as error:
            raise MetricError(f"{spec}: {error}") from None
        if "document_ids" in metric.requires and not has_document_ids:
            raise MetricError(
                f"{spec} needs document ids; upload the test set with a document id file"
            )
    return checked
