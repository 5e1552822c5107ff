"""Every API error is ``{"errors": [{"file", "line", "message"}, ...]}``.

``file`` and ``line`` (1-based) name the uploaded file and line at fault, or
are null when the problem is not in a file (a missing field, a name taken).
Validation and upload problems answer 400; the other statuses keep DRF's
meaning (401 no or bad token, 404 not found or another team's, 409 conflict,
429 throttled) with the same body; a database outage answers 503 with
``Retry-After`` (:mod:`mtdash.api.outage`).

Views raise :class:`ApiError` (or let an ``UploadProblem`` escape); the
exception handler :func:`api_exception_handler` (``REST_FRAMEWORK``'s
``EXCEPTION_HANDLER``) writes the body for those and for DRF's own errors.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpResponse
from rest_framework import status
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.response import Response

from mtdash.api.outage import DATABASE_ERRORS, database_unavailable
from mtdash.common.upload_checks import UploadProblem


def error(message: str, file: str | None = None, line: int | None = None) -> dict:
    """One entry of the ``errors`` list."""
    return {"file": file, "line": line, "message": message}


def errors_response(
    errors: Iterable[dict], status_code: int = status.HTTP_400_BAD_REQUEST
) -> Response:
    return Response({"errors": list(errors)}, status=status_code)


def upload_problem_error(problem: UploadProblem) -> dict:
    return error(problem.problem, problem.file_name, problem.line)


class ApiError(APIException):
    """Raise to answer ``{"errors": errors}`` with ``status_code`` (400)."""

    def __init__(self, errors: Iterable[dict], status_code: int = 400):
        self.errors = list(errors)
        self.status_code = status_code
        super().__init__(detail="; ".join(e["message"] for e in self.errors))


def form_errors(
    form: forms.Form,
    *,
    file_names: Iterable[str] = (),
    field_names: Mapping[str, str] | None = None,
) -> list[dict]:
    """A bound form's errors in the API's shape.

    The upload forms report a file's problem as one text (``str`` of an
    ``UploadProblem``: "name, line 7: what" or "name: what"); it is split
    back into file, line and message for the uploaded ``file_names``.
    ``field_names`` maps the form's field names to the API's, so messages
    name the fields a client sent.
    """
    field_names = field_names or {}
    names = sorted(set(file_names), key=len, reverse=True)  # longest match first
    errors = []
    for field, messages in form.errors.items():
        for message in messages:
            if field == NON_FIELD_ERRORS:
                errors.append(_file_error(message, names))
            else:
                errors.append(error(f"{field_names.get(field, field)}: {message}"))
    return errors


def _file_error(message: str, file_names: list[str]) -> dict:
    for name in file_names:
        match = re.match(re.escape(name) + r", line (\d+): (.*)\Z", message, re.S)
        if match:
            return error(match[2], name, int(match[1]))
        if message.startswith(f"{name}: "):
            return error(message.removeprefix(f"{name}: "), name)
    return error(message)


def api_exception_handler(exc, context) -> HttpResponse | None:
    """DRF's handler, with every body rewritten as ``{"errors": [...]}``; a
    database outage answers 503 with ``Retry-After`` (:mod:`mtdash.api.outage`)."""
    # Imported here: rest_framework.views reads the API settings, which name
    # classes in modules that import this one (permissions).
    from rest_framework.views import exception_handler

    if isinstance(exc, DATABASE_ERRORS):
        return database_unavailable(context["request"], exc)
    if isinstance(exc, UploadProblem):
        return errors_response([upload_problem_error(exc)])
    if isinstance(exc, ApiError):
        return errors_response(exc.errors, exc.status_code)
    response = exception_handler(exc, context)
    if response is None:
        return None  # a server error: Django's 500 handling and logging
    if isinstance(exc, ValidationError):
        messages = list(_flatten(exc.detail))
    else:
        messages = [str(getattr(exc, "detail", exc))]
    response.data = {"errors": [error(message) for message in messages]}
    return response


def _flatten(detail, field: str | None = None):
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            name = key if field is None else f"{field}.{key}"
            yield from _flatten(value, None if key == "non_field_errors" else name)
    elif isinstance(detail, list):
        for item in detail:
            yield from _flatten(item, field)
    else:
        yield f"{field}: {detail}" if field else str(detail)
