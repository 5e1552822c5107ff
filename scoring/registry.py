"""The table of metrics, looked up by name with parameters.

A metric spec is ``name`` or ``name:key=value[,key=value...]``, for example
``"bleu"``, ``"bleu:n=2"`` or ``"bleu:n=2,smooth=none,lowercase=true"``.
Keyword options given to :func:`get_metric` (``tokenize="none"``) apply too;
a value written in the spec wins over a keyword option, because the spec is
the more specific request (``--metric bleu:tokenize=none --tokenize 13a``).

Many specs describe one configuration (``BLEU``, ``bleu:n=4``, ``bleu: n=4``);
:func:`canonical_spec` writes each configuration one way, so that results can
be stored and grouped under it.

Every numeric parameter has :class:`~scoring.base.Bounds`, declared with the
parameter; :func:`get_metric` refuses a value outside them before the metric
is built, naming the metric, the parameter, the value and the bounds. A
value of a parameter that names no server file is at most
``MAX_VALUE_LENGTH`` characters (none of the valid ones comes close), and a
message quotes at most ``ECHO_LIMIT`` characters of what the user wrote.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any

from scoring.base import Bounds, Metric, Parameter
from scoring.errors import MetricError, shortened
from scoring.metrics.chrf.metric import CHRF, CHRFPlusPlus
from scoring.metrics.edit.per import PER
from scoring.metrics.edit.ser import SER
from scoring.metrics.edit.wer import WER
from scoring.metrics.gtm.metric import GTM
from scoring.metrics.meteor.metric import Meteor
from scoring.metrics.ngram.bleu import BLEU, BLEUS
from scoring.metrics.ngram.nist import NIST
from scoring.metrics.red.metric import RED
from scoring.metrics.rouge.metrics import RougeL, RougeN, RougeS, RougeSU, RougeW
from scoring.metrics.ter.metric import TER
from scoring.metrics.wnm.metric import WNM
from scoring.results import json_safe

# The longest value a spec may give a parameter that names no server file.
MAX_VALUE_LENGTH = 100

# One line per metric, in the order of the SPEC's table.
_METRICS: dict[str, type[Metric]] = {
    BLEU.name: BLEU,
    BLEUS.name: BLEUS,
    NIST.name: NIST,
    WER.name: WER,
    PER.name: PER,
    SER.name: SER,
    TER.name: TER,
    GTM.name: GTM,
    RougeN.name: RougeN,
    RougeL.name: RougeL,
    RougeW.name: RougeW,
    RougeS.name: RougeS,
    RougeSU.name: RougeSU,
    Meteor.name: Meteor,
    WNM.name: WNM,
    CHRF.name: CHRF,
    CHRFPlusPlus.name: CHRFPlusPlus,
    RED.name: RED,
}


@dataclass(frozen=True)
class ParameterInfo:
    """A metric parameter as shown by ``list_metrics()``."""

    name: str
    type: str
    default: Any
    description: str
    choices: tuple[str, ...] = ()
    server_only: bool = False  # names a server file: see Parameter
    bounds: Bounds | None = None  # the numbers it accepts

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form; ``bounds`` is ``{"low", "high", "low_excluded"}``
        or None for a parameter that holds no number."""
        bounds = self.bounds
        return {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "description": self.description,
            "choices": list(self.choices),
            "server_only": self.server_only,
            "bounds": None
            if bounds is None
            else {
                "low": bounds.low,
                "high": bounds.high,
                "low_excluded": bounds.low_excluded,
            },
        }


@dataclass(frozen=True)
class MetricInfo:
    """A registered metric: name, description, direction and parameters."""

    name: str
    description: str
    higher_is_better: bool
    scale: float
    parameters: tuple[ParameterInfo, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return {
            "name": self.name,
            "description": self.description,
            "higher_is_better": self.higher_is_better,
            "scale": json_safe(self.scale),  # NIST is unbounded: inf -> null
            "parameters": [parameter.to_dict() for parameter in self.parameters],
        }


def _defaults(metric_class: type[Metric]) -> dict[str, Any]:
    return {
        field.name: field.default
        for field in fields(metric_class)  # type: ignore[arg-type]
        if field.default is not MISSING
    }


def _describe(metric_class: type[Metric]) -> MetricInfo:
    defaults = _defaults(metric_class)
    return MetricInfo(
        name=metric_class.name,
        description=metric_class.description,
        higher_is_better=metric_class.higher_is_better,
        scale=float(metric_class.scale),
        parameters=tuple(
            ParameterInfo(
                name=parameter.name,
                type=parameter.kind.__name__,
                default=defaults.get(parameter.attribute),
                description=parameter.description,
                choices=parameter.choices,
                server_only=parameter.server_only,
                bounds=parameter.bounds,
            )
            for parameter in metric_class.parameters
        ),
    )


def list_metrics() -> tuple[MetricInfo, ...]:
    """Every registered metric with its parameters, in registration order."""
    return tuple(_describe(metric_class) for metric_class in _METRICS.values())


def _valid_parameters_text(metric_class: type[Metric]) -> str:
    info = _describe(metric_class)
    if not info.parameters:
        return f"{info.name} takes no parameters"
    lines = [f"valid parameters of {info.name}:"]
    for parameter in info.parameters:
        choices = ""
        if parameter.choices:
            choices = f" (one of: {', '.join(parameter.choices)})"
        bounds = f"; {parameter.bounds}" if parameter.bounds else ""
        lines.append(
            f"  {parameter.name}: {parameter.description}{choices}; "
            f"default {parameter.default!r}{bounds}"
        )
    return "\n".join(lines)


def _parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"bleu:n=2,smooth=none"`` into ``("bleu", {"n": "2", ...})``."""
    if not isinstance(spec, str) or not spec.strip():
        raise MetricError(
            f"a metric spec must be a non-empty string, not {shortened(repr(spec))}"
        )
    name, _, parameter_text = spec.strip().partition(":")
    options: dict[str, str] = {}
    if parameter_text.strip():
        for item in parameter_text.split(","):
            key, equals, value = item.partition("=")
            if not equals or not key.strip():
                raise MetricError(
                    f"bad metric spec {shortened(spec)!r}: "
                    "expected name:key=value[,key=value...]"
                )
            options[key.strip()] = value.strip()
    return name.strip().lower(), options


def get_metric(
    spec: str, *, defaults: Mapping[str, Any] | None = None, **options: Any
) -> Metric:
    """Return the metric described by ``spec``, configured by ``options``.

    ``defaults`` are options applied only to metrics that have them (the
    command line's ``--tokenize`` and ``--lowercase`` mean nothing to a
    character metric); ``options`` must all exist. Precedence: spec, then
    ``options``, then ``defaults``.

    Raises :class:`MetricError` when the name is unknown (listing the valid
    names), a parameter is unknown or has a bad value (listing the valid
    parameters), or a number lies outside the parameter's bounds (checked
    before the metric is built, so nothing is loaded or computed).

    >>> get_metric("bleu:n=2", tokenize="none").signature(nrefs=1)
    'bleu|nrefs:1|case:mixed|tok:none|smooth:exp|n:2|version:0.1.0'
    """
    name, spec_options = _parse_spec(spec)
    metric_class = _metric_class(name)

    by_name = {parameter.name: parameter for parameter in metric_class.parameters}
    applicable = {k: v for k, v in (defaults or {}).items() if k in by_name}
    values: dict[str, Any] = {}
    for key, raw in {**applicable, **options, **spec_options}.items():
        parameter = by_name.get(key)
        if parameter is None:
            raise MetricError(
                f"unknown parameter {shortened(key)!r} for metric {name!r}\n"
                + _valid_parameters_text(metric_class)
            )
        if (
            isinstance(raw, str)
            and len(raw) > MAX_VALUE_LENGTH
            and not parameter.server_only
        ):
            raise MetricError(
                f"{name}: the value of {key!r} is {len(raw)} characters long; "
                f"at most {MAX_VALUE_LENGTH}"
            )
        try:
            value = _convert(parameter, raw)
        except ValueError as error:
            raise MetricError(
                f"bad value {shortened(raw)!r} for parameter {key!r} of metric "
                f"{name!r}: {error}\n" + _valid_parameters_text(metric_class)
            ) from None
        try:
            parameter.check_bounds(name, value)
        except MetricError as error:
            raise MetricError(
                f"{error}\n{_valid_parameters_text(metric_class)}"
            ) from None
        values[parameter.attribute] = value
    try:
        return metric_class(**values)
    except MetricError as error:
        raise MetricError(f"{error}\n{_valid_parameters_text(metric_class)}") from None


def server_only_parameters(spec: str) -> tuple[str, ...]:
    """The parameters that ``spec`` sets which name files on the server.

    Only the spec is read: the metric is not built, so no file is opened.
    A service that takes specs from other people refuses a spec for which
    this is not empty; the command line and the server's own configuration
    may set them. Raises :class:`MetricError` for an unknown metric or a
    malformed spec, like :func:`get_metric`.

    >>> server_only_parameters("meteor:paraphrase=/data/paraphrase-en.gz,norm=true")
    ('paraphrase',)
    >>> server_only_parameters("bleu:n=2")
    ()
    """
    name, spec_options = _parse_spec(spec)
    metric_class = _metric_class(name)
    marked = {p.name for p in metric_class.parameters if p.server_only}
    return tuple(key for key in spec_options if key in marked)


def _metric_class(name: str) -> type[Metric]:
    try:
        return _METRICS[name]
    except KeyError:
        raise MetricError(
            f"unknown metric {shortened(name)!r}; valid metrics: {', '.join(_METRICS)}"
        ) from None


def _convert(parameter: Parameter, raw: Any) -> Any:
    if parameter.choices and parameter.kind is str and raw not in parameter.choices:
        raise ValueError(f"expected one of: {', '.join(parameter.choices)}")
    return parameter.convert(raw)


def canonical_spec(spec: str | Metric) -> str:
    """The one way of writing the configuration that ``spec`` describes.

    The registry name, then only the parameters that differ from their
    defaults, in the metric's parameter order, with values written plainly
    (``true``/``false``, ``1.5``, ``2`` for 2.0). ``get_metric`` of the
    canonical spec equals ``get_metric(spec)``, and specs of equal metrics
    give the same text. Raises :class:`MetricError` for a bad spec, like
    :func:`get_metric`, or for a value that does not read back from a spec.

    >>> canonical_spec(" BLEU : n=4, lowercase=yes ")
    'bleu:lowercase=true'
    >>> canonical_spec("rouge-w:w=1.2")
    'rouge-w'
    """
    metric = spec if isinstance(spec, Metric) else get_metric(spec)
    metric_class = type(metric)
    if _METRICS.get(metric_class.name) is not metric_class:
        raise MetricError(f"{metric_class.__name__} is not a registered metric")
    defaults = _defaults(metric_class)
    items = []
    for parameter in metric_class.parameters:
        value = getattr(metric, parameter.attribute)
        if parameter.attribute in defaults and value == defaults[parameter.attribute]:
            continue
        items.append(f"{parameter.name}={_spec_value(value)}")
    canonical = f"{metric_class.name}:{','.join(items)}" if items else metric_class.name
    try:
        written_back = get_metric(canonical) == metric
    except MetricError:
        written_back = False
    if not written_back:
        # A value holding "," or "=" (a file path, say) does not read back.
        raise MetricError(f"{metric!r} cannot be written as a metric spec")
    return canonical


def _spec_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        text = repr(value)  # shortest text that reads back as the same float
        return text.removesuffix(".0")
    return str(value)
