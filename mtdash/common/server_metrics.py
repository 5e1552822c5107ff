"""The one way to build a metric that computes numbers on this server.

A stored spec (``meteor``, ``bleu:n=2``) never names a file on the server: a
user may not (:mod:`mtdash.common.metric_specs`), so the server adds its own
resources. Today that is English METEOR's paraphrase table
(``MTDASH_METEOR_PARAPHRASE_TABLE``): with it METEOR is METEOR 1.5, without
it another metric (``para:off``) with other statistics columns. Every path
that turns stored specs or stored statistics into numbers (scoring jobs, the
comparison job, system analyses, reference diagnostics, ORANGE chunks and
reviews) builds its metric here, so a column shows one number everywhere.

Pages that only read a class property (``higher_is_better``, ``scale``) may
call ``scoring.get_metric`` directly: the property does not depend on the
resources, and loading the paraphrase table costs a process about 20 s and
1.6 GB, which a web request should not pay.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from django.conf import settings

from scoring import Metric, MetricError, get_metric

_RESOURCES = threading.Lock()


def preload_meteor() -> float:
    """Load English METEOR with the server's resources (WordNet, the
    paraphrase table) and the compiled kernels' index of the table into this
    process; the seconds it took (almost none once loaded)."""
    from scoring.analysis.fast_scoring import score_output

    started = time.perf_counter()
    metric = server_metric("meteor:lang=en")
    score_output(metric, ["ready ."], [["ready ."]])  # builds the kernels' index
    return time.perf_counter() - started


def server_metric(spec: str, *, signature: str | None = None) -> Metric:
    """The metric of ``spec`` with the server's resources.

    English METEOR takes ``MTDASH_METEOR_PARAPHRASE_TABLE`` when the file is
    there. Give the stored ``signature`` when the metric is to read stored
    statistics: a score stored before the table was installed (``para:off``)
    has other columns, so the metric that wrote it is rebuilt, and a
    signature no build of ``spec`` on this server gives raises
    :class:`MetricError` rather than yield a number of another metric. The
    fields that describe the data or the release (``nrefs``, chrF's
    reference order ``refs``, ``version``) are not compared: the
    configuration is what decides the statistics.
    """
    plain = get_metric(spec)
    candidates = [plain]
    table = settings.MTDASH_METEOR_PARAPHRASE_TABLE
    if getattr(plain, "lang", None) == "en" and table and Path(table).is_file():
        # Loaded once per process (cached); a worker's preload may be at it
        # now (mtdash.common.worker_resources): wait for it, not load twice.
        with _RESOURCES:
            candidates.insert(0, get_metric(spec, defaults={"paraphrase": table}))
    if signature is None:
        return candidates[0]
    wanted = _configuration(signature)
    for metric in candidates:
        if _configuration(metric.signature()) == wanted:
            return metric
    raise MetricError(
        f"{spec}: the stored scores' signature {signature!r} is not that of this "
        f"server's {spec} ({candidates[0].signature()!r})"
    )


def _configuration(signature: str) -> tuple[str, ...]:
    """The fields of a signature that describe the metric's configuration."""
    return tuple(
        field
        for field in signature.split("|")
        if not field.startswith(("nrefs:", "refs:", "version:"))
    )
