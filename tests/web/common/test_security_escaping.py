"""Everything a user wrote is escaped for the format it is written to: LaTeX
exports, CSV for spreadsheets, Plotly chart labels."""

from __future__ import annotations

import csv
import io
import re
from types import SimpleNamespace

import pytest
from django.urls import reverse

from mtdash.common.exports import chart_text, spreadsheet_text
from mtdash.evaluation.leaderboard.build import build_leaderboard
from mtdash.evaluation.leaderboard.figures import leaderboard_figure
from mtdash.evaluation.models import CorpusScore
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.orange.jobs.figures import orange_curve_figure
from mtdash.orange.jobs.lifecycle import create_orange_job, run_orange_job_now
from scoring import __version__
from scoring.orange import OrangeOptions
from tests.conftest import PASSWORD
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    artifact_dir_fixture,
    nbest_fixture,
)

WRITE18 = "evil\n\\immediate\\write18{id}\n%"
HOSTILE_NAMES = [
    WRITE18,
    "cr\r\\input{/etc/passwd}",
    "ls\u2028\\write18{ls}",
    "nel\x85\\write18{ls}\x0c%",
]
FORMULAS = [
    '=HYPERLINK("http://evil.example/","click")',
    "+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(A1:A2)",
]
LINK = '<a href="https://evil.example/">click me</a>'


@pytest.fixture
def logged_in(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    return client


def add_system(test_set, owner, name: str, bleu: float) -> None:
    job = create_system_output(test_set, owner, name, ["a", "b", "c"], queue=False)
    CorpusScore.objects.create(
        output=job.output,
        metric="bleu",
        score=bleu,
        signature=f"bleu|nrefs:2|version:{__version__}",
    )


def download(client, test_set, fmt: str) -> str:
    response = client.get(reverse("test_set_export", args=[test_set.pk, fmt]))
    assert response.status_code == 200
    return response.content.decode()


def tabular_rows(latex: str) -> list[str]:
    body = latex.split(r"\midrule")[1].split(r"\bottomrule")[0]
    return body.strip().split("\n")


def assert_no_live_tex(latex: str) -> None:
    """Every line is a comment or table text; no user text starts a command."""
    for line in latex.split("\n"):
        if line.startswith("%"):
            continue
        assert "\\write18" not in line and "\\input" not in line
        assert not re.search(r"(?<!\\)%", line), line  # nothing commented out
    assert "\r" not in latex and "\x0c" not in latex
    assert "\u2028" not in latex and "\x85" not in latex


# -- LaTeX ------------------------------------------------------------------------


def test_hostile_system_names_stay_inside_their_leaderboard_table_cells(
    logged_in, owner, test_set
):
    for score, name in enumerate(HOSTILE_NAMES):
        add_system(test_set, owner, name, 10.0 + score)
    latex = download(logged_in, test_set, "tex")

    assert_no_live_tex(latex)
    rows = tabular_rows(latex)
    assert len(rows) == len(HOSTILE_NAMES)
    for row in rows:
        cells = re.split(r"(?<!\\)&", row.removesuffix(r" \\"))
        assert len(cells) == 3 and row.endswith(r" \\")
    assert r"evil \textbackslash{}immediate\textbackslash{}write18\{id\} \%" in latex


def test_a_hostile_nbest_name_cannot_leave_the_orange_latex_comment(
    logged_in, nbest, owner
):
    nbest.name = WRITE18 + "\u2028\\input{x}\r\\write18{y}"
    nbest.save(update_fields=["name"])
    options = OrangeOptions(curve_step=1, n_bootstrap=0, seed=1)
    job = run_orange_job_now(
        create_orange_job(nbest, owner, ["bleu", "wer"], options, queue=False)
    )
    response = logged_in.get(reverse("orange_job_export", args=[job.pk, "tex"]))
    latex = response.content.decode()

    assert_no_live_tex(latex)
    lines = latex.split("\n")
    assert lines[0].startswith(
        "% ORANGE over evil \\immediate\\write18{id} % \\input{x} \\write18{y}: "
    )
    assert len(tabular_rows(latex)) == 2


# -- CSV --------------------------------------------------------------------------


@pytest.mark.parametrize("formula", FORMULAS)
def test_a_system_name_that_looks_like_a_formula_is_text_in_the_leaderboard_csv(
    logged_in, owner, test_set, formula
):
    add_system(test_set, owner, formula, 12.5)
    add_system(test_set, owner, "plain-name", 10.0)
    rows = list(csv.DictReader(io.StringIO(download(logged_in, test_set, "csv"))))

    assert [row["system"] for row in rows] == ["'" + formula, "plain-name"]
    assert float(rows[0]["bleu"]) == 12.5  # numbers are not touched
    for row in rows:
        assert not any(cell.startswith(("=", "+", "-", "@")) for cell in row.values())


def test_a_formula_in_the_nbest_name_is_text_in_the_orange_csv(logged_in, nbest, owner):
    nbest.name = FORMULAS[0]
    nbest.save(update_fields=["name"])
    job = run_orange_job_now(
        create_orange_job(
            nbest, owner, ["bleu"], OrangeOptions(n_bootstrap=0), queue=False
        )
    )
    response = logged_in.get(reverse("orange_job_export", args=[job.pk, "csv"]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    cells = [cell for row in rows for cell in row]
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in cells)
    # The name is in the settings line, a comment a spreadsheet shows as one cell.
    (settings,) = rows[0]
    assert settings.startswith("# ORANGE over =HYPERLINK(")


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("=1+1", "'=1+1"),
        ("+1", "'+1"),
        ("-x", "'-x"),
        ("@x", "'@x"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("online-B", "online-B"),
        ("", ""),
    ],
)
def test_spreadsheet_text_prefixes_what_a_spreadsheet_would_run(text, written):
    assert spreadsheet_text(text) == written


# -- Plotly labels ------------------------------------------------------------------


def test_a_link_in_a_system_name_is_plain_text_in_the_leaderboard_chart(
    owner, test_set
):
    add_system(test_set, owner, LINK, 20.0)
    add_system(test_set, owner, "AT&T <b>bold</b>", 10.0)
    figure = leaderboard_figure(build_leaderboard(test_set))
    labels = figure["data"][0]["y"]

    assert labels == [
        "AT&amp;T &lt;b&gt;bold&lt;/b&gt;",
        '&lt;a href="https://evil.example/"&gt;click me&lt;/a&gt;',
    ]
    assert not any("<" in label or ">" in label for label in labels)
    assert "<" not in figure["layout"]["title"]["text"]


def test_metric_labels_of_the_orange_curve_are_plain_text():
    results = [
        SimpleNamespace(metric="<b>bleu</b>", curve=[[1, 50.0], [2, 40.0]]),
        SimpleNamespace(metric="x%{y}&", curve=[[1, 45.0], [2, 30.0]]),
    ]
    figure = orange_curve_figure(results, best={"x%{y}&"})
    names = [line["name"] for line in figure["data"]]
    assert names == ["&lt;b&gt;bleu&lt;/b&gt;", "x%{y}&amp; (best)"]
    hover = figure["data"][1]["hovertemplate"]
    assert hover.startswith("x%&#123;y}&amp;<br>first %{x} candidates")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (LINK, '&lt;a href="https://evil.example/"&gt;click me&lt;/a&gt;'),
        ("a&lt;b", "a&amp;lt;b"),
        ("two\nlines<br>", "two lines&lt;br&gt;"),
    ],
)
def test_chart_text_turns_plotly_markup_into_entities(text, shown):
    assert chart_text(text) == shown
