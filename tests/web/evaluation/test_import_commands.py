"""The ``import_*`` management commands on real WMT21 files: the same checks
and messages as the web forms, nothing stored on error (exit status 1)."""

from __future__ import annotations

import io
import shutil

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError

from mtdash.evaluation.models import ScoringJob, TestSet
from mtdash.orange.models import NBestList
from tests.scoring.support.realdata import WMT21_DIR, read_lines

pytestmark = pytest.mark.django_db

PAIR = WMT21_DIR / "ru-en"


def run(*args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def refused(*args) -> str:
    with pytest.raises(CommandError) as raised:
        run(*args)
    assert raised.value.returncode == 1
    return str(raised.value)


def row_counts() -> dict[str, int]:
    return {
        model._meta.label: model.objects.count()
        for label in ("evaluation", "orange")
        for model in apps.get_app_config(label).get_models()
    }


def test_import_wmt_loads_a_whole_pair_folder(team):
    out, err = run("import_wmt", str(PAIR), "--team", team.name, "--no-queue")

    test_set = TestSet.objects.get(team=team)
    systems = sorted(path.name.removesuffix(".en") for path in (PAIR / "sys").iterdir())
    n = len(read_lines(PAIR / "src.ru"))
    assert test_set.name == f"{WMT21_DIR.name} ru-en"
    assert (test_set.source_language, test_set.target_language) == ("ru", "en")
    assert test_set.segments.count() == n
    assert list(test_set.reference_sets.values_list("label", flat=True)) == ["A", "B"]
    assert test_set.reference_streams()[1] == read_lines(PAIR / "ref.B.en")
    assert sorted(test_set.outputs.values_list("system__name", flat=True)) == systems
    facebook = test_set.outputs.get(system__name="Facebook-AI")
    assert facebook.hypotheses() == read_lines(PAIR / "sys" / "Facebook-AI.en")
    first_doc = read_lines(PAIR / "docids")[0].split("\t")[0]
    assert test_set.segments.get(index=0).document_id == first_doc
    jobs = ScoringJob.objects.filter(output__test_set=test_set)
    assert {tuple(job.metrics) for job in jobs} == {("bleu", "chrf", "ter", "meteor")}
    assert f"{n:,} segments, references A, B, {len(systems)} outputs stored" in out
    assert "100% reading" in err  # the progress line
    # human/*.tsv go to the judgments app: WMT's system-level file is refused
    # with its reason, the import of the test set stands.
    assert "judgments skipped: da_sys.tsv, line 1: system-level WMT DA scores" in err


def test_import_wmt_queues_jobs_with_chosen_metrics_for_a_chinese_target(
    team, tmp_path
):
    folder = tmp_path / "en-zh"
    (folder / "sys").mkdir(parents=True)
    source = read_lines(WMT21_DIR / "zh-en" / "ref.A.en")
    target = read_lines(WMT21_DIR / "zh-en" / "src.zh")
    (folder / "src.en").write_text("\n".join(source) + "\n")
    (folder / "ref.A.zh").write_text("\n".join(target) + "\n")
    shutil.copy(WMT21_DIR / "zh-en" / "src.zh", folder / "sys" / "copy.zh")

    out, _ = run("import_wmt", str(folder), "--team", team.name, "--metrics", "bleu")

    job = ScoringJob.objects.get()
    assert job.metrics == ["bleu:tokenize=zh"]
    assert job.status == ScoringJob.Status.QUEUED
    assert "queued for scoring" in out


def test_import_wmt_refuses_a_folder_with_a_short_reference_and_stores_nothing(
    team, tmp_path
):
    folder = tmp_path / "ru-en"
    shutil.copytree(PAIR, folder)
    lines = read_lines(PAIR / "ref.B.en")
    (folder / "ref.B.en").write_text("\n".join(lines[:-1]) + "\n")
    before = row_counts()

    message = refused("import_wmt", str(folder), "--team", team.name)

    n = len(lines)
    assert message == (
        f"{folder / 'ref.B.en'}, line {n}: the file ends after {n - 1} lines, but "
        f"the source file {folder / 'src.ru'} has {n}; every line must be the "
        "translation of the same line there"
    )
    assert row_counts() == before


def test_import_test_set_and_import_output_with_labels_and_names(team):
    run(
        "import_test_set",
        "--team", team.name, "--name", "ru-en",
        "--source", str(PAIR / "src.ru"),
        "--ref", f"human-A={PAIR / 'ref.A.en'}",
        "--docids", str(PAIR / "docids"),
        "--source-language", "ru", "--target-language", "en",
    )  # fmt: skip
    test_set = TestSet.objects.get(name="ru-en")
    assert list(test_set.reference_sets.values_list("label", flat=True)) == ["human-A"]

    out, _ = run(
        "import_output",
        str(PAIR / "sys" / "Facebook-AI.en"), str(PAIR / "sys" / "Online-Y.en"),
        "--test-set", "ru-en", "--team", team.name,
        "--name", "fb", "--name", "online",
        "--metrics", "bleu", "chrf", "--no-queue",
    )  # fmt: skip

    outputs = {o.system.name: o.hypotheses() for o in test_set.outputs.all()}
    assert outputs == {
        "fb": read_lines(PAIR / "sys" / "Facebook-AI.en"),
        "online": read_lines(PAIR / "sys" / "Online-Y.en"),
    }
    assert "fb: job" in out and "(bleu, chrf)" in out


def test_import_test_set_refuses_an_unlisted_language(team):
    message = refused(
        "import_test_set", "--team", team.name, "--name", "x",
        "--source", str(PAIR / "src.ru"), "--ref", str(PAIR / "ref.A.en"),
        "--source-language", "Russian", "--target-language", "en",
    )  # fmt: skip

    assert message == "--source-language 'Russian' is not an ISO 639 code mtdash lists"
    assert not TestSet.objects.exists()


def test_import_output_refuses_a_taken_name(team, test_set, tmp_path):
    hypotheses = tmp_path / "hyp.en"
    hypotheses.write_text("a\nb\nc\n")
    args = ("import_output", str(hypotheses), "--test-set", str(test_set.pk))
    run(*args, "--name", "sys1", "--no-queue")

    message = refused(*args, "--name", "sys1")

    assert message == "“sys1” already has an output on this test set"
    assert ScoringJob.objects.count() == 1


def test_import_output_gives_the_web_message_for_a_bad_file(team, test_set, tmp_path):
    hypotheses = tmp_path / "hyp.en"
    hypotheses.write_bytes(b"a\nb\xff\nc\n")

    message = refused("import_output", str(hypotheses), "--test-set", str(test_set.pk))

    assert message.startswith(f"{hypotheses}, line 2: invalid UTF-8")
    assert not ScoringJob.objects.exists()


def test_import_nbest_stores_an_nbest_list(team, test_set, tmp_path):
    nbest = tmp_path / "nbest.txt"
    nbest.write_text(
        "".join(
            f"{i} ||| {text} ||| lm: -1.5 ||| -2.0\n"
            for i, text in enumerate(["the cat", "rain", "hello"])
        )
    )

    out, _ = run("import_nbest", str(nbest), "--test-set", str(test_set.pk))

    assert NBestList.objects.get().name == "nbest.txt"
    assert "“nbest.txt” stored" in out


def test_import_nbest_refuses_a_sentence_outside_the_test_set(team, test_set, tmp_path):
    nbest = tmp_path / "nbest.txt"
    nbest.write_text("0 ||| the cat ||| lm: -1.5 ||| -2.0\n3 ||| x ||| lm: -1 ||| -1\n")

    message = refused("import_nbest", str(nbest), "--test-set", str(test_set.pk))

    assert message == (
        f"{nbest}, line 2: sentence id 3 is not a segment of the test set, which "
        "has 3 (ids 0–2; Moses counts from 0)"
    )
    assert not NBestList.objects.exists()


def test_import_wmt_enters_references_as_systems_before_the_judgments(team, tmp_path):
    from mtdash.judgments.models import Judgment

    # The en-de folder with two systems and the MQM rows of those and of the
    # references C and D (the whole file also rates systems without outputs).
    source = WMT21_DIR / "en-de"
    folder = tmp_path / "en-de"
    (folder / "sys").mkdir(parents=True)
    (folder / "human").mkdir()
    for name in ("src.en", "ref.A.de", "ref.C.de", "ref.D.de"):
        shutil.copy(source / name, folder / name)
    systems = ("Facebook-AI", "UEdin")
    for system in systems:
        shutil.copy(source / "sys" / f"{system}.de", folder / "sys")
    header, *rows = (source / "human" / "mqm_seg.tsv").read_text().splitlines()
    kept = [r for r in rows if r.split("\t")[0] in (*systems, "ref-C", "ref-D")]
    (folder / "human" / "mqm_seg.tsv").write_text("\n".join([header, *kept]) + "\n")
    out, err = run(
        "import_wmt",
        str(folder),
        "--team",
        team.name,
        "--no-queue",
        "--references-as-systems",
        "C",
        "D=ref-D",
    )
    test_set = TestSet.objects.get(team=team)
    human = test_set.outputs.get(system__name="ref-C")
    assert human.reference.label == "C"
    assert human.hypotheses() == read_lines(folder / "ref.C.de")
    assert human.reference_streams() == [
        read_lines(folder / "ref.A.de"),
        read_lines(folder / "ref.D.de"),
    ]
    assert "Reference C entered as the system ref-C." in out
    assert "Reference D entered as the system ref-D." in out
    # The MQM file rates the references as ref-C and ref-D: their rows now
    # find the outputs.
    for name in ("ref-C", "ref-D"):
        assert Judgment.objects.filter(output__system__name=name).exists(), err


def test_import_wmt_refuses_an_unknown_reference_as_system_and_stores_nothing(team):
    message = refused(
        "import_wmt", str(PAIR), "--team", team.name, "--references-as-systems", "Q"
    )
    assert message == (
        "--references-as-systems Q: the folder has references A, B; a reference "
        "entered as a system is scored against the others, so it needs two at least"
    )
    assert not TestSet.objects.exists()
