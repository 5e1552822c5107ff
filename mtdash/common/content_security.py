"""The Content-Security-Policy header on every response.

The pages run no inline script and carry no inline event handler or style
attribute: every script and style sheet is a file under ``/static/`` (Plotly
included, vendored), and figures travel as JSON data blocks
(``json_script``), which a policy does not treat as script. So the policy is
strict: only this origin's files, no plugins, no framing, forms post only
here. A script injected into a page (a name that escaped escaping) would not
run. Plotly styles its charts mostly through the CSS object model
(``element.style``), which ``style-src`` does not govern, but sets a few
style attributes too: ``style-src-attr`` allows attributes (never style
elements, never script); images may be ``data:`` URLs (Plotly's and the
API docs' icons). Django 5.2 has no policy of its own (6.0 will) and
django-csp would be a dependency for one header.

A view that needs another policy sets the header itself; it is kept.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

DIRECTIVES = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    # Style attributes only (style elements stay refused): Plotly sets some
    # with setAttribute (the compare page's chart after a window resize was
    # refused), and an attribute's CSS cannot run script.
    "style-src-attr": "'unsafe-inline'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
}
POLICY = "; ".join(f"{name} {value}" for name, value in DIRECTIVES.items())
HEADER = "Content-Security-Policy"


class ContentSecurityPolicyMiddleware:
    """Adds :data:`POLICY` to every response that has no policy yet."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response.headers:
            response.headers[HEADER] = POLICY
        return response
