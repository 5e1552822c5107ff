"""A database outage answers every API request with JSON 503 and ``Retry-After``.

Without this, an ``OperationalError`` or ``InterfaceError`` (PostgreSQL down,
refusing connections or resetting one mid-query; SQLite's file gone, or
locked past its timeout) reached Django's 500 handling, and a script got the
HTML "Server Error" page: neither the API's error shape nor a hint to try
again later. Two places catch it, so that no path is missed:

- :func:`mtdash.api.errors.api_exception_handler`, for everything inside a
  DRF view: authentication (the token or session lookup is the first query of
  almost every request), permissions, throttling and the view itself;
- :func:`server_error`, the project's ``handler500``, for what fails outside a
  view (a middleware, e.g. the session saved after the response) and for any
  exception a DRF view lets through. Under ``/api/`` it answers 503 for a
  database outage and the API's JSON 500 for anything else; other paths keep
  Django's page.

The response is built without the database and without DRF's renderers
(the browsable API's page would query again for the user).
"""

from __future__ import annotations

import logging
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults

logger = logging.getLogger(__name__)

DATABASE_ERRORS = (OperationalError, InterfaceError)
# Long enough for a database restart or a fail-over, short enough that a
# script waiting it out loses little.
RETRY_AFTER_SECONDS = 30
API_PREFIX = "/api/"


def database_unavailable(request: HttpRequest, error: BaseException) -> JsonResponse:
    """The API's error body, status 503, ``Retry-After``; logs the cause
    (the client is told nothing about the database's address or driver)."""
    logger.error(
        "database unavailable for %s %s: %s: %s",
        request.method,
        request.path,
        type(error).__name__,
        error,
    )
    message = f"the database is unavailable; try again in {RETRY_AFTER_SECONDS} s"
    return JsonResponse(
        {"errors": [{"file": None, "line": None, "message": message}]},
        status=503,
        headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
    )


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: JSON under ``/api/`` (503 for a database outage),
    Django's own page elsewhere. Called while the exception is handled, so
    ``sys.exc_info()`` names it."""
    error = sys.exc_info()[1]
    if not request.path_info.startswith(API_PREFIX):
        return defaults.server_error(request)
    if isinstance(error, DATABASE_ERRORS):
        return database_unavailable(request, error)
    return JsonResponse(
        {"errors": [{"file": None, "line": None, "message": "server error"}]},
        status=500,
    )
