"""The compare page stays fast on a 3,000-sentence test set.

The page tokenises only the 20 sentences it shows; the whole set's n-gram
tables take longer than a page may (tokenising 12,000 texts), so they are
fetched by their own request and cached: the second time they are a cache
hit. Times are printed (``pytest -s``) for the README.
"""

import random
import statistics
import time

import pytest
from django.core.cache import cache
from django.urls import reverse

from mtdash.evaluation.models import CorpusScore, MetricComparison, SegmentScore
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.django_db, pytest.mark.wall_clock]

N_SENTENCES = 3000
PAGE_TARGET_MS = 300.0
WORDS = [f"w{i}" for i in range(3000)] + ["the", "a", "of", ",", "."] * 40


def sentences(rng: random.Random) -> list[str]:
    return [
        " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 40))) + " ."
        for _ in range(N_SENTENCES)
    ]


@pytest.fixture
def big_pair(team, owner):
    rng = random.Random(7)
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="synthetic 3000",
            source_language="de",
            target_language="en",
            text_type="",
            description="",
            sources=sentences(rng),
            references={"A": sentences(rng), "B": sentences(rng)},
        ),
    )
    outputs = []
    for name in ("system-a", "system-b"):
        job = create_system_output(
            test_set, owner, name, sentences(rng), metrics=["bleu"], queue=False
        )
        output = job.output
        for metric in ("bleu", "ter", "chrf"):
            score = CorpusScore.objects.create(
                output=output, metric=metric, score=30.0, signature=f"{metric}|bench"
            )
            SegmentScore.objects.bulk_create(
                SegmentScore(corpus_score=score, index=i, score=rng.uniform(0, 100))
                for i in range(N_SENTENCES)
            )
        outputs.append(output)
    ids = [output.pk for output in outputs]
    for metric in ("bleu", "ter", "chrf"):
        MetricComparison.objects.create(
            test_set=test_set,
            column=metric,
            higher_is_better=metric != "ter",
            output_ids=ids,
            seed=12345,
            n_samples=1000,
            n_trials=10000,
            confidence=0.95,
            alpha=0.05,
            n_segments=N_SENTENCES,
            inputs="x",
            summary={str(pk): {"score": 30.0, "low": 29.0, "high": 31.0} for pk in ids},
            matrices={
                "bootstrap_p": [[None, 0.04], [0.04, None]],
                "bootstrap_wins": [[None, 0.6], [0.4, None]],
                "ar_p": [[None, 0.05], [0.05, None]],
            },
        )
    return test_set, outputs


def timed(client, url: str, times: int) -> list[float]:
    elapsed = []
    for _ in range(times):
        start = time.perf_counter()
        response = client.get(url)
        elapsed.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200
    return elapsed


def test_the_page_and_its_cached_ngram_tables_are_served_in_time(
    client, owner, big_pair
):
    test_set, (a, b) = big_pair
    client.login(username=owner.username, password=PASSWORD)
    cache.clear()
    page = reverse("compare_outputs", args=[test_set.pk]) + f"?a={a.pk}&b={b.pk}"
    ngrams = reverse("compare_ngrams", args=[test_set.pk]) + f"?a={a.pk}&b={b.pk}"
    client.get(page)  # warm-up: imports, template loading

    without_tables = timed(client, page + "&page=7", 5)
    first = timed(client, ngrams, 1)[0]  # tokenises the whole set
    cached = timed(client, ngrams, 5)
    with_tables = timed(client, page + "&order=a&page=3", 5)
    print(
        f"\ncompare page, {N_SENTENCES} sentences (median of 5): "
        f"{statistics.median(without_tables):.0f} ms before the n-gram tables "
        f"are cached, {statistics.median(with_tables):.0f} ms with them; "
        f"n-gram tables: first request {first:.0f} ms, "
        f"then {statistics.median(cached):.0f} ms"
    )
    assert statistics.median(without_tables) < PAGE_TARGET_MS
    assert statistics.median(with_tables) < PAGE_TARGET_MS
    assert statistics.median(cached) < PAGE_TARGET_MS
    # What made the cache necessary: the first computation is the slow one.
    assert first > statistics.median(cached)
