"""``server_metric``: the one builder of metrics that compute numbers.

The end-to-end check (every page, job and the CLI agree) is
``test_one_number_per_metric``; these are the builder's own rules, with a
small paraphrase table written here.
"""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from mtdash.common.server_metrics import server_metric
from scoring import MetricError, get_metric

# Made-up words: no stem or WordNet synonym matches them, only the table.
HYPOTHESES = ["the house is zorbly", "a flimp dog"]
REFERENCES = [["the house is quandish", "a sprock dog"]]


@pytest.fixture
def table(tmp_path) -> str:
    path = tmp_path / "paraphrase-en.gz"
    path.write_bytes(gzip.compress(b"0.5\nzorbly\nquandish\n0.5\nflimp\nsprock\n"))
    return str(path)


def test_english_meteor_takes_the_table_and_other_metrics_are_the_registrys(
    settings, table
):
    settings.MTDASH_METEOR_PARAPHRASE_TABLE = table
    assert server_metric("meteor") == get_metric(f"meteor:paraphrase={table}")
    assert server_metric("meteor:lang=fr,norm=false") == get_metric(
        "meteor:lang=fr,norm=false"
    )
    assert server_metric("chrf") == get_metric("chrf")


def test_without_the_file_meteor_runs_without_paraphrases(settings, tmp_path):
    settings.MTDASH_METEOR_PARAPHRASE_TABLE = str(tmp_path / "missing.gz")
    assert "para:off" in server_metric("meteor").signature()


def test_stored_statistics_are_read_by_the_metric_that_wrote_them(settings, table):
    """A score stored before the table was installed (para:off, fewer
    statistics columns) is recomputed as stored, not by today's METEOR."""
    plain = get_metric("meteor").score(HYPOTHESES, REFERENCES)
    settings.MTDASH_METEOR_PARAPHRASE_TABLE = table
    with_table = server_metric("meteor").score(HYPOTHESES, REFERENCES)
    assert with_table.score > plain.score  # zorbly~quandish, flimp~sprock
    assert plain.statistics.shape[1] < with_table.statistics.shape[1]

    for stored in (plain, with_table):
        rebuilt = server_metric("meteor", signature=stored.signature)
        assert len(rebuilt.statistics_names) == stored.statistics.shape[1]
        again = rebuilt.corpus_score_from_statistics(stored.statistics.sum(axis=0))
        assert again == pytest.approx(stored.score, rel=1e-12)


def test_a_signature_no_server_build_gives_is_refused(settings, table):
    settings.MTDASH_METEOR_PARAPHRASE_TABLE = ""
    written_with_a_table = get_metric(f"meteor:paraphrase={table}").signature(2)
    with pytest.raises(MetricError, match="not that of this server's meteor"):
        server_metric("meteor", signature=written_with_a_table)


def test_the_signatures_data_fields_do_not_decide(settings):
    """nrefs, chrF's reference order and the version describe the data and
    the release, not the configuration."""
    settings.MTDASH_METEOR_PARAPHRASE_TABLE = ""
    result = get_metric("chrf").score(["a b", "c"], [["a b", "c"], ["a", "c d"]])
    assert "|refs:" in result.signature
    signature = result.signature.replace("version:", "version:9")
    assert server_metric("chrf", signature=signature) == get_metric("chrf")
    statistics = np.asarray(result.statistics)
    assert server_metric("chrf", signature=signature).corpus_score_from_statistics(
        statistics.sum(axis=0)
    ) == pytest.approx(result.score, rel=1e-12)
