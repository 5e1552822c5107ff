"""One number per metric: every page and job that shows a metric's score of
an output shows the number the scoring job stored and the CLI prints.

Two outputs of a small English test set are scored with every registered
metric, the comparison job runs (as a worker would, in this process), an
ORANGE job ranks an n-best list holding both outputs' hypotheses against all
references, and the command line (``python -m scoring score``, its ``main``
in this process) reads the same files. Then the leaderboard cell, its interval, the system page (score,
interval and the length analysis' corpus score), the compare page and
ORANGE's per-candidate scores must all agree with the stored score, and the
CLI must print it.

English METEOR is run with the server's paraphrase table
(``MTDASH_METEOR_PARAPHRASE_TABLE``): a small table written here (always),
and METEOR's real ``paraphrase-en.gz`` where one is found
(``METEOR_PARAPHRASE_TABLE``, ``MTDASH_METEOR_PARAPHRASE_TABLE`` or
``$MTDASH_DATA_DIR/meteor/``), skipped with the reason otherwise.
"""

from __future__ import annotations

import gzip
import json
import math
import os
from pathlib import Path

import pytest
from django.urls import reverse

from mtdash.evaluation.leaderboard.build import build_leaderboard
from mtdash.evaluation.leaderboard.comparisons import compare_test_set
from mtdash.evaluation.models import CorpusScore, SegmentScore
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.orange.jobs.lifecycle import create_orange_job, run_orange_job_now
from mtdash.orange.models import OrangeScore
from scoring import list_metrics
from scoring.cli.main import main as cli_main
from scoring.orange import OrangeOptions
from tests.conftest import PASSWORD
from tests.scoring.support.realdata import PROJECT_ROOT
from tests.web.orange.orange_support import artifact_dir_fixture, make_nbest  # noqa: F401

# Scores read back from the database or JSON: equal up to float rounding.
CLOSE = 1e-9

# References A and B are worded differently, so each hypothesis (close to
# one of them) scores above the references' jackknife score and ORANGE
# stores its score; "small"/"little", "big"/"large"... are in the toy
# paraphrase table, so English METEOR's paraphrase module matters.
SOURCES = [f"phrase source {i}" for i in range(12)]
REFERENCES = {
    "A": [
        "the house is little and old",
        "the cat sleeps on the warm mat",
        "it rains hard in the north today",
        "the large dog barks at night",
        "we bought a small car last week",
        "the meeting starts at nine tomorrow",
        "she reads a big book every month",
        "the children play in the little garden",
        "prices rose sharply this year",
        "the river is very quandish here",
        "he answered the question quickly",
        "the old bridge was closed for repairs",
    ],
    "B": [
        "an ancient tiny home",
        "a feline dozes upon a heated rug",
        "heavy rainfall hits northern regions now",
        "at nighttime a huge hound howls",
        "last week a compact automobile was purchased",
        "tomorrow's session begins at 9",
        "monthly she finishes a lengthy novel",
        "kids have fun in a tiny yard",
        "this year costs went up steeply",
        "here the stream has great breadth",
        "his reply to the query came fast",
        "repairs shut the aged crossing",
    ],
}
ALPHA = [
    "the house is small and old",
    "the cat is sleeping on the warm mat",
    "it rains hard in the north",
    "the big dog barks at night",
    "we bought a little car last week",
    "the meeting begins at nine tomorrow",
    "she reads a large book every month",
    "the children play in the small garden",
    "prices rose sharply this year",
    "the river is zorbly here",
    "he answered quickly",
    "the old bridge was shut for repairs",
]
BETA = [
    "house small old",
    "cat sleeps mat",
    "rain in north",
    "a big dog is barking",
    "we buy small car",
    "meeting at nine",
    "she read big book",
    "children play garden",
    "the prices went up",
    "river is wide",
    "he answered the question",
    "bridge closed",
]
DOCUMENTS = [f"d{i // 4}" for i in range(12)]
TOY_PARAPHRASES = [
    ("small", "little"),
    ("big", "large"),
    ("is sleeping", "sleeps"),
    ("begins", "starts"),
    ("shut", "closed"),
    ("zorbly", "quandish"),  # made up: only the table matches them
]


def real_paraphrase_table() -> str | None:
    """METEOR's ``paraphrase-en.gz`` where the project looks for it."""
    places = [
        os.environ.get("METEOR_PARAPHRASE_TABLE", ""),
        os.environ.get("MTDASH_METEOR_PARAPHRASE_TABLE", ""),
    ]
    if os.environ.get("MTDASH_DATA_DIR"):
        places.append(f"{os.environ['MTDASH_DATA_DIR']}/meteor/paraphrase-en.gz")
    places.append(str(PROJECT_ROOT / "var" / "meteor" / "paraphrase-en.gz"))
    return next((place for place in places if place and Path(place).is_file()), None)


@pytest.fixture(params=["toy table", "METEOR's paraphrase-en.gz"])
def paraphrase_table(request, settings, tmp_path) -> str:
    """The server's paraphrase table for this run."""
    if request.param == "toy table":
        path = tmp_path / "toy" / "paraphrase-en.gz"
        path.parent.mkdir()
        blocks = "".join(f"0.5\n{a}\n{b}\n0.5\n{b}\n{a}\n" for a, b in TOY_PARAPHRASES)
        path.write_bytes(gzip.compress(blocks.encode("utf-8")))
        table = str(path)
    else:
        table = real_paraphrase_table()
        if table is None:
            pytest.skip(
                "METEOR's paraphrase-en.gz not found (METEOR_PARAPHRASE_TABLE, "
                "MTDASH_METEOR_PARAPHRASE_TABLE or $MTDASH_DATA_DIR/meteor/): "
                "the toy table run still checks every metric"
            )
    settings.MTDASH_METEOR_PARAPHRASE_TABLE = table
    settings.MTDASH_COMPARISON_SAMPLES = 200
    settings.MTDASH_COMPARISON_TRIALS = 200
    return table


def registry_specs() -> list[str]:
    return [info.name for info in list_metrics()]


@pytest.fixture
def world(team, owner, paraphrase_table, artifact_dir):
    """The test set, both outputs scored with every metric and compared."""
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="one number",
            source_language="fr",
            target_language="en",
            text_type="news",
            description="",
            sources=SOURCES,
            references=REFERENCES,
            document_ids=DOCUMENTS,
        ),
    )
    outputs = {}
    for name, hypotheses in (("alpha", ALPHA), ("beta", BETA)):
        job = create_system_output(
            test_set, owner, name, hypotheses, metrics=registry_specs(), queue=False
        )
        run_scoring_job(job.pk)
        job.refresh_from_db()
        assert job.status == "succeeded", job.error_message
        outputs[name] = job.output
    compare_test_set(test_set)
    return test_set, outputs


def stored(output) -> dict[str, CorpusScore]:
    return {score.metric: score for score in CorpusScore.objects.filter(output=output)}


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=CLOSE, abs_tol=CLOSE)


def test_every_page_job_and_the_command_line_show_one_number_per_metric(
    client, owner, world, paraphrase_table, tmp_path, capsys
):
    test_set, outputs = world
    client.login(username=owner.username, password=PASSWORD)
    meteor = stored(outputs["alpha"])["meteor"].signature
    assert "para:paraphrase-en.gz" in meteor
    assert "paraphrase" in meteor.split("|mods:")[1].split("|")[0]
    # Every disagreement at once, so a failure names every path that differs.
    problems = [
        *leaderboard_problems(test_set, outputs),
        *leaderboard_page_problems(client, test_set),
        *system_page_problems(client, outputs),
        *compare_page_problems(client, test_set, outputs),
        *orange_problems(test_set, outputs, owner),
        *command_line_problems(outputs["alpha"], paraphrase_table, tmp_path, capsys),
    ]
    assert not problems, "\n".join(problems)


def leaderboard_problems(test_set, outputs) -> list[str]:
    """Each cell is the stored score, inside its interval."""
    problems = []
    leaderboard = build_leaderboard(test_set)
    if {column.name for column in leaderboard.columns} != set(registry_specs()):
        problems.append(f"leaderboard columns: {leaderboard.columns}")
    for row in leaderboard.rows:
        scores = stored(outputs[row.system])
        for column, cell in zip(leaderboard.columns, row.cells, strict=True):
            where = f"leaderboard {row.system} {column.name}"
            if cell is None or not close(cell, scores[column.name].score):
                problems.append(f"{where}: {cell} != {scores[column.name].score}")
            significance = row.significance.get(column.name)
            if significance is None:
                problems.append(f"{where}: no interval")
            elif not significance.low <= cell <= significance.high:
                problems.append(
                    f"{where}: {cell} outside [{significance.low}, {significance.high}]"
                )
    return problems


def leaderboard_page_problems(client, test_set) -> list[str]:
    text = client.get(reverse("test_set_detail", args=[test_set.pk])).content.decode()
    return [
        f"leaderboard page says {phrase!r}"
        for phrase in ("no interval", "interval pending")
        if phrase in text
    ]


def system_page_problems(client, outputs) -> list[str]:
    """Score and interval of every metric, and the length analysis: every
    sentence is shorter than 10 words, so the one length bucket's corpus
    score (from the stored statistics) is the corpus score."""
    problems = []
    for name, output in outputs.items():
        scores = stored(output)
        response = client.get(reverse("output_detail", args=[output.pk]))
        rows = {row.column: row for row in response.context["score_rows"]}
        if set(rows) != set(registry_specs()):
            problems.append(f"system page {name}: columns {sorted(rows)}")
        for spec, row in rows.items():
            where = f"system page {name} {spec}"
            if not close(row.score, scores[spec].score):
                problems.append(f"{where}: {row.score} != {scores[spec].score}")
            if row.interval_pending:
                problems.append(f"{where}: interval pending")
            elif not row.low <= row.score <= row.high:
                problems.append(f"{where}: {row.score} outside [{row.low}, {row.high}]")
        analysed = response.context["analysis"]["metrics"]
        if set(analysed) != set(registry_specs()):
            problems.append(f"system analyses {name}: metrics {sorted(analysed)}")
        for spec, analysis in analysed.items():
            buckets = analysis["length_buckets"]
            value = buckets["corpus_scores"][0]
            if buckets["counts"][0] != len(SOURCES) or value is None:
                problems.append(f"system analyses {name} {spec}: {buckets}")
            elif not close(value, scores[spec].score):
                problems.append(
                    f"system analyses {name} {spec}: length bucket {value} "
                    f"!= {scores[spec].score}"
                )
    return problems


def compare_page_problems(client, test_set, outputs) -> list[str]:
    problems = []
    alpha, beta = outputs["alpha"], outputs["beta"]
    response = client.get(
        reverse("compare_outputs", args=[test_set.pk]), {"a": alpha.pk, "b": beta.pk}
    )
    rows = {row.column: row for row in response.context["significance"]}
    if set(rows) != set(registry_specs()):
        problems.append(f"compare page: columns {sorted(rows)}")
    for spec, row in rows.items():
        if row.a is None or row.b is None:
            problems.append(f"compare page {spec}: {row.missing}")
            continue
        for entry, output in ((row.a, alpha), (row.b, beta)):
            score = stored(output)[spec].score
            if not close(entry["score"], score):
                problems.append(
                    f"compare page {spec} {output.system.name}: "
                    f"{entry['score']} != {score}"
                )
    return problems


def orange_problems(test_set, outputs, owner) -> list[str]:
    """An n-best list of both outputs' hypotheses (candidate 0: alpha's,
    1: beta's) ranked against all references: every candidate ORANGE
    stores (those above the references) has its output's sentence score."""
    nbest_text = "".join(
        f"{i} ||| {alpha} ||| f=0 ||| 0\n{i} ||| {beta} ||| f=0 ||| -1\n"
        for i, (alpha, beta) in enumerate(zip(ALPHA, BETA, strict=True))
    )
    nbest = make_nbest(test_set, nbest_text, user=owner)
    options = OrangeOptions(all_references=True, curve_step=1, n_bootstrap=50, seed=7)
    job = run_orange_job_now(
        create_orange_job(nbest, owner, registry_specs(), options, queue=False)
    )
    if job.status != "succeeded":
        return [f"ORANGE job {job.status}: {job.error_message}"]
    sentence_scores = {}
    for candidate, name in enumerate(("alpha", "beta")):
        for spec, score in stored(outputs[name]).items():
            values = SegmentScore.objects.filter(corpus_score=score).order_by("index")
            sentence_scores[spec, candidate] = (
                score.sentence_signature,
                list(values.values_list("score", flat=True)),
            )
    problems, checked = [], set()
    for orange in OrangeScore.objects.filter(job=job):
        for sentence, _oracle, candidates in orange.above_reference:
            for index, value in candidates:
                signature, scores = sentence_scores[orange.metric, index]
                where = f"ORANGE {orange.metric} sentence {sentence} candidate {index}"
                if unbound(orange.signature) != signature:
                    problems.append(f"{where}: {orange.signature} != {signature}")
                if not close(value, scores[sentence]):
                    problems.append(f"{where}: {value} != job's {scores[sentence]}")
                checked.add(orange.metric)
    unchecked = set(registry_specs()) - checked
    if unchecked:
        problems.append(f"ORANGE ranked no candidate above for {sorted(unchecked)}")
    return problems


def unbound(signature: str) -> str:
    """A signature without the field that names the test set ORANGE bound
    NIST's weights or WNM's saliences to: the scoring job computes them from
    the same test set without naming it."""
    fields = signature.split("|")
    return "|".join(f for f in fields if not f.startswith(("info:", "salience:")))


def command_line_problems(output, paraphrase_table, tmp_path, capsys) -> list[str]:
    """``python -m scoring score`` on the same files prints the stored corpus
    and sentence scores under the stored signatures."""
    files = {}
    for name, lines in [
        ("ref.A", REFERENCES["A"]),
        ("ref.B", REFERENCES["B"]),
        ("src", SOURCES),
        ("docs", DOCUMENTS),
        ("hyp", ALPHA),
    ]:
        files[name] = tmp_path / name
        files[name].write_text("".join(f"{line}\n" for line in lines), "utf-8")
    # The command line names the table itself (a web user cannot).
    cli_spec = {"meteor": f"meteor:paraphrase={paraphrase_table}"}
    arguments = ["score", "--json", "--sentence", "--hyp", str(files["hyp"])]
    arguments += ["--refs", str(files["ref.A"]), str(files["ref.B"])]
    arguments += ["--src", str(files["src"]), "--docs", str(files["docs"])]
    for spec in registry_specs():
        arguments += ["--metric", cli_spec.get(spec, spec)]
    # In this process: a second process would load the real table (1.6 GB)
    # again, for the same code path.
    status = cli_main(arguments)
    output_text, errors = capsys.readouterr()
    if status != 0:
        return [f"command line failed: {errors}"]
    printed = json.loads(output_text)
    problems = []
    for spec, score in stored(output).items():
        entry = printed[cli_spec.get(spec, spec)]
        if entry["signature"] != score.signature:
            problems.append(f"CLI {spec}: {entry['signature']} != {score.signature}")
        if not close(entry["score"], score.score):
            problems.append(f"CLI {spec}: {entry['score']} != {score.score}")
        rows = SegmentScore.objects.filter(corpus_score=score).order_by("index")
        job_scores = list(rows.values_list("score", flat=True))
        if not all(
            close(a, b)
            for a, b in zip(entry["sentence_scores"], job_scores, strict=True)
        ):
            problems.append(f"CLI {spec}: sentence scores differ")
    return problems
