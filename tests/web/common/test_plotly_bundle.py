"""The vendored Plotly partial bundle draws every chart mtdash makes.

Pages load ``static/vendor/plotly-basic-<version>.min.js`` (scatter, bar, pie)
instead of the 4.8 MB full bundle, so a figure builder that starts emitting a
trace type the bundle lacks (a heatmap, a histogram) would draw an empty box
with no error on the server. These tests find every trace type written in
the project's Python (figure dicts are literals in the builders) and in the
figures of a rendered page, and look each up in the bundle's own registry.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from django.template.loader import render_to_string

ROOT = Path(__file__).resolve().parents[3]
VENDOR = ROOT / "static" / "vendor"
SNIPPET = ROOT / "templates" / "_plotly.html"
MAX_BUNDLE_BYTES = 1_500_000

# Keys only a Plotly trace has next to "type" (an OpenAPI {"type": "apiKey",
# "name": ...} or an axis {"type": "log"} has none of them).
TRACE_KEYS = {
    "x",
    "y",
    "z",
    "mode",
    "marker",
    "orientation",
    "error_x",
    "error_y",
    "line",
    "hovertemplate",
    "values",
    "labels",
    "customdata",
    "nbinsx",
    "xbins",
}
# Keys of a layout shape ({"type": "line", "x0": ..., "line": {...}}).
SHAPE_KEYS = {"x0", "x1", "y0", "y1", "path"}


def _bundle() -> Path:
    bundles = sorted(VENDOR.glob("plotly-basic-*.min.js"))
    assert len(bundles) == 1, f"expected one partial bundle, found {bundles}"
    return bundles[0]


def _bundle_modules(kind: str) -> set[str]:
    """Names the bundle registers as ``moduleType:"<kind>"`` (trace, component)."""
    text = _bundle().read_text(encoding="utf-8")
    return set(re.findall(rf'moduleType:"{kind}",name:"(\w+)"', text))


def _literal_traces(tree: ast.AST) -> list[tuple[str, set[str]]]:
    """(type, keys) of every dict literal or dict(...) call with a string
    "type" and at least one trace-only key, shapes left out."""
    found = []
    for node in ast.walk(tree):
        keys: dict[str, ast.AST] = {}
        if isinstance(node, ast.Dict):
            keys = {
                key.value: value
                for key, value in zip(node.keys, node.values, strict=True)
                if isinstance(key, ast.Constant) and isinstance(key.value, str)
            }
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "dict":
            keys = {kw.arg: kw.value for kw in node.keywords if kw.arg}
        kind = keys.get("type")
        if (
            isinstance(kind, ast.Constant)
            and isinstance(kind.value, str)
            and TRACE_KEYS & set(keys)
            and not SHAPE_KEYS & set(keys)
        ):
            found.append((kind.value, set(keys)))
    return found


def _project_traces() -> dict[str, list[str]]:
    """Trace type -> the modules of mtdash/ that write it."""
    traces: dict[str, list[str]] = {}
    for path in sorted((ROOT / "mtdash").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for kind, _ in _literal_traces(tree):
            traces.setdefault(kind, []).append(str(path.relative_to(ROOT)))
    return traces


def test_the_bundle_is_a_partial_bundle_under_1_5_mb():
    size = _bundle().stat().st_size
    assert 100_000 < size < MAX_BUNDLE_BYTES, size


def test_the_bundle_registers_scatter_and_bar_with_error_bars():
    assert {"scatter", "bar"} <= _bundle_modules("trace")
    assert "errorbars" in _bundle_modules("component")
    assert "heatmap" not in _bundle_modules("trace")


def test_the_scanner_finds_trace_literals_and_skips_axes_and_schemas():
    source = """
bars = {"type": "bar", "x": [1], "y": ["a"]}
heat = dict(type="heatmap", z=[[1]])
axis = {"type": "log", "title": {"text": "n"}}
scheme = {"type": "apiKey", "in": "header", "name": "Authorization"}
diagonal = {"type": "line", "x0": 0, "y0": 0, "x1": 1, "y1": 1, "line": {}}
"""
    kinds = sorted(kind for kind, _ in _literal_traces(ast.parse(source)))
    assert kinds == ["bar", "heatmap"]


def test_every_trace_type_in_the_figure_builders_is_in_the_bundle():
    traces = _project_traces()
    assert "bar" in traces and "scatter" in traces, traces
    missing = {
        kind: where
        for kind, where in traces.items()
        if kind not in _bundle_modules("trace")
    }
    assert not missing, f"trace types the bundle cannot draw: {missing}"


def test_figures_with_error_bars_have_the_component():
    uses_error_bars = any(
        {"error_x", "error_y"} & keys
        for path in (ROOT / "mtdash").rglob("*.py")
        for _, keys in _literal_traces(ast.parse(path.read_text(encoding="utf-8")))
    )
    if uses_error_bars:
        assert "errorbars" in _bundle_modules("component")


def test_the_snippet_loads_the_partial_bundle_and_the_drawing_script():
    html = render_to_string("_plotly.html")
    sources = re.findall(r'<script src="/static/([^"]+)"', html)
    # collectstatic's names: each file's own name with a hash of its content.
    unhashed = [re.sub(r"\.[0-9a-f]{12}(\.js)$", r"\1", source) for source in sources]
    assert unhashed == [
        f"vendor/{_bundle().name}",
        "js/plotly_figure.js",
    ]
    assert unhashed != sources
    for source in unhashed:
        assert (ROOT / "static" / source).is_file(), source


@pytest.mark.django_db
def test_a_rendered_leaderboard_draws_only_bundled_traces(client, owner, test_set):
    from mtdash.evaluation.services.scoring_jobs import run_scoring_job
    from mtdash.evaluation.services.uploads import create_system_output
    from tests.conftest import PASSWORD

    for name, hypotheses in {
        "good": ["the cat is on the mat", "it is raining", "hello everyone"],
        "poor": ["cat", "rain", "greetings"],
    }.items():
        job = create_system_output(test_set, owner, name, hypotheses, queue=False)
        run_scoring_job(job.pk)
    client.login(username=owner.username, password=PASSWORD)
    page = client.get(test_set.get_absolute_url()).content.decode()
    scripts = re.findall(
        r'<script id="[^"]+" type="application/json">(.*?)</script>', page, re.S
    )
    kinds = {
        trace.get("type", "scatter")
        for figure in map(json.loads, scripts)
        if isinstance(figure, dict) and isinstance(figure.get("data"), list)
        for trace in figure["data"]
    }
    assert kinds, "the leaderboard page embeds no figure"
    assert kinds <= _bundle_modules("trace")
