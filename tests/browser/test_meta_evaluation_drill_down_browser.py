"""One metric's drill-down in Chromium at 1440 px: from the job's WMT table a
click on a metric opens its page; the system pairs (disagreements first)
sit beside their chart, the segments below; nothing scrolls sideways. The
test set is the demo corpus (48 segments, seven graded systems, BLEU, chrF,
TER) with a COMET-like external metric and DA judgments by three judges in
which the humans rank two neighbouring systems the other way round, so a
metric disagrees somewhere. The full-page screenshot is
``meta-evaluation-drill-down.png`` in ``var/screenshots/``."""

from __future__ import annotations

import numpy as np
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from mtdash.demo.corpus import demo_test_set
from mtdash.demo.systems import demo_systems
from mtdash.evaluation.external_scores.imports import import_external_scores
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.judgments.imports.judgments import import_judgments
from tests.browser.support import full_page, log_in
from tests.web.judgments.meta_evaluation_support import queue, run

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def demo_judged_set(team, owner):
    """The demo test set, scored, with COMET-like scores and DA judgments."""
    corpus = demo_test_set()
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name=corpus.name,
            source_language=corpus.source_language,
            target_language=corpus.target_language,
            text_type=corpus.text_type,
            description=corpus.description,
            sources=list(corpus.sources),
            references={k: list(v) for k, v in corpus.references.items()},
            document_ids=list(corpus.document_ids),
        ),
    )
    systems = demo_systems(corpus)
    for system in systems:
        job = create_system_output(
            test_set,
            owner,
            system.name,
            list(system.hypotheses),
            metrics=["bleu", "chrf", "ter"],
            queue=False,
        )
        run_scoring_job(job.pk)
    rng = np.random.default_rng(21)
    n = len(corpus.sources)
    # Quality falls with the rank; the humans prefer rank 4 to rank 3.
    quality = {s.name: 80.0 - 7.0 * s.intended_rank for s in systems}
    quality[systems[3].name] += 10.0
    rows, comet = ["segment,system,judge,criterion,value"], []
    for system in systems:
        truth = quality[system.name] + rng.normal(0, 12, n)
        for segment in range(n):
            for judge, offset in (("j1", 0), ("j2", -8), ("j3", 5)):
                value = int(np.clip(round(truth[segment] + offset), 0, 100))
                rows.append(f"{segment + 1},{system.name},{judge},da,{value}")
            noisy = truth[segment] / 100 + rng.normal(0, 0.08)
            comet.append(f"{system.name}\t{segment + 1}\t{noisy:.4f}")
    import_judgments(test_set, owner, "\n".join(rows).encode(), "da.csv")
    import_external_scores(
        test_set,
        owner,
        "comet-like",
        "simulated for this test: the judges' quality plus noise",
        True,
        "\n".join(comet).encode(),
        "comet-like.tsv",
    )
    return test_set


def test_a_metric_of_the_wmt_table_opens_its_drill_down(
    browser, live_server, owner, team
):
    test_set = demo_judged_set(team, owner)
    job = run(queue(owner, [test_set], criterion="da")[0])
    assert job.status == "succeeded", job.error_message
    browser.set_window_size(1440, 1000)
    wait = log_in(browser, live_server, owner, timeout=60)
    browser.get(f"{live_server.url}{job.get_absolute_url()}")
    table = wait.until(
        EC.visibility_of_element_located((By.ID, f"meta-table-{test_set.pk}"))
    )
    table.find_element(By.CSS_SELECTOR, 'tr[data-metric="chrf"] a.drill-link').click()
    wait.until(EC.visibility_of_element_located((By.ID, "drill-pair-table")))
    assert browser.find_element(By.CSS_SELECTOR, "h1").text.startswith("chrf")
    wait.until(
        EC.presence_of_element_located((By.CSS_SELECTOR, "#drill-chart .main-svg"))
    )
    pairs = browser.find_elements(By.CSS_SELECTOR, "#drill-pair-table tbody tr")
    assert len(pairs) == 7 * 6 // 2
    outcomes = [row.get_attribute("data-outcome") for row in pairs]
    assert outcomes[0] == "disagree" and outcomes[-1] == "agree"
    segments = browser.find_elements(By.CSS_SELECTOR, "#drill-segment-table tbody tr")
    assert len(segments) == 48
    counts = [
        int(row.find_element(By.CSS_SELECTOR, "td.discordant").text) for row in segments
    ]
    assert counts == sorted(counts, reverse=True) and counts[0] > 0
    overflow = browser.execute_script(
        "const e = document.documentElement; return e.scrollWidth - e.clientWidth;"
    )
    assert overflow <= 0
    full_page(browser, "meta-evaluation-drill-down.png")
