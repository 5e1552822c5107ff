"""Every LaTeX export read back as LaTeX typesets it: outside comments and
math mode no "<" or ">" (nor "|"), which LaTeX's default OT1 font encoding
prints as "¡", "¿" and "—" unless the document loads
``\\usepackage[T1]{fontenc}``. The leaderboard's caption (metric and human
clusters), the ORANGE table, the correlations table and the metric
meta-evaluation tables are read."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.urls import reverse

from mtdash.judgments.correlations.exports import correlations_latex
from scoring.stats.best_metric import describe_test
from tests.conftest import PASSWORD
from tests.web.evaluation.test_exports_read_back import orange_job  # noqa: F401
from tests.web.evaluation.test_leaderboard_corrections import compared  # noqa: F401
from tests.web.judgments.meta_evaluation_support import judge, queue, run
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    artifact_dir_fixture,
    nbest_fixture,
)

# Characters an OT1-encoded text font prints as other glyphs.
OT1_MISPRINTED = "<>|"


def typeset_text(latex: str) -> str:
    """What LaTeX sets in text mode: comments (an unescaped "%" to the end of
    its line) and math (``$...$``) removed, escaped dollars kept as text."""
    lines = [re.sub(r"(?<!\\)%.*", "", line) for line in latex.splitlines()]
    text = "\n".join(lines).replace(r"\$", "")
    assert text.count("$") % 2 == 0, "unbalanced math mode"
    return re.sub(r"\$[^$]*\$", "", text)


def assert_prints_under_ot1(latex: str) -> None:
    text = typeset_text(latex)
    wrong = sorted({char for char in text if char in OT1_MISPRINTED})
    assert not wrong, (
        wrong,
        [line for line in text.splitlines() if set(line) & set(wrong)],
    )


def test_the_reader_finds_a_bare_less_than_and_skips_math_and_comments():
    assert_prints_under_ot1(r"$p < 0.05$ % p < 0.05" + "\n" + r"a \textless{} b")
    with pytest.raises(AssertionError):
        assert_prints_under_ot1(r"\caption{Holm-adjusted p < 0.05}")


def test_the_leaderboard_latex_prints_p_below_alpha_under_ot1(
    client,
    owner,
    compared,  # noqa: F811
):
    client.login(username=owner.username, password=PASSWORD)
    base = compared.get_absolute_url()
    for query in ({}, {"test": "bootstrap"}, {"correction": "none"}):
        latex = client.get(base + "leaderboard.tex", query).content.decode()
        assert_prints_under_ot1(latex)
        caption = latex[latex.index(r"\caption{") :]
        # The metric's clusters and the human column's clusters both say it.
        assert caption.count("$p < 0.05$ over all pairs") == 2, caption


def test_the_orange_latex_prints_under_ot1(client, orange_job):  # noqa: F811
    client.login(username="alice", password=PASSWORD)
    response = client.get(reverse("orange_job_export", args=[orange_job.pk, "tex"]))
    latex = response.content.decode()
    assert r"\begin{tabular}" in latex
    assert_prints_under_ot1(latex)


def test_the_correlations_latex_prints_under_ot1():
    cell = SimpleNamespace(
        coefficient=0.5,
        low=0.25,
        high=0.75,
        n_points=7,
        best=False,
        equivalent=True,
        p_value=0.2,
        too_few_points=False,
        compared_with="chrf",
    )
    for test in ("bootstrap", "williams"):
        table = SimpleNamespace(
            level="system",
            method="pearson",
            level_label="System-level",
            method_label="Pearson",
            criteria=["<adequacy>"],
            rows=[SimpleNamespace(metric="a|b", negated=True, cells=[cell])],
            n_points={"<adequacy>": 7},
            n_samples=1000,
            seed=1,
            interval={"label": "two-sided 95% percentile bootstrap, p < 0.05"},
            test=describe_test(test, 0.05),
            alpha=0.05,
            confidence=0.95,
            unit="system",
            negated=True,
        )
        assert_prints_under_ot1(correlations_latex(table))


@pytest.mark.django_db
def test_the_meta_evaluation_latex_prints_under_ot1(client, member, test_set, owner):
    job = run(queue(member, [judge(test_set, owner)])[0])
    client.force_login(member)
    response = client.get(reverse("meta_evaluation_export", args=[job.pk, "tex"]))
    latex = response.content.decode()
    assert r"\begin{tabular}" in latex
    assert_prints_under_ot1(latex)
