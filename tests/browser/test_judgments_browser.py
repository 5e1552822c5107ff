"""A person imports human judgments and an external metric's scores on a
test set's pages and sees the external column on the leaderboard; and
imports judgments, reads their WMT aggregates on the judgments page and
opens the metric–human disagreement explorer."""

import os

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from mtdash.evaluation.models import CorpusScore, SegmentScore
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from tests.browser.support import full_page, gone, log_in, screenshot_dir
from tests.scoring.support.realdata import WMT21_DIR, read_lines, require_full_data

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_import_judgments_and_comet_scores_then_see_the_column(
    browser, live_server, owner, test_set, tmp_path
):
    for name in ("alpha", "beta"):
        create_system_output(test_set, owner, name, ["a", "b", "c"], queue=False)
    judgments = tmp_path / "judgments.csv"
    judgments.write_text(
        "segment,system,judge,criterion,value\n"
        "1,alpha,j1,adequacy,4\n2,alpha,j1,adequacy,5\n1,beta,j1,adequacy,2\n"
    )
    comet = tmp_path / "comet.tsv"
    comet.write_text(
        "".join(
            f"{s}\t{i}\t{v}\n"
            for s, v in (("alpha", 0.8), ("beta", 0.5))
            for i in (1, 2, 3)
        )
    )
    shots = screenshot_dir()
    wait = log_in(browser, live_server, owner)

    browser.get(f"{live_server.url}{test_set.get_absolute_url()}")
    wait.until(EC.element_to_be_clickable((By.ID, "judgments-link"))).click()
    browser.find_element(By.ID, "id_file").send_keys(str(judgments))
    browser.find_element(By.CSS_SELECTOR, "#judgments-form button").click()
    wait.until(EC.element_to_be_clickable((By.ID, "preview-import"))).click()
    result = wait.until(EC.visibility_of_element_located((By.ID, "import-result")))
    assert "3" in result.text and "adequacy" in result.text
    browser.save_screenshot(os.path.join(shots, "judgments-imported.png"))

    browser.get(f"{live_server.url}{test_set.get_absolute_url()}")
    wait.until(EC.element_to_be_clickable((By.ID, "external-scores-link"))).click()
    browser.find_element(By.ID, "id_metric").send_keys("comet-22")
    browser.find_element(By.ID, "id_description").send_keys("Unbabel/wmt22-comet-da")
    browser.find_element(By.ID, "id_file").send_keys(str(comet))
    browser.find_element(By.CSS_SELECTOR, "#external-scores-form button").click()
    means = wait.until(EC.visibility_of_element_located((By.ID, "import-means")))
    assert "alpha" in means.text and "beta" in means.text
    browser.save_screenshot(os.path.join(shots, "external-imported.png"))

    browser.find_element(By.PARTIAL_LINK_TEXT, "See the leaderboard").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "small.external")))
    assert "comet-22" in browser.page_source
    browser.save_screenshot(os.path.join(shots, "leaderboard-external.png"))


HYPOTHESES = {
    "alpha": ["the cat is on the mat", "it is raining", "hello everyone"],
    "beta": ["cat mat <b>the</b>", "rain it is", "hello all"],
}
# Sentence scores of a BLEU-like metric, per segment.
BLEU = {"alpha": [90.0, 80.0, 70.0], "beta": [20.0, 60.0, 10.0]}


def test_import_then_judgments_page_then_disagreement_explorer(
    browser, live_server, owner, test_set, tmp_path
):
    for name, lines in HYPOTHESES.items():
        output = create_system_output(test_set, owner, name, lines, queue=False).output
        score = CorpusScore.objects.create(
            output=output, metric="bleu", score=50.0, signature="bleu|browser"
        )
        SegmentScore.objects.bulk_create(
            SegmentScore(corpus_score=score, index=i, score=value)
            for i, value in enumerate(BLEU[name])
        )
    # Two judges; they like beta's segment 2 and not alpha's segment 3.
    rows = ["segment,system,judge,criterion,value"]
    for judge, values in (("ann", (5, 4, 1, 1, 5, 1)), ("ben", (4, 5, 2, 2, 5, 1))):
        cells = [(s, seg) for s in ("alpha", "beta") for seg in (1, 2, 3)]
        rows += [
            f"{seg},{s},{judge},adequacy,{v}" for (s, seg), v in zip(cells, values)
        ]
    judgments = tmp_path / "adequacy.csv"
    judgments.write_text("\n".join(rows) + "\n")
    wait = log_in(browser, live_server, owner)

    browser.get(f"{live_server.url}/test-sets/{test_set.pk}/judgments/import/")
    browser.find_element(By.ID, "id_file").send_keys(str(judgments))
    browser.find_element(By.CSS_SELECTOR, "#judgments-form button").click()
    wait.until(EC.element_to_be_clickable((By.ID, "preview-import"))).click()
    wait.until(EC.element_to_be_clickable((By.ID, "see-judgments"))).click()

    # The judgments page: the import, the systems with a drawn chart.
    wait.until(
        EC.presence_of_element_located((By.CSS_SELECTOR, ".criterion-chart svg"))
    )
    imports = browser.find_element(By.ID, "imports-table").text
    assert "adequacy.csv" in imports and "alice" in imports and "12" in imports
    systems = browser.find_element(By.CSS_SELECTOR, "table.system-aggregates").text
    assert systems.index("alpha") < systems.index("beta")  # ranked by mean z
    segments = browser.find_element(By.ID, "segment-aggregates").text
    assert "view" in segments
    full_page(browser, "judgments-overview.png")

    # The explorer: choose the metric and criterion, see the biggest disagreement.
    browser.find_element(By.ID, "disagreements-link").click()
    Select(
        wait.until(EC.presence_of_element_located((By.ID, "metric-choice")))
    ).select_by_value("bleu")
    Select(browser.find_element(By.ID, "criterion-choice")).select_by_value("adequacy")
    # The page first shows the default choices: wait for the new page.
    shown = browser.find_element(By.ID, "method")
    browser.find_element(By.CSS_SELECTOR, "#disagreement-form button").click()
    wait.until(gone(shown))
    assert "metric=bleu" in browser.current_url
    first = wait.until(
        EC.visibility_of_element_located((By.CSS_SELECTOR, "li.disagreement"))
    )
    # Worked out by hand: alpha's segment 3 (BLEU 70, judges 1 and 2) differs
    # by +1.38 sd, the most; beta's segment 2 (BLEU 60, judges 5 and 5) by -1.02.
    assert "#1 · alpha · segment 3" in first.text
    assert "bleu rates it higher than the judges" in first.text
    assert "ann" in first.text and "ben" in first.text
    assert "<b>the</b>" not in browser.page_source  # escaped hypothesis
    full_page(browser, "judgments-disagreements.png")
    first.find_element(By.LINK_TEXT, "sentence view").click()
    wait.until(EC.presence_of_element_located((By.ID, "hypothesis")))
    assert "/sentences/" in browser.current_url


def test_real_wmt21_judgments_page_and_explorer(browser, live_server, owner, team):
    """WMT21 ru-en: 11 systems, 9,832 judged segments of crowd DA, and real
    sentence-BLEU of two systems in the explorer (screenshots for the
    README)."""
    require_full_data("WMT21 ru-en with every system and its DA")
    ru_en = WMT21_DIR / "ru-en"
    systems = ("AFRL", "Facebook-AI", "HUMAN", "Manifold", "NVIDIA-NeMo")
    systems += ("NiuTrans", "Online-A", "Online-B", "Online-G", "Online-W", "Online-Y")
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="newstest2021 ru-en",
            source_language="ru",
            target_language="en",
            text_type="news",
            description="",
            sources=read_lines(ru_en / "src.ru"),
            references={
                "A": read_lines(ru_en / "ref.A.en"),
                "B": read_lines(ru_en / "ref.B.en"),
            },
        ),
    )
    for system in systems:
        path = ru_en / ("ref.B.en" if system == "HUMAN" else f"sys/{system}.en")
        job = create_system_output(
            test_set, owner, system, read_lines(path), metrics=["bleus"], queue=False
        )
        if system in ("Facebook-AI", "Online-Y"):
            run_scoring_job(job.pk)
    shots = screenshot_dir()
    wait = log_in(browser, live_server, owner)
    browser.get(f"{live_server.url}/test-sets/{test_set.pk}/judgments/import/")
    browser.find_element(By.ID, "id_file").send_keys(str(ru_en / "human/da_seg.tsv"))
    browser.find_element(By.CSS_SELECTOR, "#judgments-form button").click()
    # The preview: how the file is read, before anything is stored.
    button = wait.until(EC.element_to_be_clickable((By.ID, "preview-import")))
    mapping = browser.find_element(By.ID, "preview-mapping").text
    assert "column seg_id(txt line, 1-based)" in mapping
    assert "da-z from column z" in mapping
    full_page(browser, "judgments-preview-wmt21.png")
    button.click()
    wait.until(EC.element_to_be_clickable((By.ID, "see-judgments"))).click()
    wait.until(
        EC.presence_of_element_located((By.CSS_SELECTOR, ".criterion-chart svg"))
    )
    assert "9832" in browser.find_element(By.ID, "imports-table").text.replace(",", "")
    full_page(browser, "judgments-overview-wmt21.png")
    browser.find_element(By.ID, "disagreements-link").click()
    wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "li.disagreement")))
    assert "points scored by" in browser.find_element(By.ID, "method").text
    full_page(browser, "judgments-disagreements-wmt21.png")
    browser.save_screenshot(
        os.path.join(shots, "judgments-disagreements-wmt21-top.png")
    )
