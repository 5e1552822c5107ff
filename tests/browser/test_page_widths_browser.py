"""Every main page fits the window, on a wide screen (1440 px) and on a
phone (390 px), with a realistic test set: 12 systems with long names,
three metrics, judgments of three judges, intervals, clusters and p-values,
an ORANGE job.

On each page the document is no wider than the window (wide tables scroll
inside their own box), the last column of every table can be reached
(scrolled to within its box, or inside the window), and no button or header
link is cut off at the edge; every chart keeps its titles, tick labels and
legend inside its box with room left to plot; at 1440 px the leaderboard,
the p-value matrix of 12 systems and the judgments' per-system table show
every column without scrolling. Each page is saved as a full-page screenshot
(``var/screenshots/width-<px>-<page>.png``) for people to look at.
"""

from __future__ import annotations

import csv
import io
import random
import time

import pytest
from django.test import override_settings
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from mtdash.demo.corpus import demo_test_set
from mtdash.demo.systems import demo_systems
from mtdash.evaluation.leaderboard.comparisons import compare_test_set
from mtdash.evaluation.models import ReadabilityJob
from mtdash.evaluation.readability.jobs import run_readability_job
from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.judgments.imports.judgments import import_judgments
from mtdash.orange.jobs.lifecycle import create_orange_job, run_orange_job_now
from scoring.orange import OrangeOptions
from tests.browser.support import full_page, log_in
from tests.web.orange.orange_support import (
    check_waiting_uploads,
    demo_nbest_text,
    make_nbest,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Names as WMT participants write them (the longest 61 characters).
SYSTEMS = (
    "JDExploreAcademy-Vega-v2-ensemble (constrained, primary submission)",
    "Online-A",
    "HuaweiTSC-transformer-big-deep-encoder-backtranslation",
    "LanguageX",
    "NiuTrans-deep-transformer-ensemble-of-eight",
    "AISP-SJTU",
    "Lan-Bridge-contrastive-2",
    "Online-B",
    "QTrobot-document-level-context-aware",
    "Online-G",
    "Online-W",
    "Online-Y",
)
METRICS = ["bleu", "chrf", "ter"]
WIDTHS = (1440, 390)

# What the page must not do, found in the page itself: a document wider than
# the window; a table whose last column cannot be reached (scrolled to the
# end of its scrolling box, or inside the window when no box scrolls; not
# clipped by a box that hides overflow); a button or header link cut off.
PROBLEMS_JS = r"""
// A phone shows a page wider than its screen zoomed out, with innerWidth
// grown to the page: measure against the screen's width as well.
const width = Math.min(window.innerWidth, arguments[0]);
const problems = [];
const page = document.documentElement.scrollWidth;
function ancestor(element, test) {
  for (let node = element.parentElement; node; node = node.parentElement) {
    if (test(getComputedStyle(node))) return node;
  }
  return null;
}
const scrolls = (style) => ["auto", "scroll"].includes(style.overflowX);
const clips = (style) => ["hidden", "clip"].includes(style.overflowX);
function name(element) {
  return element.id ? "#" + element.id : element.tagName.toLowerCase() + "." + [...element.classList].join(".");
}
if (page > width) {
  // Name the innermost elements that stick out (outside any scrolling box).
  const out = [...document.body.querySelectorAll("*")].filter((element) => {
    const r = element.getBoundingClientRect();
    return r.width && r.right > width + 1 && !ancestor(element, scrolls) &&
      ![...element.children].some((child) => child.getBoundingClientRect().right > width + 1);
  });
  problems.push(`the page is ${page} px wide in a ${width} px window: ` + out.slice(0, 4).map(name).join(", "));
}
for (const table of document.querySelectorAll("main table")) {
  const row = table.querySelector("tr");
  if (!row || !table.offsetParent) continue;
  const last = row.lastElementChild;
  // The scrolling box: the table itself (a narrow screen's CSS) or around it.
  const box = scrolls(getComputedStyle(table)) ? table : ancestor(table, scrolls);
  if (box) {
    box.scrollLeft = box.scrollWidth;
    const edge = box.getBoundingClientRect().right;
    const right = last.getBoundingClientRect().right;
    if (right > edge + 1) problems.push(`${name(table)}: last column at ${right} px, box ends at ${edge} px`);
    if (edge > width + 1) problems.push(`${name(table)}: its scrolling box ends at ${edge} px`);
    box.scrollLeft = 0;
  } else {
    const right = last.getBoundingClientRect().right;
    if (right > width + 1) problems.push(`${name(table)}: last column at ${right} px, window ${width} px`);
  }
  const clip = ancestor(table, clips);
  if (clip && last.getBoundingClientRect().right > clip.getBoundingClientRect().right + 1 && !(box && clip.contains(box)))
    problems.push(`${name(table)}: clipped by ${name(clip)}`);
}
for (const button of document.querySelectorAll("main button, main .button, header a, header button")) {
  const r = button.getBoundingClientRect();
  if (!r.width || ancestor(button, scrolls)) continue;
  if (r.right > width + 1 || r.left < -1) problems.push(`"${button.textContent.trim()}" from ${r.left} to ${r.right} px`);
}
// On a wide screen the key tables show every column without scrolling.
if (width >= 1400) {
  for (const selector of ["#leaderboard", "#pvalue-matrix", "table.system-aggregates"]) {
    for (const table of document.querySelectorAll(selector)) {
      const box = ancestor(table, scrolls);
      if (box && box.scrollWidth > box.clientWidth + 1)
        problems.push(`${selector}: ${box.scrollWidth - box.clientWidth} px hidden to the right`);
    }
  }
}
return problems;
"""

# A chart must fit its own box too: its title, axis titles, tick labels and
# legend inside the chart (Plotly's SVG, or a box of a fixed height, cuts off
# whatever sticks out), and plotting areas that keep a third of the chart's
# width, each at least 100 px (long system names as tick labels or a legend
# beside the plot left 64 px of a 366 px phone chart; three panels side by
# side, 85 px each).
CHARTS_JS = r"""
const problems = [];
function name(element) {
  return element.id ? "#" + element.id : element.tagName.toLowerCase() + "." + [...element.classList].join(".");
}
for (const chart of document.querySelectorAll("main .js-plotly-plot")) {
  if (!chart.offsetParent) continue;
  const box = chart.getBoundingClientRect();
  // Below, what cuts off is the box when it hides overflow (a fixed
  // height), else Plotly's SVG.
  const svg = chart.querySelector(".main-svg");
  const high = getComputedStyle(chart).overflowY === "visible" && svg ? svg.getBoundingClientRect() : box;
  const parts = chart.querySelectorAll(
    "text.gtitle, text.xtitle, text.ytitle, g.xtick text, g.ytick text, .legend text.legendtext"
  );
  for (const part of parts) {
    const r = part.getBoundingClientRect();
    if (!r.width) continue;
    if (r.left < box.left - 2 || r.right > box.right + 2) {
      problems.push(`${name(chart)}: "${part.textContent.slice(0, 40)}" from ${Math.round(r.left - box.left)} to ${Math.round(r.right - box.left)} px of a ${Math.round(box.width)} px chart`);
      break;
    }
    if (r.top < high.top - 2 || r.bottom > high.bottom + 2) {
      problems.push(`${name(chart)}: "${part.textContent.slice(0, 40)}" from ${Math.round(r.top - high.top)} to ${Math.round(r.bottom - high.top)} px of a ${Math.round(high.height)} px high chart`);
      break;
    }
  }
  // Panels side by side share the third; each keeps 100 px.
  const rows = {};
  for (const area of chart.querySelectorAll(".draglayer .nsewdrag")) {
    const r = area.getBoundingClientRect();
    if (r.width < 100) problems.push(`${name(chart)}: a plotting area of ${Math.round(r.width)} px`);
    rows[Math.round(r.top)] = (rows[Math.round(r.top)] || 0) + r.width;
  }
  const widest = Math.max(0, ...Object.values(rows));
  if (widest && widest < box.width / 3)
    problems.push(`${name(chart)}: plotting area ${Math.round(widest)} px of a ${Math.round(box.width)} px chart`);
}
return problems;
"""


def judgments_csv(systems: list[str], segments: int) -> bytes:
    """Three judges rate the adequacy of every segment of every system 1-5
    (seeded), the earlier systems a little better."""
    rng = random.Random(19)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["segment", "system", "judge", "criterion", "value"])
    for rank, system in enumerate(systems):
        for segment in range(1, segments + 1):
            for judge in ("ann", "ben", "cho"):
                value = min(5, max(1, round(rng.gauss(4.2 - 0.15 * rank, 0.8))))
                writer.writerow([segment, system, judge, "adequacy", value])
    return out.getvalue().encode()


@pytest.fixture
def world(team, owner, artifact_dir):
    corpus = demo_test_set()
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="newstest2022 zh-en (demo corpus, twelve systems)",
            source_language=corpus.source_language,
            target_language=corpus.target_language,
            text_type=corpus.text_type,
            description=corpus.description,
            sources=corpus.sources,
            references=dict(corpus.references),
            document_ids=corpus.document_ids,
        ),
    )
    texts = [s.hypotheses for seed in (2024, 7) for s in demo_systems(corpus, seed)]
    jobs = []
    for name, hypotheses in zip(SYSTEMS, texts, strict=False):
        job = create_system_output(
            test_set, owner, name, hypotheses, metrics=METRICS, queue=False
        )
        run_scoring_job(job.pk)
        jobs.append(job)
    import_judgments(
        test_set, owner, judgments_csv(list(SYSTEMS), len(corpus.sources)), "da.csv"
    )
    # 2,000 trials separate clusters under Holm (200 cannot), so the interval
    # chart carries its cluster legend, as it does with the default trials.
    with override_settings(
        MTDASH_COMPARISON_SAMPLES=200, MTDASH_COMPARISON_TRIALS=2000
    ):
        compare_test_set(test_set)
    nbest = make_nbest(test_set, demo_nbest_text(len(corpus.sources)), user=owner)
    check_waiting_uploads()
    orange = create_orange_job(
        nbest,
        owner,
        ["bleu", "chrf"],
        OrangeOptions(curve_step=2, n_bootstrap=200, seed=7),
        queue=False,
    )
    orange = run_orange_job_now(orange)
    # The readability counts, as a worker makes them once the test set is in.
    for job in ReadabilityJob.objects.filter(test_set=test_set, status="queued"):
        run_readability_job(job.pk)
    outputs = [job.output for job in jobs]
    ts = f"/test-sets/{test_set.pk}"
    return {
        "home": "/",
        "leaderboard": f"{ts}/",
        "p-values": f"{ts}/p-values/",
        "compare": f"{ts}/compare/?a={outputs[0].pk}&b={outputs[2].pk}",
        "system": f"/outputs/{outputs[2].pk}/",
        "sentence": f"/outputs/{outputs[2].pk}/sentences/3/",
        "correlations": f"{ts}/correlations/",
        "judgments": f"{ts}/judgments/",
        "orange-job": orange.get_absolute_url(),
        "readability": f"{ts}/readability/",
        "job": jobs[4].get_absolute_url(),
    }


@pytest.fixture
def artifact_dir(settings, tmp_path):
    settings.MTDASH_ARTIFACT_DIR = tmp_path / "artifacts"
    return settings.MTDASH_ARTIFACT_DIR


def emulate(browser, width: int) -> None:
    """A window ``width`` px wide; a phone (touch, the page's viewport tag
    obeyed) below 500 px."""
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {
            "width": width,
            "height": 900 if width > 500 else 844,
            "deviceScaleFactor": 1,
            "mobile": width < 500,
        },
    )


def settled_problems(browser, script: str, *args, seconds: float = 5.0) -> list[str]:
    """The problems ``script`` finds once the page has settled: Plotly's
    responsive resize, the page's own redraw (150 ms after a resize) and the
    tables' layout as the charts beside them take their size may still be
    under way when the page first shows, on a busy machine for a while; a
    real problem persists and is reported."""
    deadline = time.monotonic() + seconds
    while True:
        problems = browser.execute_script(script, *args)
        if not problems or time.monotonic() > deadline:
            return problems
        time.sleep(0.25)


def test_every_main_page_fits_a_wide_screen_and_a_phone(
    browser, live_server, owner, world
):
    wait = log_in(browser, live_server, owner, timeout=60)
    found = {}
    try:
        for width in WIDTHS:
            emulate(browser, width)
            for page, path in world.items():
                browser.get(live_server.url + path)
                wait.until(EC.presence_of_element_located((By.TAG_NAME, "main")))
                for chart in browser.find_elements(By.CSS_SELECTOR, "[data-figure]"):
                    wait.until(
                        lambda _, chart=chart: chart.find_elements(
                            By.CSS_SELECTOR, ".main-svg"
                        )
                    )
                full_page(browser, f"width-{width}-{page}.png", max_height=12000)
                problems = settled_problems(browser, PROBLEMS_JS, width)
                problems += settled_problems(browser, CHARTS_JS)
                if problems:
                    found[f"{page} at {width} px"] = problems
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    assert not found, "\n".join(f"{page}: {p}" for page, p in found.items())
