"""The test client's ``response.context`` and ``response.templates``, from
the request's own thread only.

Django's test client records templates through the ``template_rendered``
signal, which is process-wide: while a request runs, every template
rendered in the process lands in its response, whichever thread rendered
it. The live server of the browser tests is a thread of the same process
and outlives them; a page left open in Chromium polls it, and after the
test's rows are flushed those polls render the login page. A test client
request that overlapped one read the login form (unbound, no errors) as its
own response's ``context["form"]`` (CI, PostgreSQL stage: "assert {} ==
{'__all__': [...]}" on an upload form that had its error).
"""

from __future__ import annotations

import functools
import threading

from django.test import client

_requesting = threading.local()


def install() -> None:
    """Wrap ``Client.request`` to mark its thread, and the client's signal
    receiver to ignore renders from unmarked threads (once per process)."""
    record = client.store_rendered_templates
    if getattr(record, "request_thread_only", False):
        return

    def record_from_request_thread(store, signal, sender, template, context, **kw):
        if getattr(_requesting, "depth", 0):
            record(store, signal, sender, template, context, **kw)

    record_from_request_thread.request_thread_only = True
    client.store_rendered_templates = record_from_request_thread

    request = client.Client.request

    @functools.wraps(request)
    def marked_request(self, **kwargs):
        _requesting.depth = getattr(_requesting, "depth", 0) + 1
        try:
            return request(self, **kwargs)
        finally:
            _requesting.depth -= 1

    client.Client.request = marked_request
