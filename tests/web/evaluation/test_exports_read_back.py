"""Every CSV and Excel export read back as researchers read them: pandas
(``read_csv(comment="#")``, ``read_excel``) and openpyxl. Number columns
come back numeric (a negative z-score is a number, not ``'-0.41``),
provenance is never a data row, and text that a spreadsheet would run as
a formula is still guarded."""

from __future__ import annotations

import io
import math
from types import SimpleNamespace

import numpy as np
import openpyxl
import pandas as pd
import pytest
from django.urls import reverse
from pandas.api.types import is_numeric_dtype

from mtdash.common.exports import csv_text
from mtdash.evaluation.leaderboard.comparisons import (
    ComparisonSettings,
    compare_test_set,
)
from mtdash.evaluation.models import System
from mtdash.evaluation.readability.exports import (
    readability_csv,
    scores_csv,
    stability_csv,
)
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.judgments.correlations.exports import correlations_csv
from mtdash.judgments.imports.judgments import import_judgments
from mtdash.judgments.overview.summary import segments_csv_text, systems_csv_text
from mtdash.orange.jobs.lifecycle import create_orange_job, run_orange_job_now
from mtdash.orange.reviews.reviewing import create_review, mark_item
from scoring.orange import OrangeOptions
from tests.conftest import PASSWORD
from tests.web.orange.orange_support import (  # noqa: F401  (fixtures)
    artifact_dir_fixture,
    nbest_fixture,
)

HYPERLINK = '=HYPERLINK("http://evil.example/","click")'
OPTIONS = ComparisonSettings(
    seed=7, n_samples=200, n_trials=200, confidence=0.95, alpha=0.05
)
# sys-b is judged below sys-a: its per-judge z-score is negative.
JUDGMENTS = """segment,system,judge,criterion,value
1,sys-a,j1,adequacy,5
2,sys-a,j1,adequacy,4
3,sys-a,j1,adequacy,3
1,sys-b,j1,adequacy,1
2,sys-b,j1,adequacy,2
1,sys-b,j2,adequacy,3
"""


HYPOTHESES = {
    "sys-a": ["the cat is on the mat", "it rains", "hello"],
    "sys-b": ["a cat", "rain", "hi all"],
}
# The conftest test set's references.
REFERENCES = [
    ["the cat is on the mat", "it is raining", "hello everyone"],
    ["there is a cat on the mat", "it rains", "hello all"],
]
# Expected human figures, by hand: j1's values 5,4,3,1,2 have mean 3 and sd
# sqrt(2.5); j2 judged once (z = 0). sys-b's segment 1 averages its judges'
# z, then the system averages its segments.
SD = 2.5**0.5
HUMAN_Z = [
    ((5 - 3) / SD + (4 - 3) / SD + (3 - 3) / SD) / 3,
    (((1 - 3) / SD + 0.0) / 2 + (2 - 3) / SD) / 2,
]
HUMAN_MEAN = [4.0, 2.0]


def sacrebleu_scores() -> list[float]:
    """Each system's corpus BLEU by sacreBLEU, not by the code under test."""
    import sacrebleu

    return [
        sacrebleu.corpus_bleu(HYPOTHESES[name], REFERENCES).score
        for name in ("sys-a", "sys-b")
    ]


def read_csv(text: str) -> pd.DataFrame:
    return pd.read_csv(io.StringIO(text), comment="#")


def assert_numeric(frame: pd.DataFrame, columns) -> None:
    for column in columns:
        assert is_numeric_dtype(frame[column]), (column, frame[column].tolist())


@pytest.fixture
def judged(test_set, owner):
    """Two scored systems with human judgments, renamed to a formula and to a
    name starting with "-" after the judgments were imported."""
    for system, hypotheses in HYPOTHESES.items():
        job = create_system_output(test_set, owner, system, hypotheses, queue=False)
        run_scoring_job(job.pk)
    import_judgments(test_set, owner, JUDGMENTS.encode(), "j.csv")
    System.objects.filter(name="sys-a").update(name=HYPERLINK)
    System.objects.filter(name="sys-b").update(name="-foo")
    compare_test_set(test_set, options=OPTIONS, analyses=False)
    return test_set


def download(client, test_set, fmt: str) -> bytes:
    client.login(username="alice", password=PASSWORD)
    response = client.get(reverse("test_set_export", args=[test_set.pk, fmt]))
    assert response.status_code == 200
    return response.content


def test_the_leaderboard_csv_reads_back_with_numbers_as_numbers(client, judged):
    text = download(client, judged, "csv").decode()
    assert "'-0" not in text  # the bug: negative numbers were written as text
    frame = pd.read_csv(io.StringIO(text))  # no comment lines: reads as it is
    assert frame["system"].tolist() == ["'" + HYPERLINK, "'-foo"]
    assert_numeric(
        frame, [c for c in frame.columns if c not in ("rank_range", "system")]
    )
    z = frame["human adequacy z"]
    assert z.iloc[1] < 0  # -foo is judged worse
    assert z.tolist() == pytest.approx(HUMAN_Z, abs=1e-12)
    assert frame["human adequacy mean"].tolist() == pytest.approx(HUMAN_MEAN)
    assert frame["bleu"].tolist() == pytest.approx(sacrebleu_scores(), abs=1e-9)


def test_the_signatures_csv_reads_back(client, judged):
    frame = read_csv(download(client, judged, "signatures.csv").decode())
    assert "bleu" in set(frame["metric"])
    assert_numeric(frame, ["seed", "bootstrap_samples", "confidence", "alpha"])
    assert frame["seed"].tolist() == [7] * len(frame)


def test_the_leaderboard_xlsx_has_numbers_signatures_and_provenance(client, judged):
    body = download(client, judged, "xlsx")
    workbook = openpyxl.load_workbook(io.BytesIO(body))
    assert workbook.sheetnames == ["leaderboard", "signatures", "provenance"]
    sheet = workbook["leaderboard"]
    header = [cell.value for cell in sheet[1]]
    first, second = sheet[2], sheet[3]
    system = header.index("system")
    # The name exactly as written, a text cell with Excel's quote prefix.
    assert first[system].value == HYPERLINK
    assert first[system].data_type == "s" and first[system].quotePrefix
    assert second[system].value == "-foo" and second[system].quotePrefix
    z = second[header.index("human adequacy z")]
    assert z.data_type == "n" and z.value < 0
    # The numbers themselves, against hand figures and sacreBLEU (15
    # significant digits: Excel's precision), not only against the CSV.
    for column, expected in (
        ("human adequacy z", HUMAN_Z),
        ("human adequacy mean", HUMAN_MEAN),
        ("bleu", sacrebleu_scores()),
    ):
        cells = [first[header.index(column)], second[header.index(column)]]
        assert all(cell.data_type == "n" for cell in cells), column
        assert [cell.value for cell in cells] == pytest.approx(
            expected, rel=1e-14, abs=1e-14
        ), column
    assert not any(cell.data_type == "f" for row in sheet.iter_rows() for cell in row)
    frames = pd.read_excel(io.BytesIO(body), sheet_name=None)
    csv_frame = pd.read_csv(io.StringIO(download(client, judged, "csv").decode()))
    frame = frames["leaderboard"]
    assert list(frame.columns) == list(csv_frame.columns)
    numbers = [c for c in frame.columns if c not in ("rank_range", "system")]
    assert_numeric(frame, numbers)
    # The same numbers as the CSV: a workbook keeps 15 significant digits
    # (Excel's precision), the CSV all 17.
    for column in numbers:
        assert frame[column].tolist() == pytest.approx(
            csv_frame[column].tolist(), nan_ok=True, rel=1e-14, abs=0
        )
    assert "bleu" in set(frames["signatures"]["metric"])
    provenance = dict(frames["provenance"].itertuples(index=False))
    assert provenance["test set id"] == judged.pk
    assert provenance["ranked by"] == frame.columns[3]


def test_the_leaderboard_page_links_the_excel_export(client, judged):
    client.login(username="alice", password=PASSWORD)
    page = client.get(judged.get_absolute_url()).content.decode()
    assert reverse("test_set_export", args=[judged.pk, "xlsx"]) in page


@pytest.fixture
def orange_job(nbest, owner):
    nbest.name = "list, =cmd"  # a formula after a comma of the settings line
    nbest.save(update_fields=["name"])
    return run_orange_job_now(
        create_orange_job(
            nbest, owner, ["bleu", "wer"], OrangeOptions(n_bootstrap=50), queue=False
        )
    )


def test_the_orange_csv_has_its_settings_above_the_header(client, orange_job):
    client.login(username="alice", password=PASSWORD)
    response = client.get(reverse("orange_job_export", args=[orange_job.pk, "csv"]))
    text = response.content.decode()
    first = text.splitlines()[0]
    # One comment cell: no delimiter or quote a spreadsheet would split at.
    assert first.startswith("# ORANGE over list · =cmd:")
    assert not any(char in first for char in ',;"')
    frame = read_csv(text)
    assert frame["metric"].tolist() == ["bleu", "wer"]  # no "# ..." data row
    assert_numeric(frame, ["orange_percent", "avg_rank", "ci_low", "ci_high"])
    assert_numeric(frame, ["n_sentences", "n_short", "max_candidates"])
    bleu = orange_job.scores.get(metric="bleu")
    assert frame["avg_rank"].iloc[0] == bleu.avg_rank
    assert frame["ci_low"].iloc[0] == bleu.ci_low


def test_the_review_csv_has_its_settings_above_the_header(client, orange_job, owner):
    review = create_review(orange_job, "wer", 2, 1, owner)
    items = list(review.items.all())
    mark_item(items[0], owner, "worse")
    client.login(username="alice", password=PASSWORD)
    response = client.get(reverse("orange_review_export", args=[review.pk, "csv"]))
    text = response.content.decode()
    assert text.startswith("# review ")
    frame = read_csv(text)
    assert frame["reviewer"].tolist() == ["alice", "all reviewers"]
    assert_numeric(frame, ["good", "worse", "unsure", "share_worse"])
    assert_numeric(frame, ["share_worse_low", "share_worse_high"])
    assert frame["worse"].tolist() == [1, 1]
    assert frame["share_worse"].tolist() == [1.0, 1.0]


def test_the_correlations_csv_reads_back():
    cell = SimpleNamespace(
        criterion="-adequacy",
        coefficient=-0.25,
        low=-0.5,
        high=0.125,
        n_points=7,
        best=False,
        equivalent=True,
        p_value=None,
        too_few_points=False,
        compared_with="chrf",
    )
    table = SimpleNamespace(
        level="system",
        method="pearson",
        rows=[SimpleNamespace(metric="=bleu #2", negated=True, cells=[cell, None])],
        n_samples=1000,
        seed=None,
        interval={"sides": "two-sided", "kind": "percentile bootstrap"},
        test={"name": "paired bootstrap", "sides": "one-sided"},
        alpha=0.05,
        confidence=0.95,
        unit="system",
    )
    frame = read_csv(correlations_csv(table))
    assert frame["criterion"].tolist() == ["'-adequacy"]
    # Quoted text: a "#" in a name is not a comment for read_csv(comment="#").
    assert frame["metric"].tolist() == ["'=bleu #2"]
    assert frame["coefficient"].tolist() == [-0.25]
    assert frame["low"].tolist() == [-0.5]
    assert_numeric(frame, ["coefficient", "low", "high", "n_points", "p_value"])
    assert frame["negated"].tolist() == [True]
    assert math.isnan(frame["seed"].iloc[0])


def test_the_readability_csvs_read_back():
    figures = SimpleNamespace(
        n_segments=3,
        n_sentences=4,
        n_words=20,
        n_syllables=31,
        asl=5.0,
        asw=1.55,
        flesch_reading_ease=-12.5,
        flesch_kincaid_grade=float("nan"),
        syllables="pyphen",
        signature="readability|lang:en",
    )
    readability = SimpleNamespace(
        texts=[
            SimpleNamespace(role="source", label="", language="en", figures=figures),
            SimpleNamespace(role="reference", label="-B", language="xx", figures=None),
        ]
    )
    frame = read_csv(readability_csv(readability))
    assert frame["label"].tolist()[1] == "'-B"
    assert frame["flesch_reading_ease"].tolist()[0] == -12.5
    assert_numeric(frame, ["n_words", "asl", "asw", "flesch_reading_ease"])
    assert_numeric(frame, ["flesch_kincaid_grade"])

    def test_set(pk):
        return SimpleNamespace(pk=pk, text_type="news")

    types = [
        SimpleNamespace(test_set=test_set(1), label="news", asw=1.5),
        SimpleNamespace(test_set=test_set(2), label="-web", asw=1.25),
    ]
    table = SimpleNamespace(
        coefficients=[1.0, 1.25 / 1.5],
        average_raw_stdev=0.5,
        average_normalised_stdev=0.25,
        improvement=2.0,
    )
    metric = SimpleNamespace(
        spec="bleu",
        power=2,
        table=table,
        rows=[("-sys", [30.0, -1.0], [30.0, -0.75], 0.5, 0.25)],
    )
    report = SimpleNamespace(metrics=[metric], types=types, reference=types[0])
    scores = read_csv(scores_csv(report))
    assert scores["test_set"].tolist() == ["news", "'-web"]
    assert scores["raw"].tolist() == [30.0, -1.0]
    assert_numeric(scores, ["power", "test_set_id", "asw", "coefficient", "raw"])
    stability = read_csv(stability_csv(report))
    assert stability["row"].tolist() == ["system", "average"]
    assert_numeric(stability, ["raw_stdev", "normalised_stdev", "improvement"])


def test_the_judgment_csvs_read_back():
    system = SimpleNamespace(
        system="-foo",
        n_judgments=3,
        n_segments=2,
        n_judges=2,
        raw_mean=2.0,
        z_mean=-0.41,
    )
    segment = SimpleNamespace(
        criterion="adequacy",
        segment=1,
        system="-foo",
        n_judges=2,
        raw_mean=2.0,
        z_mean=-0.41,
    )
    criterion = SimpleNamespace(
        name="adequacy", systems=[system], segments=lambda: [segment]
    )
    systems = read_csv(systems_csv_text([criterion]))
    assert systems["system"].tolist() == ["'-foo"]
    assert systems["z_mean"].tolist() == [-0.41]
    assert_numeric(systems, ["judgments", "segments", "judges", "raw_mean", "z_mean"])
    segments = read_csv(segments_csv_text([criterion]))
    assert_numeric(segments, ["segment", "judges", "raw_mean", "z_mean"])


def test_a_hash_in_a_name_is_text_and_not_a_comment():
    text = csv_text(["system", "bleu"], [["sys #1, big", -1.5]], ["made by #2"])
    frame = read_csv(text)
    assert frame["system"].tolist() == ["sys #1, big"]
    assert frame["bleu"].tolist() == [-1.5]


def test_numpy_scalars_are_written_as_plain_numbers():
    row = ["sys", np.float64(-0.25), np.int64(3), np.bool_(True), np.float64("nan")]
    text = csv_text(["system", "z", "n", "best", "missing"], [row])
    assert text.splitlines()[1] == '"sys",-0.25,3,True,""'
    frame = read_csv(text)
    assert frame["z"].tolist() == [-0.25] and frame["n"].tolist() == [3]
    assert frame["best"].tolist() == [True] and frame["missing"].isna().all()
