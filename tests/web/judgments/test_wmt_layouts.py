"""WMT's human files as published: WMT22's ``da_seg.tsv`` layout, the
per-annotator ``ad-*-good-stnd.csv``, segment ids in WMT's sorted-document
order, ``HUMAN`` rows kept or skipped, the preview before anything is
stored, and WMT's own z used as given.

``data/wmt22-layout-da_seg.tsv`` has WMT22's columns (``system da_sys_id
seg_id raw z n_judgments``) and real rows: those of WMT21 ru-en
``human/da_seg.tsv`` (Facebook-AI, Online-Y and HUMAN, lines 1-150), with
its line-mapped ``seg_id`` and its ``raw``, ``z`` and ``n_judgments``.
"""

from __future__ import annotations

import csv
import statistics
from pathlib import Path

import pytest

from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.judgments.campaigns.agreement import compute_agreement
from mtdash.judgments.imports.judgments import import_judgments, preview_judgments
from mtdash.judgments.imports.results import ImportOptions
from mtdash.judgments.models import Criterion, Judgment, JudgmentImport
from mtdash.judgments.overview.store import all_aggregates
from mtdash.judgments.reading import stored_judgments
from scoring.stats import human_scores, krippendorff_alpha, repeat_consistency
from tests.scoring.support.realdata import WMT21_DIR, read_lines, require_full_data
from tests.web.judgments.support import wmt_test_set

WMT22_LAYOUT = Path(__file__).parent / "data" / "wmt22-layout-da_seg.tsv"
RAW_HEADER = (
    "HITId WorkerId Input.src Input.trg Input.item hit sys_id rid type sid score time"
)


def stored() -> tuple[int, int, int]:
    return (
        Judgment.objects.count(),
        JudgmentImport.objects.count(),
        Criterion.objects.count(),
    )


def wmt22_rows() -> list[dict[str, str]]:
    with open(WMT22_LAYOUT, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


@pytest.fixture
def ru_en(team, owner):
    """WMT21 ru-en's first segments with outputs of Facebook-AI and Online-Y."""
    return wmt_test_set(team, owner, "ru-en", ("Facebook-AI", "Online-Y"))


def test_the_wmt22_da_seg_layout_is_previewed_with_its_column_mapping(ru_en):
    rows = wmt22_rows()
    data = WMT22_LAYOUT.read_bytes()

    preview = preview_judgments(ru_en, data, "da_seg.tsv")

    assert stored() == (0, 0, 0)  # a preview stores nothing
    assert preview.problem is None
    assert (preview.layout, preview.segment_order) == ("wmt-da-seg", "line")
    assert dict(preview.mapping) == {
        "segment": "column seg_id",
        "system": "column system",
        "judge": "none in the file: one anonymous judge '-'",
        "criterion": "da from column raw; da-z from column z",
        "value": "column raw → da; column z → da-z",
    }
    per_system = {
        s: sum(1 for r in rows if r["system"] == s)
        for s in ("Facebook-AI", "HUMAN", "Online-Y")
    }
    assert [(s.name, s.rows, s.matched, s.human, s.kept) for s in preview.systems] == [
        ("Facebook-AI", per_system["Facebook-AI"], True, False, True),
        ("HUMAN", per_system["HUMAN"], False, True, False),
        ("Online-Y", per_system["Online-Y"], True, False, True),
    ]
    # No output of HUMAN: its rows are skipped, not the whole file refused.
    assert preview.human_skipped == {"HUMAN": per_system["HUMAN"]}
    assert preview.rows_read == len(rows)
    kept = len(rows) - per_system["HUMAN"]
    assert preview.n_judgments == 2 * kept
    assert [(c.name, c.judgments, c.scale, c.new) for c in preview.criteria] == [
        ("da", kept, "raw mean", True),
        ("da-z", kept, "WMT z", True),
    ]
    first = rows[0]
    assert [
        (r.line, r.segment, r.test_set_line, r.system, r.judge, r.criterion, r.value)
        for r in preview.first_rows[:2]
    ] == [
        (2, 1, 1, first["system"], "-", "da", float(first["raw"])),
        (2, 1, 1, first["system"], "-", "da-z", float(first["z"])),
    ]


def test_keeping_human_rows_needs_an_output_of_that_name(ru_en, owner):
    data = WMT22_LAYOUT.read_bytes()
    preview = preview_judgments(ru_en, data, "da_seg.tsv", ImportOptions("keep"))
    unmatched = [s.name for s in preview.systems if s.kept and not s.matched]
    assert unmatched == ["HUMAN"]
    first_human = next(i for i, r in enumerate(wmt22_rows()) if r["system"] == "HUMAN")
    assert str(preview.problem) == (
        f"da_seg.tsv, line {first_human + 2}: unknown system 'HUMAN': the test set "
        "has outputs of Facebook-AI, Online-Y"
    )
    with pytest.raises(UploadProblem):
        import_judgments(
            ru_en, owner, data, "da_seg.tsv", options=ImportOptions("keep")
        )
    assert stored() == (0, 0, 0)

    # Reference B is what WMT judged as HUMAN: with its output, auto keeps it.
    n = ru_en.segments.count()
    create_system_output(
        ru_en,
        owner,
        "HUMAN",
        read_lines(WMT21_DIR / "ru-en" / "ref.B.en")[:n],
        queue=False,
    )
    result = import_judgments(ru_en, owner, data, "da_seg.tsv")
    assert result.human_skipped == {}
    assert set(result.counts["da-z"]) == {"Facebook-AI", "HUMAN", "Online-Y"}


def test_skipping_human_rows_is_a_choice_even_with_an_output(ru_en, owner):
    n = ru_en.segments.count()
    create_system_output(
        ru_en,
        owner,
        "HUMAN",
        read_lines(WMT21_DIR / "ru-en" / "ref.B.en")[:n],
        queue=False,
    )
    result = import_judgments(
        ru_en,
        owner,
        WMT22_LAYOUT.read_bytes(),
        "da_seg.tsv",
        options=ImportOptions("skip"),
    )
    assert set(result.counts["da-z"]) == {"Facebook-AI", "Online-Y"}
    assert result.human_skipped == {
        "HUMAN": sum(1 for r in wmt22_rows() if r["system"] == "HUMAN")
    }


def test_wmt_z_is_aggregated_as_given_and_labelled_wmt_z(ru_en, owner):
    rows = wmt22_rows()
    import_judgments(ru_en, owner, WMT22_LAYOUT.read_bytes(), "da_seg.tsv")

    criteria = {c.name: c for c in all_aggregates(ru_en)}
    assert (criteria["da-z"].scale, criteria["da-z"].score_label) == ("z", "WMT z")
    assert (criteria["da"].scale, criteria["da"].score_label) == ("mean", "raw mean")
    for system in ("Facebook-AI", "Online-Y"):
        z = statistics.fmean(float(r["z"]) for r in rows if r["system"] == system)
        raw = statistics.fmean(float(r["raw"]) for r in rows if r["system"] == system)
        got_z = next(s for s in criteria["da-z"].systems if s.system == system)
        got_raw = next(s for s in criteria["da"].systems if s.system == system)
        # As given: never standardised again as one anonymous judge's values.
        assert got_z.z_mean == pytest.approx(z, abs=1e-12)
        assert got_z.raw_mean == pytest.approx(z, abs=1e-12)
        assert got_raw.z_mean == pytest.approx(raw, abs=1e-12)
    # The leaderboard and correlations read the same numbers.
    scores = human_scores(stored_judgments(ru_en), "da-z", standardise=True)
    assert scores.as_given
    for system in ("Facebook-AI", "Online-Y"):
        z = statistics.fmean(float(r["z"]) for r in rows if r["system"] == system)
        assert scores.system_score(system) == pytest.approx(z, abs=1e-12)


def test_a_file_of_judges_values_cannot_join_wmt_z(ru_en, owner):
    import_judgments(ru_en, owner, WMT22_LAYOUT.read_bytes(), "da_seg.tsv")
    before = stored()
    data = b"segment,system,judge,criterion,value\n1,Online-Y,j1,da-z,0.5\n"
    with pytest.raises(UploadProblem) as caught:
        import_judgments(ru_en, owner, data, "mine.csv")
    assert str(caught.value) == (
        "mine.csv: criterion da-z of this test set holds z-scores as given in the "
        "file (WMT z); this file gives judges' values (standardised per judge)"
    )
    assert stored() == before


# A test set of 5 segments in documents d2, d2, d1, d3, d1: WMT's
# sorted-document order is d1 (lines 3, 5), d2 (lines 1, 2), d3 (line 4).
DOCUMENTS = ["d2", "d2", "d1", "d3", "d1"]
SORTED_LINES = [3, 5, 1, 2, 4]


@pytest.fixture
def documents(team, owner):
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="documents",
            source_language="ru",
            target_language="en",
            text_type="news",
            description="",
            sources=[f"source {i}" for i in range(5)],
            references={"A": [f"reference {i}" for i in range(5)]},
            document_ids=DOCUMENTS,
        ),
    )
    for system in ("Online-A", "Online-B", "HUMAN"):
        create_system_output(
            test_set, owner, system, [f"{system} {i}" for i in range(5)], queue=False
        )
    return test_set


def raw_file(rows: list[tuple[str, str, str, int, float]]) -> bytes:
    """WMT's raw layout: header split on spaces, rows on tabs."""
    lines = [RAW_HEADER]
    for worker, sys_id, item_type, sid, score in rows:
        cells = [
            "3QE4",
            worker,
            "ru",
            "en",
            "ad",
            "13",
            sys_id,
            "1001524",
            item_type,
            str(sid),
            repr(score),
            "479.0",
        ]
        lines.append("\t".join(cells))
    return ("\n".join(lines) + "\n").encode()


STND = [
    ("W1", "Online-B.4", "SYSTEM", 1, 0.5),
    ("W1", "Online-B.4", "REPEAT", 1, 0.7),
    ("W1", "Online-B.4", "REF", 2, 1.25),
    ("W1", "Online-B.4", "BAD_REF", 2, -1.0),
    ("W2", "Online-A.12", "SYSTEM", 3, -0.25),
    ("W2", "HUMAN.0", "SYSTEM", 5, 0.125),
    ("W1", "Online-B.4", "SYSTEM", 1, 0.9),  # the same item in another HIT
]


def test_wmt_raw_judgements_import_each_annotator_in_sorted_document_order(
    documents, owner
):
    data = raw_file(STND)
    preview = preview_judgments(documents, data, "ad-ruen-good-stnd.csv")
    assert preview.problem is None
    assert (preview.layout, preview.segment_order) == ("wmt-da-raw", "sorted-document")
    assert preview.n_other_items == 2  # REF and BAD_REF: quality controls
    assert dict(preview.mapping)["judge"] == "column WorkerId"
    assert (
        dict(preview.mapping)["system"]
        == "column sys_id (without its .<number> suffix)"
    )
    # W1's REPEAT and the item met again in another HIT are W1's later
    # looks: regular ones first, then the repeat.
    assert [
        (r.segment, r.test_set_line, r.system, r.judge, r.look, r.kind)
        for r in preview.first_rows
    ] == [
        (1, SORTED_LINES[0], "Online-B", "W1", 1, "regular"),
        (1, SORTED_LINES[0], "Online-B", "W1", 3, "repeat"),
        (3, SORTED_LINES[2], "Online-A", "W2", 1, "regular"),
        (5, SORTED_LINES[4], "HUMAN", "W2", 1, "regular"),
        (1, SORTED_LINES[0], "Online-B", "W1", 2, "regular"),
    ]
    assert stored() == (0, 0, 0)

    result = import_judgments(documents, owner, data, "ad-ruen-good-stnd.csv")

    assert result.counts == {"da-z": {"HUMAN": 1, "Online-A": 1, "Online-B": 3}}
    assert Criterion.objects.get(name="da-z").scale == "z"
    stored_rows = sorted(
        Judgment.objects.values_list(
            "output__system__name", "index", "judge", "look", "kind", "value"
        )
    )
    assert stored_rows == [
        ("HUMAN", SORTED_LINES[4] - 1, "W2", 1, "regular", 0.125),
        ("Online-A", SORTED_LINES[2] - 1, "W2", 1, "regular", -0.25),
        ("Online-B", SORTED_LINES[0] - 1, "W1", 1, "regular", 0.5),
        ("Online-B", SORTED_LINES[0] - 1, "W1", 2, "regular", 0.9),
        ("Online-B", SORTED_LINES[0] - 1, "W1", 3, "repeat", 0.7),
    ]
    # WMT's z as given: a segment's score is the mean of all its SYSTEM and
    # REPEAT judgements (0.7), not re-standardised per annotator.
    scores = human_scores(stored_judgments(documents), "da-z")
    assert scores.system_score("Online-B") == pytest.approx(0.7, abs=1e-12)
    assert scores.system_score("Online-A") == pytest.approx(-0.25, abs=1e-12)


def test_a_wmt_annotators_repeats_are_intra_not_inter_annotator_agreement(
    documents, owner
):
    rows = [
        ("W1", "Online-B.4", "REPEAT", 1, 0.75),  # listed before its SYSTEM item
        ("W1", "Online-B.4", "SYSTEM", 1, 0.5),
        ("W1", "Online-B.4", "SYSTEM", 2, -0.5),
        ("W1", "Online-B.4", "REPEAT", 2, -0.25),
        ("W1", "Online-A.12", "SYSTEM", 3, 1.5),
    ]
    import_judgments(documents, owner, raw_file(rows), "ad-ruen-good-stnd.csv")
    (row,) = compute_agreement(documents)["criteria"]
    assert row["n_judgments"] == 5
    # No item has two annotators: W1's repeats are no second judge.
    assert (row["value"], row["n_items"]) == (None, 0)
    assert row["undefined"] == "no item has two ratings or more"
    assert row["intra"]["n_pairs"] == 2
    expected = repeat_consistency([0.5, -0.5], [0.75, -0.25])
    assert row["intra"]["alpha"] == pytest.approx(expected.alpha, abs=1e-12)
    assert row["intra"]["mean_absolute_difference"] == pytest.approx(0.25)


def test_raw_scores_of_that_layout_are_standardised_per_annotator(documents, owner):
    rows = [
        ("W1", "Online-B.4", "SYSTEM", 1, 60.0),
        ("W1", "Online-B.4", "REPEAT", 1, 70.0),
        ("W1", "Online-A.12", "SYSTEM", 2, 80.0),
        ("W1", "Online-A.12", "SYSTEM", 3, 100.0),
        ("W2", "Online-B.4", "SYSTEM", 2, 10.0),
        ("W2", "Online-A.12", "SYSTEM", 1, 30.0),
    ]
    result = import_judgments(documents, owner, raw_file(rows), "ad-ruen-raw.csv")
    assert result.counts == {"da": {"Online-A": 3, "Online-B": 3}}
    assert Criterion.objects.get(name="da").scale == "raw"
    scores = human_scores(stored_judgments(documents), "da")
    # W1's REPEAT is one of W1's judgements, standardised with the others
    # (as WMT does): W1: 60, 70, 80, 100 -> mean 77.5, sample sd s1; W2: 10,
    # 30 -> mean 20, sd 14.142 -> -0.7071, 0.7071. Online-B: segment 1 is
    # the mean of W1's two looks, segment 2 is W2's -0.7071.
    s1 = statistics.stdev([60.0, 70.0, 80.0, 100.0])
    w1 = [(x - 77.5) / s1 for x in (60.0, 70.0, 80.0, 100.0)]
    w2 = 10 / statistics.stdev([10.0, 30.0])
    online_b = ((w1[0] + w1[1]) / 2 - w2) / 2
    assert scores.system_score("Online-B") == pytest.approx(online_b, abs=1e-12)
    online_a = (w1[2] + w1[3] + w2) / 3
    assert scores.system_score("Online-A") == pytest.approx(online_a, abs=1e-12)
    assert set(Judgment.objects.values_list("judge", flat=True)) == {"W1", "W2"}


def test_sorted_document_order_needs_document_ids_and_line_order_is_a_choice(
    ru_en, documents, owner
):
    data = raw_file(STND)
    with pytest.raises(UploadProblem) as caught:
        import_judgments(ru_en, owner, data, "ad-ruen-good-stnd.csv")
    assert "needs the test set's document ids" in str(caught.value)
    assert caught.value.line == 1
    as_lines = preview_judgments(
        documents, data, "ad.csv", ImportOptions(segment_order="line")
    )
    assert [r.test_set_line for r in as_lines.first_rows] == [1, 1, 3, 5, 1]
    assert stored() == (0, 0, 0)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            RAW_HEADER + "\nX\tW1\tru\ten\tad\t1\tOnline-B.4\t1\tSYSTEM\t9\t0.5\t1\n",
            "j.csv, line 2: segment 9 is not in the test set (it has 5 segments in sorted-document order)",
        ),
        (
            RAW_HEADER + "\nX\tW1\tru\ten\tad\t1\tOnline-B.4\t1\tSYSTEM\t1\tgood\t1\n",
            "j.csv, line 2: value 'good' is not a number",
        ),
        (
            RAW_HEADER + "\nX\tW1\tru\ten\tad\t1\tOnline-B.4\t1\tSYSTEM\t1\n",
            "j.csv, line 2: expected 12 fields (as in the header), found 10",
        ),
        (
            RAW_HEADER + "\nX\tW1\tru\ten\tad\t1\tOnline-Z.4\t1\tSYSTEM\t1\t0.5\t1\n",
            "j.csv, line 2: unknown system 'Online-Z': the test set has outputs of HUMAN, Online-A, Online-B",
        ),
        (
            "system\tda_sys_id\tseg_id\traw\tz\tn_judgments\nHUMAN-refB\tx.1\t1\t50\t0.1\t1\n",
            "j.csv: no judgments: every row is of HUMAN-refB, which are skipped (references judged as systems); keep them to import them",
        ),
    ],
)
def test_bad_wmt_files_store_nothing(documents, owner, content, message):
    with pytest.raises(UploadProblem) as caught:
        import_judgments(documents, owner, content.encode(), "j.csv")
    assert str(caught.value) == message
    assert stored() == (0, 0, 0)


def test_the_options_are_checked():
    with pytest.raises(ValueError, match="human_rows must be one of auto, keep, skip"):
        ImportOptions("maybe")
    with pytest.raises(ValueError, match="segment_order must be one of line"):
        ImportOptions(segment_order="docs")


# -- the full WMT21 ru-en data: WMT's official ranking from its own z ---------

RU_EN = WMT21_DIR / "ru-en"


def wmt_table(name: str) -> list[dict[str, str]]:
    with open(RU_EN / "human" / name, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def full_ru_en(team, owner, names: dict[str, str]):
    """All 1,000 segments with their document ids and the 11 systems WMT
    judged, under ``names`` (WMT system -> output name)."""
    docids = [line.split("\t")[0] for line in read_lines(RU_EN / "docids")]
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="newstest2021 ru-en",
            source_language="ru",
            target_language="en",
            text_type="news",
            description="",
            sources=read_lines(RU_EN / "src.ru"),
            references={"A": read_lines(RU_EN / "ref.A.en")},
            document_ids=docids,
        ),
    )
    for system, name in names.items():
        path = RU_EN / ("ref.B.en" if system == "HUMAN" else f"sys/{system}.en")
        create_system_output(test_set, owner, name, read_lines(path), queue=False)
    return test_set


def test_wmt21_raw_judgements_reproduce_wmts_official_ranking(team, owner):
    require_full_data("every WMT21 ru-en segment, system and raw judgement")
    published = wmt_table("da_sys.tsv")  # WMT's ranking, best first
    # The raw file names systems by da_sys_id (Nemo.3 for NVIDIA-NeMo).
    names = {row["system"]: row["da_sys_id"].rsplit(".", 1)[0] for row in published}
    test_set = full_ru_en(team, owner, names)
    data = (RU_EN / "human" / "raw" / "ad-ruen-good-stnd.csv").read_bytes()

    import_judgments(test_set, owner, data, "ad-ruen-good-stnd.csv")

    (aggregates,) = all_aggregates(test_set)
    assert aggregates.name == "da-z" and aggregates.score_label == "WMT z"
    assert [s.system for s in aggregates.systems] == [
        names[r["system"]] for r in published
    ]
    assert aggregates.n_judges == 96  # every annotator is one judge
    for row in published:
        system = next(s for s in aggregates.systems if s.system == names[row["system"]])
        assert abs(system.z_mean - float(row["z"])) <= 5e-4, row  # 3 decimals
        assert system.n_segments == int(row["n_after_qc"]), row


def test_wmt22_layout_with_wmt_z_ranks_as_wmt_and_raw_means_do_not(team, owner):
    require_full_data("every WMT21 ru-en segment and system")
    published = wmt_table("da_sys.tsv")
    names = {row["system"]: row["system"] for row in published}
    test_set = full_ru_en(team, owner, names)
    lines = ["system\tda_sys_id\tseg_id\traw\tz\tn_judgments"]
    for row in wmt_table("da_seg.tsv"):
        cells = [row["system"], row["da_sys_id"], row["seg_id(txt line, 1-based)"]]
        lines.append("\t".join(cells + [row["raw"], row["z"], row["n_judgments"]]))
    data = ("\n".join(lines) + "\n").encode()

    result = import_judgments(test_set, owner, data, "da_seg.tsv")

    assert result.human_skipped == {}  # the test set has an output named HUMAN
    criteria = {c.name: c for c in all_aggregates(test_set)}
    wmt_order = [row["system"] for row in published]
    assert [s.system for s in criteria["da-z"].systems] == wmt_order
    assert criteria["da-z"].systems[0].system == "NVIDIA-NeMo"
    # Ranked by raw means, Online-Y (last by WMT z) would come seventh.
    by_raw = [s.system for s in criteria["da"].systems]
    assert by_raw != wmt_order and by_raw.index("Online-Y") == 6


def test_wmt21_raw_judgements_keep_each_annotator_and_their_repeats(team, owner):
    """An annotator's REPEAT items and items met again in another HIT are
    later looks of the same judge: 96 judges (not one per look), the
    repeats feed intra-annotator alpha and inter-annotator agreement reads
    each annotator's first look only."""
    require_full_data("every WMT21 ru-en segment, system and raw judgement")
    published = wmt_table("da_sys.tsv")
    names = {row["system"]: row["da_sys_id"].rsplit(".", 1)[0] for row in published}
    test_set = full_ru_en(team, owner, names)
    path = RU_EN / "human" / "raw" / "ad-ruen-good-stnd.csv"
    header, *lines = path.read_text(encoding="utf-8").splitlines()
    rows = [dict(zip(header.split(), line.split("\t"))) for line in lines]
    annotators = {row["WorkerId"] for row in rows}
    # Each annotator's looks at an item: SYSTEM items in file order, then
    # REPEATs (the file often lists a REPEAT before its SYSTEM item).
    looks: dict[tuple[str, str, str], list[tuple[str, float]]] = {}
    for row in sorted(rows, key=lambda row: row["type"] == "REPEAT"):
        if row["type"] in ("SYSTEM", "REPEAT"):
            item = (row["WorkerId"], row["sys_id"].rsplit(".", 1)[0], row["sid"])
            looks.setdefault(item, []).append((row["type"], float(row["score"])))
    pairs = [
        (first, value)
        for (_, first), *later in looks.values()
        for kind, value in later
        if kind == "REPEAT"
    ]
    assert (len(annotators), len(pairs)) == (96, 1412)

    import_judgments(test_set, owner, path.read_bytes(), "ad-ruen-good-stnd.csv")

    (aggregates,) = all_aggregates(test_set)
    assert aggregates.n_judges == len(annotators)
    assert set(Judgment.objects.values_list("judge", flat=True)) == annotators
    assert Judgment.objects.filter(kind="repeat").count() == len(pairs)
    assert Judgment.objects.filter(look__gt=1).count() == sum(
        len(v) - 1 for v in looks.values()
    )
    (row,) = compute_agreement(test_set)["criteria"]
    assert row["n_judgments"] == sum(len(v) for v in looks.values())
    firsts, repeats = zip(*pairs)
    intra = repeat_consistency(firsts, repeats)
    assert row["intra"]["n_pairs"] == len(pairs)
    assert row["intra"]["alpha"] is not None
    assert row["intra"]["alpha"] == pytest.approx(intra.alpha, abs=1e-12)
    # Inter-annotator alpha: one value per annotator and item, the first look.
    items = sorted({item[1:] for item in looks})
    item_code = {item: i for i, item in enumerate(items)}
    judge_code = {judge: i for i, judge in enumerate(sorted(annotators))}
    first_looks = [
        (item_code[item[1:]], judge_code[item[0]], values[0][1])
        for item, values in looks.items()
    ]
    expected = krippendorff_alpha(*zip(*first_looks), "interval")
    assert row["value"] == pytest.approx(expected, abs=1e-12)
