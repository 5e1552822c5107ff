"""Importing human judgments: the WMT21 files as published, the plain
CSV/TSV layout, and every refusal with its exact message and nothing stored."""

from __future__ import annotations

import math

import pytest

from mtdash.common.upload_checks import UploadProblem
from mtdash.evaluation.services.uploads import create_system_output
from mtdash.judgments.imports.judgments import import_judgments
from mtdash.judgments.models import Criterion, Judgment, JudgmentImport
from tests.web.judgments.support import SYSTEMS, human_file, wmt_test_set

HYPOTHESES = ["the cat is on the mat", "it is raining", "hello everyone"]


@pytest.fixture
def toy(test_set, owner):
    """The 3-segment test set with outputs of sys-a and sys-b."""
    for system in ("sys-a", "sys-b"):
        create_system_output(test_set, owner, system, HYPOTHESES, queue=False)
    return test_set


def stored() -> tuple[int, int, int]:
    return (
        Judgment.objects.count(),
        JudgmentImport.objects.count(),
        Criterion.objects.count(),
    )


@pytest.mark.parametrize(
    ("pair", "name"), [("en-de", "mqm_seg.tsv"), ("zh-en", "mqm_seg.tsv")]
)
def test_it_imports_wmt21_mqm_as_published(team, owner, pair, name):
    systems = SYSTEMS[pair, name]
    test_set = wmt_test_set(team, owner, pair, systems)
    n = test_set.segments.count()
    data, rows = human_file(pair, name, n)
    rated = [cells for cells in rows if cells[3] != "None"]
    assert rated, "the file judges some of these segments"

    result = import_judgments(test_set, owner, data, name)

    assert result.layout == "wmt-mqm"
    assert result.n_judgments == len(rated)
    assert result.n_skipped == len(rows) - len(rated)
    expected = {s: sum(1 for c in rated if c[0] == s) for s in systems}
    assert result.counts == {"mqm": {s: k for s, k in sorted(expected.items()) if k}}
    judgments = Judgment.objects.filter(output__test_set=test_set)
    assert judgments.count() == len(rated)
    assert math.fsum(judgments.values_list("value", flat=True)) == pytest.approx(
        math.fsum(float(c[3]) for c in rated), rel=1e-12
    )
    first = rated[0]
    judgment = judgments.get(
        output__system__name=first[0], index=int(first[2]) - 1, criterion__name="mqm"
    )
    assert judgment.value == float(first[3])
    assert judgment.judge == "-"
    mqm = Criterion.objects.get(test_set=test_set, name="mqm")
    assert (mqm.minimum, mqm.maximum, mqm.higher_is_better) == (None, 0.0, True)


def test_it_imports_wmt21_ru_en_segment_da_as_raw_and_z(team, owner):
    systems = SYSTEMS["ru-en", "da_seg.tsv"]
    test_set = wmt_test_set(team, owner, "ru-en", systems)
    data, rows = human_file("ru-en", "da_seg.tsv", test_set.segments.count())

    result = import_judgments(test_set, owner, data, "da_seg.tsv")

    assert result.layout == "wmt-da-seg"
    per_system = {s: sum(1 for c in rows if c[0] == s) for s in systems}
    assert result.counts == {"da": per_system, "da-z": per_system}
    assert result.n_judgments == 2 * len(rows)
    for cells in rows[:20]:
        values = dict(
            Judgment.objects.filter(
                output__system__name=cells[0], index=int(cells[2]) - 1
            ).values_list("criterion__name", "value")
        )
        assert values == {"da": float(cells[6]), "da-z": float(cells[7])}


def test_it_imports_csv_and_tsv_with_the_documented_header(toy, owner):
    csv_text = (
        "segment,system,judge,criterion,value\n"
        "1,sys-a,j1,adequacy,4\n1,sys-a,j1,fluency,5\n2,sys-b,j2,adequacy,3\n"
        "3,sys-b,j1,da,87.5\n"
    )
    result = import_judgments(toy, owner, csv_text.encode(), "judgments.csv")
    assert result.layout == "csv"
    assert result.counts == {
        "adequacy": {"sys-a": 1, "sys-b": 1},
        "da": {"sys-b": 1},
        "fluency": {"sys-a": 1},
    }
    tsv_text = "Value\tJudge\tSystem\tSegment\tCriterion\n2\tj3\tsys-a\t3\tfluency\n"
    result = import_judgments(toy, owner, tsv_text.encode(), "more.tsv")
    assert (result.layout, result.n_judgments) == ("tsv", 1)
    assert Judgment.objects.filter(output__test_set=toy).count() == 5
    assert result.to_dict() == {
        "import_id": result.import_id,
        "file": "more.tsv",
        "layout": "tsv",
        "judgments": 1,
        "skipped": 0,
        "counts": {"fluency": {"sys-a": 1}},
        "human_rows_skipped": {},
        "segment_order": "line",
        "left_out_of": [],
    }


HEADER = "segment,system,judge,criterion,value\n"

REFUSED = [
    ("", "j.csv: the file is empty (0 bytes)"),
    ("\n\n", "j.csv: the file is empty: no header line"),
    (HEADER, "j.csv: no judgments: the file has only a header line"),
    (
        HEADER + "1,sys-a,j1,adequacy,NA\n",
        "j.csv: no judgments: all 1 rows are without a value",
    ),
    (
        "seg,system,value\n1,sys-a,3\n",
        "j.csv, line 1: no 'segment' column in the header (found: seg, system, value)",
    ),
    (
        HEADER + "1,sys-a,j1,adequacy,4\n2,sys-c,j1,adequacy,4\n",
        "j.csv, line 3: unknown system 'sys-c': the test set has outputs of sys-a, sys-b",
    ),
    (
        HEADER + "1,sys-a,j1,adequacy,4\n4,sys-a,j1,adequacy,4\n",
        "j.csv, line 3: segment 4 is not in the test set (it has 3 segments, "
        "numbered 1 to 3)",
    ),
    (
        HEADER + "0,sys-a,j1,adequacy,4\n",
        "j.csv, line 2: segment '0' is not a line number (a positive integer)",
    ),
    (
        HEADER + "1,sys-a,j1,adequacy,4\n1,sys-b,j1,adequacy,6\n",
        "j.csv, line 3: value 6 is out of range for adequacy (1–5)",
    ),
    (
        HEADER + "1,sys-a,j1,da,100.5\n",
        "j.csv, line 2: value 100.5 is out of range for da (0–100)",
    ),
    (
        HEADER + "1,sys-a,j1,mqm,0.5\n",
        "j.csv, line 2: value 0.5 is out of range for mqm (≤ 0)",
    ),
    (
        HEADER + "1,sys-a,j1,fluency,good\n",
        "j.csv, line 2: value 'good' is not a number",
    ),
    (
        HEADER + "1,sys-a,j1,fluency\n",
        "j.csv, line 2: expected 5 fields (as in the header), found 4",
    ),
    (
        HEADER + "1,sys-a,j1,fluency,3\n2,sys-a,j1,fluency,3\n1,sys-a,j1,fluency,4\n",
        "j.csv, line 4: duplicate judgment: segment 1 of sys-a by judge 'j1' on "
        "fluency is already on line 2",
    ),
    (
        HEADER + "1,sys-a," + "j" * 201 + ",fluency,3\n",
        "j.csv, line 2: the judge name is 201 characters long; at most 200 are allowed",
    ),
    (
        b"segment,system,value\n1,sys-a,\xe9\n",
        "j.csv, line 2: invalid UTF-8 (byte 0xe9 at byte 9 of the line), perhaps "
        "Latin-1 or Windows-1252 ('é'); save the file as UTF-8",
    ),
]


@pytest.mark.parametrize(("content", "message"), REFUSED)
def test_it_refuses_a_bad_file_naming_the_line_and_stores_nothing(
    toy, owner, content, message
):
    import_judgments(
        toy, owner, (HEADER + "1,sys-b,j9,fluency,2\n").encode(), "first.csv"
    )
    before = stored()
    data = content if isinstance(content, bytes) else content.encode()
    with pytest.raises(UploadProblem) as caught:
        import_judgments(toy, owner, data, "j.csv")
    assert str(caught.value) == message
    assert stored() == before


def test_it_refuses_judgments_imported_before(toy, owner):
    import_judgments(toy, owner, (HEADER + "2,sys-a,j1,fluency,3\n").encode(), "a.csv")
    before = stored()
    with pytest.raises(UploadProblem) as caught:
        import_judgments(
            toy,
            owner,
            (HEADER + "1,sys-a,j1,fluency,3\n2,sys-a,j1,fluency,4\n").encode(),
            "b.csv",
        )
    assert str(caught.value) == (
        "b.csv, line 3: duplicate judgment: segment 2 of sys-a by judge 'j1' on "
        "fluency was imported before (from a.csv)"
    )
    assert stored() == before
    # Another judge, or another criterion, of the same segment is no duplicate.
    import_judgments(
        toy,
        owner,
        (HEADER + "2,sys-a,j2,fluency,3\n2,sys-a,j1,adequacy,3\n").encode(),
        "c.csv",
    )
    assert Judgment.objects.count() == before[0] + 2


def test_the_database_refuses_a_duplicate_that_slips_past_the_checks(toy, owner):
    from django.db import IntegrityError, transaction

    import_judgments(toy, owner, (HEADER + "2,sys-a,j1,fluency,3\n").encode(), "a.csv")
    first = Judgment.objects.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        Judgment.objects.create(
            output=first.output,
            index=first.index,
            judge=first.judge,
            criterion=first.criterion,
            value=4,
            batch=first.batch,
            line=9,
        )


WMT_REFUSED = [
    (
        "system\tda_sys_id\tda_sid(sorted-doc order; NOT a txt line number)\traw\tz"
        "\tn_judgments\nsys-a\tsys-a.1\t1\t95\t0.69\t1\n",
        "j.tsv, line 1: its segment ids count segments in WMT's sorted-document "
        "order (documents sorted by id), which needs the test set's document ids; "
        "this test set has none (upload it as WMT XML/SGML with <doc docid>), or "
        "choose line numbers if the ids are lines",
    ),
    (
        "HITId WorkerId Input.src Input.trg Input.item hit sys_id rid type sid score"
        " time\nX\tM1\tru\ten\tad\t1\tsys-a.4\t1\tSYSTEM\t37\t0.5\t479.0\n",
        "j.tsv, line 1: its segment ids count segments in WMT's sorted-document "
        "order (documents sorted by id), which needs the test set's document ids; "
        "this test set has none (upload it as WMT XML/SGML with <doc docid>), or "
        "choose line numbers if the ids are lines",
    ),
    (
        "system\tda_sys_id\traw\tz\tn_after_qc\tn_all\nsys-a\tsys-a.4\t71.9\t0.1\t9\t9\n",
        "j.tsv, line 1: system-level WMT DA scores (one row per system, no segment "
        "column), not judgments of segments; import a file with a row per segment "
        "(such as WMT's da_seg.tsv)",
    ),
]


@pytest.mark.parametrize(("content", "message"), WMT_REFUSED)
def test_it_refuses_wmt_files_it_cannot_match_to_this_test_sets_lines(
    toy, owner, content, message
):
    with pytest.raises(UploadProblem) as caught:
        import_judgments(toy, owner, content.encode(), "j.tsv")
    assert str(caught.value) == message
    assert stored() == (0, 0, 0)


def test_real_sorted_order_and_system_level_wmt21_files_are_refused_here(toy, owner):
    # The toy test set has no document ids: sorted-document order cannot be
    # mapped to its lines (test_wmt_layouts maps it where they exist).
    from tests.scoring.support.realdata import WMT21_DIR

    for path in [
        *WMT21_DIR.glob("*/human/da_seg_UNMAPPED.tsv"),
        *WMT21_DIR.glob("*/human/raw/*.csv"),
        *WMT21_DIR.glob("*/human/da_sys.tsv"),
        *WMT21_DIR.glob("*/human/da_src_sys.tsv"),
    ]:
        with pytest.raises(UploadProblem) as caught:
            import_judgments(toy, owner, path.read_bytes(), path.name)
        assert caught.value.line == 1, path
    assert stored() == (0, 0, 0)


def test_a_range_set_on_the_test_set_is_what_values_are_checked_against(toy, owner):
    Criterion.objects.create(test_set=toy, name="adequacy", minimum=0, maximum=10)
    import_judgments(toy, owner, (HEADER + "1,sys-a,j1,adequacy,7\n").encode(), "a.csv")
    assert Judgment.objects.get().value == 7.0


def test_it_refuses_a_file_over_the_upload_limit(toy, owner, settings):
    settings.MTDASH_MAX_UPLOAD_BYTES = 40
    data = (HEADER + "1,sys-a,j1,adequacy,4\n").encode()
    with pytest.raises(UploadProblem) as caught:
        import_judgments(toy, owner, data, "j.csv")
    assert str(caught.value) == f"j.csv: the file is {len(data)} bytes; the limit is 40"
    assert stored() == (0, 0, 0)
