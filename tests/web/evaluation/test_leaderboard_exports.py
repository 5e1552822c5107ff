"""The leaderboard's CSV and LaTeX downloads, and the formats that do not exist."""

import csv
import io
import re

import pytest
from django.urls import NoReverseMatch, reverse

from mtdash.evaluation.models import CorpusScore
from mtdash.evaluation.services.uploads import create_system_output
from scoring import __version__
from tests.conftest import PASSWORD

# One output, several scales: 0–100 (BLEU, TER), 0–1 (the rest), unbounded (NIST).
SCORES = {
    "bleu": 34.56789,
    "ter": 51.23456,
    "nist": 7.891234,
    "meteor": 0.456789,
    "gtm": 0.612345,
    "rouge-l": 0.543219,
    "red": 0.287654,
    "wnm": 0.398765,
}


def store(output, metric: str, score: float, signature: str = "") -> CorpusScore:
    """A score as a job would have saved it (``metric`` as it was typed)."""
    name = metric.partition(":")[0].strip().lower()
    return CorpusScore.objects.create(
        output=output,
        metric=metric,
        score=score,
        signature=signature or f"{name}|nrefs:2|version:{__version__}",
    )


def output_of(test_set, owner, system: str):
    job = create_system_output(test_set, owner, system, ["a", "b", "c"], queue=False)
    return job.output


@pytest.fixture
def many_metrics(test_set, owner):
    best, other = (
        output_of(test_set, owner, "sys_1 & co"),
        output_of(test_set, owner, "100% [b]"),
    )
    for metric, score in SCORES.items():
        store(best, metric, score)
        store(other, metric, score / 2)
    output_of(test_set, owner, "pending")
    return test_set


def download(client, owner, test_set, fmt: str, **query) -> str:
    client.login(username=owner.username, password=PASSWORD)
    response = client.get(reverse("test_set_export", args=[test_set.pk, fmt]), query)
    assert response.status_code == 200
    return response.content.decode()


def plain(cell: str) -> str:
    """A LaTeX cell without its bold and its cluster superscript."""
    cell = re.sub(r"\$\^\{\d+\}\$$", "", cell)
    match = re.fullmatch(r"\\textbf\{(.*)\}", cell)
    return match.group(1) if match else cell


def table_rows(latex: str) -> list[list[str]]:
    """The cells of the header and each row, split on unescaped ``&``
    (bold and cluster superscripts removed)."""
    body = latex.split(r"\toprule")[1].split(r"\bottomrule")[0]
    rows = [line for line in body.strip().splitlines() if line != r"\midrule"]
    assert all(row.endswith(r" \\") for row in rows)
    return [
        [
            plain(cell.strip())
            for cell in re.split(r"(?<!\\)&", row.removesuffix(r" \\"))
        ]
        for row in rows
    ]


def test_the_csv_export_is_read_as_one_row_per_system_with_numeric_columns(
    client, owner, many_metrics
):
    text = download(client, owner, many_metrics, "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [row["system"] for row in rows] == ["sys_1 & co", "100% [b]", "pending"]
    assert [row["rank"] for row in rows] == ["1", "2", ""]
    for metric, score in SCORES.items():
        assert float(rows[0][metric]) == score  # full precision
        assert float(rows[1][metric]) == score / 2
        assert rows[2][metric] == ""  # pandas reads an empty cell as NaN
        # No interval before the comparison job has run: empty, not zero.
        assert rows[0][f"{metric} low"] == rows[0][f"{metric} cluster"] == ""
    header = next(csv.reader(io.StringIO(text)))
    assert header[:4] == ["rank", "rank_range", "system", "bleu"]
    assert len(header) == 3 + 4 * len(SCORES)
    assert not any("signature" in name for name in header)  # in the sidecar


def test_the_signatures_sidecar_names_every_column(client, owner, many_metrics):
    text = download(client, owner, many_metrics, "signatures.csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert {row["metric"] for row in rows} == set(SCORES)
    for row in rows:
        assert row["signature"].startswith(f"{row['metric']}|nrefs:2|")
    assert {row["higher_is_better"] for row in rows if row["metric"] == "ter"} == {
        "False"
    }


def test_latex_keeps_four_decimals_for_zero_to_one_metrics(client, owner, many_metrics):
    latex = download(client, owner, many_metrics, "tex")
    header, best = table_rows(latex)[:2]
    cells = {name.split(" ")[0]: cell for name, cell in zip(header[2:], best[2:])}
    assert cells == {
        "bleu": "34.57",
        "gtm": "0.6123",
        "meteor": "0.4568",
        "nist": "7.89",
        "red": "0.2877",
        "rouge-l": "0.5432",
        "ter": "51.23",
        "wnm": "0.3988",
    }


def test_the_page_shows_the_same_digits_as_the_latex(client, owner, many_metrics):
    latex = download(client, owner, many_metrics, "tex")
    page = client.get(many_metrics.get_absolute_url()).content.decode()
    for cell in table_rows(latex)[1][2:]:
        assert f">{cell}<" in page


def test_the_latex_export_is_a_valid_booktabs_tabular(client, owner, many_metrics):
    latex = download(client, owner, many_metrics, "tex")
    assert r"\usepackage{booktabs}" in latex.splitlines()[0]
    code = [line for line in latex.splitlines() if line and not line.startswith("%")]
    assert code[:4] == [
        r"\begin{table}",
        r"\centering",
        r"\begin{tabular}{rl" + "r" * len(SCORES) + "}",
        r"\toprule",
    ]
    assert code[-4:-2] == [r"\bottomrule", r"\end{tabular}"]
    assert code[-2].startswith(r"\caption{") and code[-1] == r"\end{table}"
    rows = table_rows(latex)
    assert len(rows) == 4  # header and three systems
    assert {len(row) for row in rows} == {2 + len(SCORES)}
    # Ranked: the unscored output last, its cells an en dash.
    assert rows[3][:2] == ["", "pending"] and rows[3][2:] == ["--"] * len(SCORES)
    text = "\n".join(code)
    assert text.count("{") == text.count("}")
    assert "bleu $\\uparrow$" in text and "ter $\\downarrow$" in text
    # Every signature is a comment: the numbers stay reproducible.
    assert sum(line.startswith("% ") for line in latex.splitlines()) == 1 + len(SCORES)


@pytest.mark.parametrize(
    ("system", "escaped"),
    [
        ("sys_1 & co", r"sys\_1 \& co"),
        ("100% [b]", r"100\% [b]"),
        ("#1 {big} $sys$", r"\#1 \{big\} \$sys\$"),
        ("a\\b ~c^", r"a\textbackslash{}b \textasciitilde{}c\textasciicircum{}"),
        ("<best>|v2", r"\textless{}best\textgreater{}\textbar{}v2"),
        ("two\nlines", "two lines"),
        ("sys--v2", "sys-{}-v2"),
    ],
)
def test_the_latex_export_prints_system_names_literally(
    client, owner, test_set, system, escaped
):
    store(output_of(test_set, owner, system), "bleu", 20.0)
    rows = table_rows(download(client, owner, test_set, "tex"))
    assert rows[1][1] == escaped


@pytest.mark.parametrize(
    "path", ["leaderboard.pdf", "leaderboard.txt", "leaderboard.CSV", "leaderboard."]
)
def test_unknown_export_format_is_a_404(client, owner, many_metrics, path):
    client.login(username=owner.username, password=PASSWORD)
    url = reverse("test_set_detail", args=[many_metrics.pk]) + path
    assert client.get(url).status_code == 404


def test_only_the_real_formats_have_urls(many_metrics):
    for fmt in ("csv", "tex", "json", "signatures.csv"):
        assert reverse("test_set_export", args=[many_metrics.pk, fmt]).endswith(fmt)
    with pytest.raises(NoReverseMatch):
        reverse("test_set_export", args=[many_metrics.pk, "pdf"])


def test_the_downloads_are_named_by_their_format(client, owner, many_metrics):
    client.login(username=owner.username, password=PASSWORD)
    for fmt, content_type in (
        ("csv", "text/csv"),
        ("tex", "application/x-latex"),
        ("json", "application/json"),
        ("signatures.csv", "text/csv"),
    ):
        url = reverse("test_set_export", args=[many_metrics.pk, fmt])
        response = client.get(url)
        assert response["Content-Type"] == f"{content_type}; charset=utf-8"
        assert response["Content-Disposition"] == (
            f'attachment; filename="leaderboard-{many_metrics.pk}.{fmt}"'
        )


def test_the_exports_are_ranked_like_the_page(client, owner, many_metrics):
    text = download(client, owner, many_metrics, "csv", metric="TER")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0])[3] == "ter"  # ranked by TER, lower is better
    assert [row["system"] for row in rows] == ["100% [b]", "sys_1 & co", "pending"]


def test_an_outsider_cannot_download_the_leaderboard(client, outsider, many_metrics):
    client.login(username=outsider.username, password=PASSWORD)
    url = reverse("test_set_export", args=[many_metrics.pk, "csv"])
    assert client.get(url).status_code == 404


def test_latex_bolds_the_best_score_of_each_metric(client, owner, many_metrics):
    latex = download(client, owner, many_metrics, "tex")
    body = latex.split(r"\midrule")[1].split(r"\bottomrule")[0]
    first, second = body.strip().splitlines()[:2]
    # "sys_1 & co" has every score doubled: best everywhere but on TER.
    assert first.count(r"\textbf{") == len(SCORES) - 1
    assert second.count(r"\textbf{") == 1 and r"\textbf{25.62}" in second
