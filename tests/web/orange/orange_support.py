"""Shared pieces of the ORANGE tests: n-best texts, fixtures, single-run answers.

Test modules import the fixtures they use from here; each is registered
under its short name (``from tests.web.orange.orange_support import nbest_fixture``
makes the fixture ``nbest`` available to that module).
"""

from __future__ import annotations

import pytest

from mtdash.demo.corpus import demo_test_set
from mtdash.demo.nbest import demo_nbest_lines
from mtdash.demo.systems import demo_systems
from mtdash.evaluation.models import TestSet
from mtdash.orange.models import NBestList
from mtdash.orange.nbest.uploads import create_nbest_list, parse_nbest_upload
from scoring import get_metric
from scoring.cli.main import build_parser
from scoring.cli.orange import run_orange
from scoring.orange import OrangeOptions, orange_for_metric, prepare_metrics
from scoring.orange.nbest import NBestList as TextNBest
from scoring.orange.nbest import iter_nbest
from scoring.orange.ranking import OrangeResult

# For the shared toy test set (3 segments; references A and B):
#   0: the cat is on the mat / there is a cat on the mat
#   1: it is raining / it rains
#   2: hello everyone / hello all
# Candidate 2 of sentence 0 repeats reference A, so several metrics rank it
# above the oracle; sentence 2 has a short list and an HTML-looking candidate.
TOY_NBEST = """\
0 ||| the cat sat on the mat ||| lm=-3.2 tm=-1.0 ||| -4.2
0 ||| the cat is on the mat ||| lm=-3.5 tm=-1.1 ||| -4.6
0 ||| cat the mat on ||| lm=-9.0 tm=-2.0 ||| -11.0
1 ||| it is raining today ||| lm=-2.0 ||| -2.0
1 ||| it rains ||| lm=-2.5 ||| -2.5
1 ||| raining ||| lm=-6.0 ||| -6.0
2 ||| hello everyone <script>alert("x")</script> ||| lm=-1.0 ||| -1.0
2 ||| hello all ||| lm=-1.5 ||| -1.5
"""


@pytest.fixture(name="artifact_dir")
def artifact_dir_fixture(settings, tmp_path):
    """Artifacts of in-process tests go to a temporary directory (the
    file-system artifact storage follows MTDASH_ARTIFACT_DIR)."""
    settings.MTDASH_ARTIFACT_DIR = tmp_path / "artifacts"
    return settings.MTDASH_ARTIFACT_DIR


@pytest.fixture(name="remove_artifacts_afterwards")
def remove_artifacts_afterwards_fixture(db):
    """For tests whose worker processes use the default artifact directory:
    rows are flushed after such tests without signals, so delete them here
    to delete their files."""
    yield
    for nbest_list in NBestList.objects.all():
        nbest_list.delete()


def check_waiting_uploads() -> list[NBestList]:
    """Run, in this process, the worker's check of every uploaded list that
    waits for it (web tests have no worker); the lists, as they are now."""
    from mtdash.orange.nbest.validation import run_nbest_validation

    waiting = NBestList.objects.filter(status=NBestList.Status.QUEUED)
    for pk in list(waiting.values_list("pk", flat=True)):
        run_nbest_validation(pk)
    return list(NBestList.objects.order_by("pk"))


def make_nbest(
    test_set: TestSet, text: str, name: str = "toy 3-best", user=None
) -> NBestList:
    parsed = parse_nbest_upload(
        text.encode("utf-8"), "toy.nbest", test_set.segments.count()
    )
    return create_nbest_list(test_set, user, name, parsed)


@pytest.fixture(name="nbest")
def nbest_fixture(test_set, owner, artifact_dir) -> NBestList:
    return make_nbest(test_set, TOY_NBEST, user=owner)


def demo_nbest_text(n_sentences: int = 16) -> str:
    """The demo 7-best list for the first sentences, with some lists cut short
    (sentence 3 keeps 2 candidates, sentence 5 keeps 4) so N_i varies."""
    corpus = demo_test_set()
    keep = {3: 2, 5: 4}
    lines, seen = [], {}
    for line in demo_nbest_lines(corpus, demo_systems(corpus)):
        sentence = int(line.split(" ||| ")[0])
        if sentence >= n_sentences:
            break
        seen[sentence] = seen.get(sentence, 0) + 1
        if seen[sentence] <= keep.get(sentence, 7):
            lines.append(line)
    return "".join(line + "\n" for line in lines)


def create_demo_test_set(team, owner) -> TestSet:
    """The demo test set: 48 segments, references A–D."""
    from mtdash.evaluation.services.uploads import TestSetData, create_test_set

    corpus = demo_test_set()
    data = TestSetData(
        name=corpus.name,
        source_language=corpus.source_language,
        target_language=corpus.target_language,
        text_type=corpus.text_type,
        description="",
        sources=corpus.sources,
        references=dict(corpus.references),
        document_ids=corpus.document_ids,
    )
    return create_test_set(team, owner, data)


@pytest.fixture(name="demo_world")
def demo_world_fixture(team, owner, artifact_dir):
    """The demo test set and an n-best list for its first 16 sentences."""
    test_set = create_demo_test_set(team, owner)
    return test_set, make_nbest(
        test_set, demo_nbest_text(), name="demo 7-best", user=owner
    )


def single_run(
    test_set: TestSet, text: str, spec: str, options: OrangeOptions
) -> OrangeResult:
    """ORANGE of ``spec`` in one ``scoring.orange.orange_for_metric`` call, as the
    CLI does (NIST with the weights of every reference of the test set)."""
    lists = TextNBest.from_entries(iter_nbest(text.splitlines(), "nbest"))
    streams = test_set.reference_streams()
    references = [tuple(stream[i] for stream in streams) for i in lists.sentence_ids]
    metric = prepare_metrics([get_metric(spec)], list(zip(*streams)))[0]
    return orange_for_metric(
        metric, spec, lists.candidates, references, options,
        sentence_ids=lists.sentence_ids,
    )  # fmt: skip


def command_line_results(test_set, tmp_path, specs, *, with_documents=False):
    """``python -m scoring orange`` (in process) over the test set's reference
    files and the demo n-best list (curve step 2, 200 bootstrap samples, seed
    7); ``with_documents`` adds ``--docs`` with the test set's document ids."""
    nbest_path = tmp_path / "demo.nbest"
    nbest_path.write_text(demo_nbest_text(), encoding="utf-8")
    arguments = ["orange", "--nbest", str(nbest_path), "--refs"]
    for k, stream in enumerate(test_set.reference_streams()):
        path = tmp_path / f"reference.{k}"
        path.write_text("".join(line + "\n" for line in stream), encoding="utf-8")
        arguments.append(str(path))
    if with_documents:
        docs = tmp_path / "docs"
        _, documents = test_set.sources_and_document_ids()
        docs.write_text("".join(doc + "\n" for doc in documents), encoding="utf-8")
        arguments += ["--docs", str(docs)]
    for spec in specs:
        arguments += ["--metric", spec]
    arguments += ["--curve-step", "2", "--bootstrap", "200", "--seed", "7"]
    return run_orange(build_parser().parse_args(arguments))
