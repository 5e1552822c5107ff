"""Warm a web process before it takes traffic (issue 24 item 6).

Django imports a view module, and everything it imports, on the first
request that resolves a URL, and compiles a template the first time it is
rendered. On a team server under load that first request took one process
past gunicorn's 30 s limit. :func:`warm_up` does that work once, when the
WSGI application is loaded (``mtdash/wsgi.py``): with gunicorn's
``preload_app`` (``mtdash/gunicorn_conf.py``) in the master before it
forks, so every worker starts warm and shares the pages of memory; without
it, in each worker before it accepts a connection.

It also builds the metrics the upload forms offer (METEOR reads WordNet).
It touches neither the database nor Redis (a connection opened in the
master would be shared by every forked worker), and the web needs neither
Numba nor the compiled kernels: the modules that call them look them up on
use (``tests/integration/test_web_warm_start.py`` checks).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.db import connections
from django.template import TemplateSyntaxError
from django.template.loader import get_template
from django.urls import URLResolver, get_resolver

from scoring import MetricError
from scoring.language_defaults import default_metric_specs

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class WarmUp:
    """What :func:`warm_up` loaded, and its wall time."""

    views: int
    templates: int
    metrics: int
    seconds: float


def warm_up() -> WarmUp:
    """Import every view of the URL configuration, build the resolver's
    reverse tables and compile the project's templates."""
    started = time.perf_counter()
    resolver = get_resolver()
    views = _load_views(resolver)
    resolver.reverse_dict  # noqa: B018 (builds the reverse lookup tables)
    templates = _compile_templates()
    metrics = _build_default_metrics()
    # Nothing above should have connected; if a module did, the workers must
    # not inherit the connection.
    connections.close_all()
    result = WarmUp(views, templates, metrics, time.perf_counter() - started)
    logger.info(
        "web warm-up: %d views, %d templates, %d metrics in %.2f s",
        result.views,
        result.templates,
        result.metrics,
        result.seconds,
    )
    return result


def _load_views(resolver: URLResolver) -> int:
    count = 0
    for pattern in resolver.url_patterns:  # imports each included URL module
        if isinstance(pattern, URLResolver):
            count += _load_views(pattern)
        else:
            pattern.callback  # noqa: B018 (a view named by a dotted path is imported here)
            count += 1
    return count


def _build_default_metrics() -> int:
    """The metrics the upload forms offer for English. Building METEOR reads
    WordNet (3-7 s; the first output form of each process took that long):
    once, in the master, shared by the workers."""
    try:
        return len(default_metric_specs("en"))
    except MetricError:
        logger.exception("web warm-up: the default metrics do not build")
        return 0


def _compile_templates() -> int:
    """The project's templates, into the cached loader (the admin's and
    Swagger's own are left to their first, rare use)."""
    count = 0
    for folder in settings.TEMPLATES[0]["DIRS"]:
        for path in sorted(Path(folder).rglob("*.html")):
            name = path.relative_to(folder).as_posix()
            try:
                get_template(name)
            except TemplateSyntaxError:
                # The page that uses it will show the error; start anyway.
                logger.exception("web warm-up: template %s does not compile", name)
                continue
            count += 1
    return count
