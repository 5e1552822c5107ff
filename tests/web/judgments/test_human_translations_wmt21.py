"""Human translations as systems on real data, as WMT21 judged them: the
en-de test set (references A, C and D), its MT systems, and references C
and D entered as the systems ``ref-C`` and ``ref-D`` that the expert MQM
file rates. Their BLEU equals sacreBLEU's against the two other references,
the MQM rows of ``ref-C``/``ref-D`` import onto them, and the WMT
meta-evaluation ranks metrics on every system, human ones included, with
the system-level statistics equal to SciPy and to pairwise accuracy counted
here from the files. Full data: the 8 MT systems with MQM ratings and all
1,002 segments; the committed fixtures: their 3 systems and 150 segments."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import sacrebleu
from scipy import stats as scipy_stats

from mtdash.evaluation.references.as_system import enter_reference_as_system
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.judgments.imports.judgments import import_judgments
from mtdash.judgments.meta_evaluation.jobs import (
    checked_request,
    request_meta_evaluation,
)
from mtdash.judgments.models import Criterion
from scoring.stats import ProtocolSettings
from tests.scoring.support.realdata import WMT21_DIR, read_lines, segment_count
from tests.web.judgments.meta_evaluation_support import run
from tests.web.judgments.test_correlations_numbers import CASES

DIRECTORY = WMT21_DIR / "en-de"
# The MT systems with an output file and MQM ratings (the correlation tests').
MT_SYSTEMS = CASES["en-de"][1]
HUMAN = {"ref-C": "C", "ref-D": "D"}
METRICS = ["bleu", "chrf"]


@pytest.fixture
def en_de(team, owner):
    n = segment_count("wmt21/en-de", full=10**6)
    lines = {label: read_lines(DIRECTORY / f"ref.{label}.de")[:n] for label in "ACD"}
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="newstest2021 en-de",
            source_language="en",
            target_language="de",
            text_type="news",
            description="",
            sources=read_lines(DIRECTORY / "src.en")[:n],
            references=lines,
        ),
    )
    for system in MT_SYSTEMS:
        hypotheses = read_lines(DIRECTORY / "sys" / f"{system}.de")[:n]
        job = create_system_output(
            test_set, owner, system, hypotheses, metrics=METRICS, queue=False
        )
        run_scoring_job(job.pk)
    for name, label in HUMAN.items():
        job = enter_reference_as_system(test_set, label, owner, queue=False)
        assert job.output.system.name == name
        run_scoring_job(job.pk)
    header, *rows = (DIRECTORY / "human" / "mqm_seg.tsv").read_text().splitlines()
    kept = [
        row
        for row in rows
        if row.split("\t")[0] in (*MT_SYSTEMS, *HUMAN) and int(row.split("\t")[2]) <= n
    ]
    text = "\n".join([header, *kept]) + "\n"
    import_judgments(test_set, owner, text.encode(), "mqm_seg.tsv")
    return test_set, lines, kept


def test_human_systems_are_scored_rated_and_ranked_with_the_mt_systems(en_de, owner):
    test_set, references, rows = en_de
    n = len(references["A"])
    bleu = {}
    for system in MT_SYSTEMS:
        hypotheses = read_lines(DIRECTORY / "sys" / f"{system}.de")[:n]
        streams = [references[label] for label in "ACD"]
        bleu[system] = sacrebleu.corpus_bleu(hypotheses, streams).score
    for name, label in HUMAN.items():
        others = [references[other] for other in "ACD" if other != label]
        bleu[name] = sacrebleu.corpus_bleu(references[label], others).score
    stored = {
        s.system.name: s.corpus_scores.get(metric="bleu").score
        for s in test_set.outputs.select_related("system")
    }
    assert stored.keys() == bleu.keys()
    for system, value in bleu.items():
        assert math.isclose(stored[system], value, rel_tol=1e-9), system

    # The MQM means as the file gives them (None: the segment was not rated).
    ratings: dict[str, list[float]] = {}
    for row in rows:
        system, _, _, score = row.split("\t")
        if score != "None":
            ratings.setdefault(system, []).append(float(score))
    human = {system: float(np.mean(values)) for system, values in ratings.items()}
    assert set(human) == set(bleu)

    criterion = Criterion.objects.get(test_set=test_set).name
    settings = ProtocolSettings(
        n_permutations=200,
        standardise=False,
        tasks=("system:pearson", "system:accuracy", "segment:acc_eq"),
    )
    request = checked_request(owner, [test_set.pk], None, criterion, settings)
    job = run(request_meta_evaluation(request, owner)[0])
    assert job.status == "succeeded", job.error_message
    result = job.result["test_sets"][0]
    assert set(result["systems"]) == set(bleu)  # ref-C and ref-D included
    tasks = {task["task"]: task for task in result["tasks"]}

    systems = sorted(bleu)
    x = [bleu[s] for s in systems]
    y = [human[s] for s in systems]
    pearson = {c["metric"]: c for c in tasks["system:pearson"]["cells"]}["bleu"]
    expected = scipy_stats.pearsonr(x, y).statistic
    assert math.isclose(pearson["coefficient"], expected, rel_tol=1e-9)

    agreeing = sum(
        np.sign(bleu[a] - bleu[b]) == np.sign(human[a] - human[b])
        for a, b in itertools.combinations(systems, 2)
    )
    pairs = len(systems) * (len(systems) - 1) // 2
    accuracy = {c["metric"]: c for c in tasks["system:accuracy"]["cells"]}["bleu"]
    assert math.isclose(accuracy["coefficient"], agreeing / pairs, rel_tol=1e-12)
