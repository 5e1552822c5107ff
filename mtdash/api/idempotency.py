"""``Idempotency-Key``: a retried request gets the first response back.

A view validates first, then hands what creates objects to :func:`once`:
the key's row is inserted in the same transaction as the objects and holds
the response, so

- a retry with the same key and the same request replays that response
  (same ids, nothing created twice);
- the same key with a different request (another endpoint, other fields or
  file contents) is refused with 422;
- of two concurrent requests with one key, the second waits on the unique
  constraint (PostgreSQL) or the write lock (SQLite) until the first
  commits, then replays its response.

A request without the header simply runs. Only responses the creating code
returns are kept; an exception rolls the row back with everything else.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from django.db import IntegrityError, transaction
from rest_framework.request import Request
from rest_framework.response import Response

from mtdash.api.errors import ApiError, error
from mtdash.api.models import IdempotentRequest

HEADER = "Idempotency-Key"
MAX_KEY_LENGTH = IdempotentRequest._meta.get_field("key").max_length


def idempotency_key(request: Request) -> str | None:
    key = request.headers.get(HEADER, "").strip()
    if len(key) > MAX_KEY_LENGTH:
        raise ApiError([error(f"{HEADER}: at most {MAX_KEY_LENGTH} characters")])
    return key or None


def replay(request: Request) -> Response | None:
    """The stored response for this request's key, if there is one."""
    key = idempotency_key(request)
    if key is None:
        return None
    stored = IdempotentRequest.objects.filter(user=request.user, key=key).first()
    return _replayed(request, stored) if stored else None


def refuse(request: Request, errors: list[dict]) -> Response:
    """Raise the validation ``errors`` (400), unless a concurrent request with
    the same key has stored its response since :func:`replay` looked: its
    objects are what made this copy invalid ("name taken"), and a retry must
    get the first result, which is returned."""
    replayed = replay(request)
    if replayed is None:
        raise ApiError(errors)
    return replayed


def once(request: Request, create: Callable[[], Response]) -> Response:
    """``create()`` in a transaction, its response stored under the request's key."""
    key = idempotency_key(request)
    if key is None:
        return create()
    fingerprint = request_fingerprint(request)
    try:
        with transaction.atomic():
            stored = IdempotentRequest.objects.create(
                user=request.user,
                key=key,
                endpoint=_endpoint(request),
                fingerprint=fingerprint,
                status_code=0,
                body={},
            )
            response = create()
            stored.status_code = response.status_code
            stored.body = response.data
            stored.save(update_fields=["status_code", "body"])
            return response
    except IntegrityError:
        first = IdempotentRequest.objects.filter(user=request.user, key=key).first()
        if first is None:
            raise
        return _replayed(request, first)


def _replayed(request: Request, stored: IdempotentRequest) -> Response:
    if stored.endpoint != _endpoint(
        request
    ) or stored.fingerprint != request_fingerprint(request):
        raise ApiError(
            [
                error(
                    f"{HEADER}: this key was used for a different request "
                    f"({stored.endpoint}); use a new key for a new request"
                )
            ],
            status_code=422,
        )
    response = Response(stored.body, status=stored.status_code)
    response["Idempotent-Replayed"] = "true"
    return response


def _endpoint(request: Request) -> str:
    return f"{request.method} {request.path}"[:300]


def request_fingerprint(request: Request) -> str:
    """SHA-256 over the fields and the files' names and contents.

    Not over the raw body: a client retrying a multipart upload picks a new
    boundary, which must not make the same request look different.
    """
    cached = getattr(request, "_idempotency_fingerprint", None)
    if cached:
        return cached
    digest = hashlib.sha256()
    data = request.data
    if hasattr(data, "lists"):  # a QueryDict (form or multipart)
        fields = {k: v for k, v in data.lists() if k not in request.FILES}
    else:
        fields = data
    digest.update(json.dumps(fields, sort_keys=True, default=str).encode())
    for name in sorted(request.FILES):
        for uploaded in request.FILES.getlist(name):
            digest.update(f"\0{name}\0{uploaded.name}\0".encode())
            for chunk in uploaded.chunks():
                digest.update(chunk)
            uploaded.seek(0)
    request._idempotency_fingerprint = digest.hexdigest()
    return request._idempotency_fingerprint
