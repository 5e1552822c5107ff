"""Login throttling with django-axes: the authentication backend and the
client address failed logins are counted against.

Settings (``mtdash/settings.py``): ``AXES_FAILURE_LIMIT`` failures for one
username from one address lock that pair (axes' ``AXES_LOCKOUT_PARAMETERS``),
and ``MTDASH_LOGIN_ADDRESS_FAILURE_LIMIT`` failures from one address, over
every username, lock the address (this module: axes has one limit for every
parameter, and an address shared by an office needs a higher one), each for
``AXES_COOLOFF_TIME``; a successful login clears its pair's count. A lock
per username alone would let anyone lock a named user out. Behind
``MTDASH_PROXY_COUNT`` trusted reverse proxies the address is read from
``X-Forwarded-For`` (the entry the outermost trusted proxy wrote), otherwise
from the connection, so a client cannot choose its own address.
"""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest
from django.shortcuts import render
from django.utils import timezone


class LoginThrottleBackend(AxesStandaloneBackend):
    """Axes' check before the password backend, for requests only.

    Every login over HTTP (the login page, the admin) passes its request and
    is throttled. ``authenticate()`` without a request is not a web login (a
    management command, the test client's ``login()``): there is no address
    to count, so this backend steps aside instead of raising.
    """

    def authenticate(self, request: HttpRequest | None, *args, **kwargs):
        if request is None:
            return None
        super().authenticate(request, *args, **kwargs)  # the pair's lock
        if address_failures(request) >= settings.MTDASH_LOGIN_ADDRESS_FAILURE_LIMIT:
            # Axes' middleware answers a request so flagged with the lockout
            # page, as for the pair.
            request.axes_locked_out = True
            raise AxesBackendPermissionDenied(
                "too many failed logins from this address"
            )
        return None


def address_failures(request: HttpRequest) -> int:
    """Failed logins from the request's address within the cool-off, whatever
    the username (axes keeps one row per username, address and user agent)."""
    since = timezone.now() - settings.AXES_COOLOFF_TIME
    rows = AccessAttempt.objects.filter(
        ip_address=request.axes_ip_address, attempt_time__gte=since
    )
    return rows.aggregate(total=Sum("failures_since_start"))["total"] or 0


def client_ip(request: HttpRequest) -> str | None:
    """The address of the client, as far as trusted proxies tell it.

    With ``MTDASH_PROXY_COUNT`` = N > 0, the N-th ``X-Forwarded-For`` entry
    from the right (each proxy appends the address it saw); entries further
    left were written by the client and are ignored. Without proxies, or
    when the header is shorter than that, the connection's address.
    """
    remote = request.META.get("REMOTE_ADDR")
    count = settings.MTDASH_PROXY_COUNT
    if count <= 0:
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    entries = [entry.strip() for entry in forwarded.split(",") if entry.strip()]
    return entries[-count] if len(entries) >= count else remote


def lockout_response(request: HttpRequest, original_response=None, credentials=None):
    """The page a locked-out login gets: HTTP 429, saying how long to wait."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "address_failure_limit": settings.MTDASH_LOGIN_ADDRESS_FAILURE_LIMIT,
        "cooloff_minutes": minutes,
    }
    return render(request, "registration/locked_out.html", context, status=429)
