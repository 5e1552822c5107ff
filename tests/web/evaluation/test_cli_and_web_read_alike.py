"""The command line and the web read the same files into the same numbers.

A byte-order mark is not text: ``python -m scoring score`` (a real
subprocess) and the web upload both drop it, so the same files give the same
scores under the same signatures. Multi-reference chrF takes each segment's
statistics from the first of equally good references, so its corpus score
depends on the references' order; the signature records that order.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
import sacrebleu
from django.urls import reverse

from mtdash.evaluation.models import ScoringJob, TestSet
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from tests.conftest import PASSWORD
from tests.scoring.support.realdata import PROJECT_ROOT
from tests.web.helpers import build_test_set_form, text_file

BOM = "\ufeff"
METRICS = ("bleu", "chrf")
SOURCES = ["le chat était assis sur le tapis", "ab ca"]
# Segment 2: "a cc" and "bc bc" give the hypothesis the same sentence chrF
# (20.83) from different statistics, so the corpus chrF depends on which
# reference comes first (sacreBLEU: 95.77 with A first, 93.59 with B first).
# The mark before the first "the" would make it another word.
REFERENCES = {
    "A": ["the cat sat on the mat", "a cc"],
    "B": ["a cat sat on a mat", "bc bc"],
}
HYPOTHESES = ["the cat sat on the mat", "ab ca"]


def lines(segments: list[str], mark: bool = False) -> str:
    return (BOM if mark else "") + "".join(f"{segment}\n" for segment in segments)


@pytest.fixture
def files(tmp_path) -> dict:
    """The files as uploaded: the hypotheses and reference B start with a
    byte-order mark; ``plain-*`` are the same texts without one."""
    texts = {
        "hyp.en": lines(HYPOTHESES, mark=True),
        "ref.A.en": lines(REFERENCES["A"]),
        "ref.B.en": lines(REFERENCES["B"], mark=True),
        "src.fr": lines(SOURCES),
        "plain-hyp.en": lines(HYPOTHESES),
        "plain-ref.B.en": lines(REFERENCES["B"]),
    }
    paths = {}
    for name, text in texts.items():
        paths[name] = tmp_path / name
        paths[name].write_bytes(text.encode("utf-8"))
    return paths


@pytest.fixture
def web_scores(client, owner, team, files) -> dict:
    """Corpus score and signature per metric, uploaded through the forms and
    scored by the scoring job, as a user and a worker would."""
    client.login(username=owner.username, password=PASSWORD)

    def upload(name):
        return text_file(name, files[name].read_bytes())

    form = build_test_set_form(
        team,
        source_file=upload("src.fr"),
        reference_files=[upload("ref.A.en"), upload("ref.B.en")],
    )
    response = client.post(reverse("test_set_new"), form)
    assert response.status_code == 302, response.content.decode()[-2000:]
    test_set = TestSet.objects.get()
    labels = list(
        test_set.reference_sets.order_by("label").values_list("label", flat=True)
    )
    assert labels == ["A", "B"]
    response = client.post(
        reverse("output_new", args=[test_set.pk]),
        {
            "system_name": "sys",
            "hypothesis_file": upload("hyp.en"),
            "metrics": list(METRICS),
        },
    )
    assert response.status_code == 302, response.content.decode()[-2000:]
    job = ScoringJob.objects.get()
    run_scoring_job(job.pk)
    job.refresh_from_db()
    assert job.status == ScoringJob.Status.SUCCEEDED, job.error_message
    return {
        score.metric: (score.score, score.signature)
        for score in job.output.corpus_scores.all()
    }


def command_line(hyp, refs) -> dict:
    """``python -m scoring score`` as a user runs it: metric -> (score, signature)."""
    arguments = [sys.executable, "-m", "scoring", "score", "--json"]
    arguments += ["--hyp", str(hyp), "--refs", *map(str, refs)]
    for metric in METRICS:
        arguments += ["--metric", metric]
    completed = subprocess.run(
        arguments, capture_output=True, text=True, check=False, cwd=PROJECT_ROOT
    )
    assert completed.returncode == 0, completed.stderr
    printed = json.loads(completed.stdout)
    return {
        metric: (printed[metric]["score"], printed[metric]["signature"])
        for metric in METRICS
    }


def same(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def test_a_byte_order_mark_gives_the_same_scores_on_the_command_line_and_the_web(
    files, web_scores
):
    references = [REFERENCES["A"], REFERENCES["B"]]
    expected = {  # sacreBLEU of the texts without the mark
        "bleu": sacrebleu.corpus_bleu(HYPOTHESES, references).score,
        "chrf": sacrebleu.corpus_chrf(HYPOTHESES, references).score,
    }
    with_mark = command_line(files["hyp.en"], [files["ref.A.en"], files["ref.B.en"]])
    without = command_line(
        files["plain-hyp.en"], [files["ref.A.en"], files["plain-ref.B.en"]]
    )
    for metric in METRICS:
        web_score, web_signature = web_scores[metric]
        cli_score, cli_signature = with_mark[metric]
        assert cli_signature == web_signature, metric
        assert same(cli_score, web_score), (metric, cli_score, web_score)
        assert web_score == pytest.approx(expected[metric], abs=1e-9), metric
        # The mark is no text: the files without it score the same.
        assert with_mark[metric] == without[metric], metric


def test_multi_reference_chrf_records_the_order_of_the_references(files, web_scores):
    a_first = command_line(files["hyp.en"], [files["ref.A.en"], files["ref.B.en"]])
    b_first = command_line(files["hyp.en"], [files["ref.B.en"], files["ref.A.en"]])
    (score_a, signature_a), (score_b, signature_b) = a_first["chrf"], b_first["chrf"]
    # As sacreBLEU, the order changes the score.
    references = [REFERENCES["A"], REFERENCES["B"]]
    assert score_a == pytest.approx(
        sacrebleu.corpus_chrf(HYPOTHESES, references).score, abs=1e-9
    )
    assert score_b == pytest.approx(
        sacrebleu.corpus_chrf(HYPOTHESES, references[::-1]).score, abs=1e-9
    )
    assert abs(score_a - score_b) > 1
    assert signature_a != signature_b
    assert signature_a.replace(_field(signature_a, "refs"), "") == signature_b.replace(
        _field(signature_b, "refs"), ""
    )
    # The web orders reference sets by label: A, then B.
    assert web_scores["chrf"][1] == signature_a
    assert same(web_scores["chrf"][0], score_a)
    # BLEU does not depend on the order, and its signature does not say it.
    assert a_first["bleu"] == b_first["bleu"]
    assert "|refs:" not in a_first["bleu"][1]


def _field(signature: str, key: str) -> str:
    return next(f for f in signature.split("|") if f.startswith(f"{key}:"))
