"""Uploads in every corpus format through the real forms, with real WMT21
files (the full data in CI, the committed mirror of the first ~150 segments
on a fresh clone): each format round-trips to the stored segments; bad files
are refused naming file, line and problem, storing nothing; languages come
from the ISO 639 list; the target language sets the metric defaults; an
output that copies its source is warned about."""

from __future__ import annotations

import gzip
import io
import zipfile

import pytest
from django.apps import apps
from django.contrib.messages import get_messages
from django.urls import reverse

from mtdash.common.languages import ISO_639_1, LANGUAGES, language_choices
from mtdash.evaluation.models import ScoringJob, Segment, TestSet
from mtdash.evaluation.services.scoring_jobs import server_metric
from scoring import get_metric
from scoring.formats import ParsedCorpus, write_sgml, write_tsv, write_wmt_xml
from tests.conftest import PASSWORD
from tests.scoring.support.realdata import WMT21_DIR, read_lines
from tests.web.helpers import text_file

NEW_TEST_SET = reverse("test_set_new")
PAIR = WMT21_DIR / "ru-en"
SYSTEMS = ("Facebook-AI", "Online-Y")


@pytest.fixture
def client_owner(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    return client


@pytest.fixture(scope="module")
def ru_en() -> ParsedCorpus:
    """WMT21 ru-en as the plain files have it: source, refs A B, docids, two systems."""
    return ParsedCorpus(
        format="plain",
        detected="",
        kind="mixed",
        source=tuple(read_lines(PAIR / "src.ru")),
        references={
            label: tuple(read_lines(PAIR / f"ref.{label}.en")) for label in "AB"
        },
        systems={
            name: tuple(read_lines(PAIR / "sys" / f"{name}.en")) for name in SYSTEMS
        },
        document_ids=tuple(line.split("\t")[0] for line in read_lines(PAIR / "docids")),
        source_language="ru",
        target_language="en",
        set_id="newstest2021",
    )


def only(corpus: ParsedCorpus, **fields) -> ParsedCorpus:
    values = {**corpus.__dict__, **fields}
    return ParsedCorpus(**values)


def corpus_form(team, name="ru-en", **overrides):
    form = {
        "team": team.pk,
        "name": name,
        "source_language": "",
        "target_language": "",
        "text_type": "news",
        "description": "",
        "file_format": "auto",
    }
    form.update(overrides)
    return form


def stored(test_set: TestSet) -> dict:
    """Everything a test set holds, in the shape of a ParsedCorpus's fields."""
    segments = test_set.segments.order_by("index")
    outputs = test_set.outputs.select_related("system")
    return {
        "source": tuple(segments.values_list("source", flat=True)),
        "document_ids": tuple(segments.values_list("document_id", flat=True)),
        "references": {
            reference_set.label: tuple(
                reference_set.segments.order_by("index").values_list("text", flat=True)
            )
            for reference_set in test_set.reference_sets.order_by("pk")
        },
        "systems": {
            output.system.name: tuple(output.hypotheses()) for output in outputs
        },
        "languages": (test_set.source_language, test_set.target_language),
    }


def row_counts() -> dict[str, int]:
    return {
        model._meta.label: model.objects.count()
        for model in apps.get_app_config("evaluation").get_models()
    }


def test_one_wmt_xml_file_holds_the_whole_test_set_and_its_outputs(
    client_owner, team, ru_en
):
    upload = text_file("newstest2021.ru-en.xml", write_wmt_xml(ru_en))

    response = client_owner.post(NEW_TEST_SET, corpus_form(team, source_file=upload))

    assert response.status_code == 302, response.content.decode()[-3000:]
    test_set = TestSet.objects.get(name="ru-en")
    assert stored(test_set) == {
        "source": ru_en.source,
        "document_ids": ru_en.document_ids,
        "references": dict(ru_en.references),
        "systems": dict(ru_en.systems),
        "languages": ("ru", "en"),  # stated by the file, none chosen
    }
    jobs = ScoringJob.objects.filter(output__test_set=test_set)
    assert {tuple(job.metrics) for job in jobs} == {("bleu", "chrf", "ter", "meteor")}
    notes = [str(m) for m in get_messages(response.wsgi_request)]
    assert notes[0].startswith("Read WMT XML (mixed): source, 2 references, 2 systems")


def test_sgml_source_references_labelled_per_row_and_a_tstset_output(
    client_owner, team, ru_en
):
    form = corpus_form(
        team,
        source_language="ru",
        target_language="en",
        source_file=text_file("src.sgm", write_sgml(ru_en, ["source"])),
        reference_file_1=text_file("ref-A.sgm", write_sgml(ru_en, ["ref:A"])),
        reference_label_1="human-A",
        reference_file_2=text_file("ref-B.sgm", write_sgml(ru_en, ["ref:B"])),
        reference_label_2="human-B",
    )
    response = client_owner.post(NEW_TEST_SET, form)
    assert response.status_code == 302, response.content.decode()[-3000:]
    test_set = TestSet.objects.get(name="ru-en")

    response = client_owner.post(
        reverse("output_new", args=[test_set.pk]),
        {
            "file_format": "sgml",
            "hypothesis_file": text_file(
                "fb.sgm", write_sgml(ru_en, ["system:Facebook-AI"])
            ),
            "metrics": ["bleu"],
        },
    )

    assert response.status_code == 302, response.content.decode()[-3000:]
    assert stored(test_set) == {
        "source": ru_en.source,
        "document_ids": ru_en.document_ids,
        "references": {
            "human-A": ru_en.references["A"],
            "human-B": ru_en.references["B"],
        },
        "systems": {"Facebook-AI": ru_en.systems["Facebook-AI"]},  # sysid kept
        "languages": ("ru", "en"),
    }


def test_a_tsv_file_with_source_references_and_document_ids(client_owner, team, ru_en):
    corpus = only(ru_en, systems={})
    form = corpus_form(
        team,
        source_language="ru",
        target_language="en",
        file_format="tsv",
        source_file=text_file("ru-en.tsv", write_tsv(corpus)),
    )

    response = client_owner.post(NEW_TEST_SET, form)

    assert response.status_code == 302, response.content.decode()[-3000:]
    test_set = TestSet.objects.get(name="ru-en")
    assert stored(test_set)["references"] == dict(ru_en.references)
    assert stored(test_set)["document_ids"] == ru_en.document_ids


def test_a_zip_of_a_wmt_pair_folder(client_owner, team):
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zipped:
        for path in sorted(PAIR.rglob("*")):
            if path.is_file():
                zipped.write(path, f"ru-en/{path.relative_to(PAIR)}")
    upload = text_file("ru-en.zip", archive.getvalue())

    response = client_owner.post(NEW_TEST_SET, corpus_form(team, source_file=upload))

    assert response.status_code == 302, response.content.decode()[-3000:]
    test_set = TestSet.objects.get(name="ru-en")
    held = stored(test_set)
    systems = sorted((PAIR / "sys").iterdir())
    assert held["source"] == tuple(read_lines(PAIR / "src.ru"))
    assert held["references"] == {
        label: tuple(read_lines(PAIR / f"ref.{label}.en")) for label in "AB"
    }
    assert held["systems"] == {
        path.name.removesuffix(".en"): tuple(read_lines(path)) for path in systems
    }
    assert held["languages"] == ("ru", "en")  # from src.ru and ref.A.en
    assert held["document_ids"][0] == read_lines(PAIR / "docids")[0].split("\t")[0]


def test_plain_files_gzip_and_wmt_docids(client_owner, team, ru_en):
    form = corpus_form(
        team,
        source_language="ru",
        target_language="en",
        source_file=text_file("src.ru", (PAIR / "src.ru").read_bytes()),
        reference_file_1=text_file(
            "ref.A.en.gz", gzip.compress((PAIR / "ref.A.en").read_bytes())
        ),
        reference_label_1="A",
        document_ids_file=text_file("docids", (PAIR / "docids").read_bytes()),
    )

    response = client_owner.post(NEW_TEST_SET, form)

    assert response.status_code == 302, response.content.decode()[-3000:]
    held = stored(TestSet.objects.get(name="ru-en"))
    assert held["references"] == {"A": ru_en.references["A"]}
    assert held["document_ids"] == ru_en.document_ids  # "id<TAB>n": the id


def plain_test_set(client_owner, team, ru_en, target="en", name="ru-en") -> TestSet:
    form = corpus_form(
        team,
        name=name,
        source_language="ru",
        target_language=target,
        source_file=text_file("src.ru", (PAIR / "src.ru").read_bytes()),
        reference_file_1=text_file("ref.A.en", (PAIR / "ref.A.en").read_bytes()),
        reference_label_1="A",
    )
    response = client_owner.post(NEW_TEST_SET, form)
    assert response.status_code == 302, response.content.decode()[-3000:]
    return TestSet.objects.get(name=name)


def test_several_outputs_at_once_with_names_edited(client_owner, team, ru_en):
    test_set = plain_test_set(client_owner, team, ru_en)
    files = [
        text_file(f"{name}.en", (PAIR / "sys" / f"{name}.en").read_bytes())
        for name in SYSTEMS
    ]

    response = client_owner.post(
        reverse("output_new", args=[test_set.pk]),
        {
            "hypothesis_file": files,
            "system_name_1": "fb (edited)",
            "system_name_2": "",  # left empty: the file's name
            "metrics": ["bleu", "chrf"],
        },
    )

    assert response.status_code == 302
    assert response["Location"] == test_set.get_absolute_url()
    assert stored(test_set)["systems"] == {
        "fb (edited)": ru_en.systems["Facebook-AI"],
        "Online-Y": ru_en.systems["Online-Y"],
    }
    assert ScoringJob.objects.count() == 2


@pytest.mark.parametrize(
    "upload, message",
    [
        (
            (
                "src.sgm",
                b'<srcset setid="x" srclang="ru">\n<doc docid="d1">\n'
                b'<seg id="1">one</seg>\n<seg id="1">two</seg>\n</doc>\n</srcset>\n',
            ),
            "src.sgm, line 4: ",
        ),
        (
            (
                "src.xml",
                b'<dataset id="x">\n<collection id="c">\n<doc id="d1">\n'
                b'<src lang="ru"><p><seg id="1">one</p></src>\n',
            ),
            "src.xml, line 4: ",
        ),
        (("src.zip", b"PK\x05\x06" + b"\x00" * 18), "src.zip: "),
    ],
    ids=["sgml-duplicate-seg", "xml-broken", "empty-zip"],
)
def test_a_bad_structured_file_is_refused_with_file_and_line_storing_nothing(
    client_owner, team, upload, message
):
    before = row_counts()
    form = corpus_form(
        team,
        source_language="ru",
        target_language="en",
        source_file=text_file(*upload),
        reference_file_1=text_file("ref.A.en", "one\ntwo\n"),
    )

    response = client_owner.post(NEW_TEST_SET, form)

    assert response.status_code == 200
    errors = response.context["form"].non_field_errors()
    assert len(errors) == 1 and errors[0].startswith(message), errors
    assert row_counts() == before


def test_an_output_of_the_wrong_length_in_a_batch_stores_none(
    client_owner, team, ru_en
):
    test_set = plain_test_set(client_owner, team, ru_en)
    before = row_counts()
    n = len(ru_en.source)
    good = text_file("good.en", (PAIR / "sys" / "Online-Y.en").read_bytes())
    short = text_file("short.en", "\n".join(ru_en.source[:-1]) + "\n")

    response = client_owner.post(
        reverse("output_new", args=[test_set.pk]), {"hypothesis_file": [good, short]}
    )

    assert response.context["form"].non_field_errors() == [
        f"short.en, line {n}: the file ends after {n - 1} lines, but the test set "
        f"has {n}; every line must be the translation of the same line there"
    ]
    assert row_counts() == before


def test_two_outputs_with_one_name_are_refused(client_owner, team, ru_en):
    test_set = plain_test_set(client_owner, team, ru_en)
    text = (PAIR / "sys" / "Online-Y.en").read_bytes()
    same = [text_file("x.en", text), text_file("x.de", text)]

    response = client_owner.post(
        reverse("output_new", args=[test_set.pk]), {"hypothesis_file": same}
    )

    assert response.context["form"].non_field_errors() == [
        "x.de: a second output named “x” (the first is in x.en); give each "
        "system its own name"
    ]
    assert not ScoringJob.objects.exists()


def test_languages_come_from_an_iso_639_list_with_nothing_chosen(client_owner):
    assert len(ISO_639_1) == 183 and len(LANGUAGES) >= 190
    assert LANGUAGES["zh"] == "Chinese" and LANGUAGES["hsb"] == "Upper Sorbian"
    assert language_choices()[0] == ("", "— choose a language —")

    page = client_owner.get(NEW_TEST_SET).content.decode()

    assert '<select name="source_language"' in page
    assert '<option value="fr">French (fr)</option>' in page
    select = page.split('name="source_language"')[1].split("</select>")[0]
    assert select.count("selected") == 1 and '<option value="" selected>' in select


def test_a_test_set_without_a_language_asks_for_it(client_owner, team):
    form = corpus_form(
        team,
        source_language="ru",
        source_file=text_file("src.ru", "один\n"),
        reference_file_1=text_file("ref.A.en", "one\n"),
    )

    response = client_owner.post(NEW_TEST_SET, form)

    assert response.context["form"].errors["target_language"] == [
        "Choose the target language: the files do not state it."
    ]
    assert not TestSet.objects.exists()


@pytest.mark.parametrize(
    "target, bleu, signature_part",
    [("zh", "bleu:tokenize=zh", "tok:zh"), ("ja", "bleu:tokenize=char", "tok:char")],
)
def test_the_target_language_sets_the_metric_defaults(
    client_owner, team, ru_en, target, bleu, signature_part
):
    test_set = plain_test_set(client_owner, team, ru_en, target=target)
    url = reverse("output_new", args=[test_set.pk])

    form = client_owner.get(url).context["form"]
    page = client_owner.get(url).content.decode()
    assert form.initial["metrics"] == ["bleu", "chrf", "ter"]  # no METEOR for CJK
    assert f"<code>{bleu}</code>" in page

    hypotheses = (PAIR / "sys" / "Online-Y.en").read_bytes()
    client_owner.post(
        url,
        {"hypothesis_file": text_file("sys.txt", hypotheses), "metrics": ["bleu"]},
    )

    job = ScoringJob.objects.get()
    assert job.metrics == [bleu]
    assert signature_part in get_metric(job.metrics[0]).signature(nrefs=1)


def test_an_output_identical_to_the_source_is_warned_about(client_owner, team, ru_en):
    test_set = plain_test_set(client_owner, team, ru_en)
    n = len(ru_en.source)
    copied = list(ru_en.source[: n // 2 + 1]) + ["x"] * (n - n // 2 - 1)
    half = list(ru_en.source[: n // 2]) + ["x"] * (n - n // 2)
    url = reverse("output_new", args=[test_set.pk])

    response = client_owner.post(
        url, {"hypothesis_file": text_file("copy.txt", "\n".join(copied) + "\n")}
    )
    quiet = client_owner.post(
        url, {"hypothesis_file": text_file("half.txt", "\n".join(half) + "\n")}
    )

    warnings = [
        str(m) for m in get_messages(response.wsgi_request) if m.level_tag == "warning"
    ]
    assert warnings == [
        f"“copy” is identical to the source on {n // 2 + 1:,} of {n:,} segments "
        f"({(n // 2 + 1) / n:.0%}): is it an untranslated copy of the input?"
    ]
    assert not [m for m in get_messages(quiet.wsgi_request) if "“half”" in str(m)]
    assert Segment.objects.filter(test_set=test_set).count() == n


def test_english_meteor_takes_the_servers_paraphrase_table(settings, tmp_path):
    table = tmp_path / "paraphrase-en.gz"
    table.write_bytes(gzip.compress(b"0.5\nsmall\nlittle\n"))
    settings.MTDASH_METEOR_PARAPHRASE_TABLE = ""
    assert "para:off" in server_metric("meteor").signature(nrefs=1)

    settings.MTDASH_METEOR_PARAPHRASE_TABLE = str(table)

    assert "para:paraphrase-en.gz" in server_metric("meteor").signature(nrefs=1)
    french = server_metric("meteor:lang=fr,norm=false").signature(nrefs=1)
    assert "para:off" in french  # an English table is no French paraphrase table
