"""Which metrics a user may pick, and checking the specs they typed.

Specs are the ``scoring`` registry's (``bleu``, ``rouge-w:w=1.2``…), so the
web, the API and the command line accept exactly the same names, with one
exception: a parameter that names a file on the server (``red:model=…``,
``meteor:paraphrase=…``, ``wordnet=…``; ``scoring.server_only_parameters``)
is the command line's and the server configuration's business. A spec typed
by a user must not make the web process or a worker open a path of its
choosing, so :func:`check_metric_specs` refuses it before the metric is
built.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from functools import lru_cache
from typing import TypeVar

from scoring import (
    MetricError,
    canonical_spec,
    get_metric,
    list_metrics,
    server_only_parameters,
    shortened,
)


def metric_choices() -> list[tuple[str, str]]:
    """(spec, label) for every registered metric at its default parameters."""
    choices = []
    for info in list_metrics():
        direction = "↑" if info.higher_is_better else "↓"
        choices.append((info.name, f"{info.name} {direction} — {info.description}"))
    return choices


@lru_cache(maxsize=1024)
def stored_spec(spec: str) -> str:
    """The spec scores are stored and compared under: the registry's
    canonical spec (``BLEU : n=4`` -> ``bleu``), or, for a spec the registry
    does not read (a metric or parameter this version dropped, a typo in a
    queued job), the spec as stored without surrounding spaces, so its
    column still shows and its job still fails with the registry's message.
    """
    try:
        return canonical_spec(spec)
    except MetricError:
        return spec.strip()


def higher_is_better(spec: str) -> bool:
    """Whether the metric ``spec`` names scores better higher; True for a
    spec the registry does not read (so its column sorts like most)."""
    try:
        return bool(get_metric(spec).higher_is_better)
    except MetricError:
        return True


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


def check_metric_specs(
    specs: Iterable[str], *, has_document_ids: bool, max_length: int | None = None
) -> list[str]:
    """User-written specs, de-duplicated in order; raise ``MetricError`` naming
    a bad one.

    Refused: an unknown metric or parameter, a parameter that names a server
    file (checked before the metric is built, so nothing is opened), a metric
    that needs document ids the test set lacks, a number outside its
    parameter's bounds (``bleu:n=100000000``), and a spec longer than
    ``max_length`` characters as typed (checked first, before it is read) or
    in its canonical form (the length of the database field it is stored
    in). A message quotes the start of a long spec only.
    """
    checked = list(dict.fromkeys(specs))
    if not checked:
        raise MetricError("choose at least one metric")
    for spec in checked:
        shown = shortened(spec)
        if max_length is not None and len(spec) > max_length:
            raise _too_long(spec, len(spec), max_length)
        try:
            file_parameters = server_only_parameters(spec)
        except MetricError as error:
            raise MetricError(f"{shown}: {error}") from None
        if file_parameters:
            raise MetricError(_server_only_message(shown, file_parameters))
        try:
            metric = get_metric(spec)
        except MetricError as error:
            raise MetricError(f"{shown}: {error}") from None
        if max_length is not None:
            _check_length(spec, metric, max_length)
        if "document_ids" in metric.requires and not has_document_ids:
            raise MetricError(
                f"{shown} needs document ids; upload the test set with a document id file"
            )
    return checked


def _server_only_message(spec: str, names: tuple[str, ...]) -> str:
    listed = ", ".join(repr(name) for name in names)
    plural = "s" if len(names) > 1 else ""
    return (
        f"{spec}: the parameter{plural} {listed} name{'' if plural else 's'} a file "
        "on the server, which only the command line and the server configuration "
        "may set; leave it out to use the server's default"
    )


def _check_length(spec: str, metric, max_length: int) -> None:
    try:
        canonical = canonical_spec(metric)
    except MetricError:
        canonical = spec
    longest = max(len(spec), len(canonical))
    if longest > max_length:
        raise _too_long(spec, longest, max_length)


def _too_long(spec: str, length: int, max_length: int) -> MetricError:
    return MetricError(
        f"{shortened(spec)}: the metric spec is {length} characters long; "
        f"at most {max_length} can be stored"
    )


# Signature fields that describe the references a score was computed against.
REFERENCE_FIELDS = ("nrefs", "refs")
Row = TypeVar("Row")


def without_references(signature: str) -> str:
    """``signature`` without the fields naming the references (``nrefs``,
    chrF's ``refs`` fingerprint): what a human translation entered as a
    system, scored against the other references, shares with the MT
    outputs' signature."""
    return "|".join(
        part
        for part in signature.split("|")
        if part.partition(":")[0] not in REFERENCE_FIELDS
    )


def at_main_signature(
    by_output: Mapping[int, Row],
    signature_of: Callable[[Row], str],
    human_translations: Collection[int] = (),
) -> tuple[str, dict[int, Row]]:
    """(the main signature, the rows under it, by output id) of one metric
    column: the signature most MT outputs' scores carry (a tie: the first in
    sort order), and the rows that have it. A human translation's row counts
    when it differs only in the references; when only human translations
    are scored, their own most common signature is the main one."""
    machine = [
        signature_of(row)
        for output_id, row in by_output.items()
        if output_id not in human_translations
    ] or [signature_of(row) for row in by_output.values()]
    main = max(sorted(set(machine)), key=machine.count)
    loose = without_references(main)
    chosen = {
        output_id: row
        for output_id, row in sorted(by_output.items())
        if signature_of(row) == main
        or (
            output_id in human_translations
            and without_references(signature_of(row)) == loose
        )
    }
    return main, chosen
