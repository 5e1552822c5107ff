"""The test client keeps only its own request's templates (see
tests/support/client_templates.py): a template another thread renders
while the request runs, as the browser tests' live server does, stays out
of the response."""

import threading

from django.template import Context, Template
from django.test import signals


def render_in_another_thread() -> None:
    thread = threading.Thread(
        target=lambda: Template("{{ form }}").render(Context({"form": "intruder"}))
    )
    thread.start()
    thread.join()


def test_a_render_in_another_thread_during_a_request_is_not_the_responses(client, db):
    rendered = []

    def when_the_page_renders(sender, **kwargs):
        # The first render is the page's own (this thread); the other
        # thread renders inside it, while the request is still running.
        if not rendered:
            rendered.append(sender)
            render_in_another_thread()

    signals.template_rendered.connect(when_the_page_renders)
    try:
        response = client.get("/accounts/login/")
    finally:
        signals.template_rendered.disconnect(when_the_page_renders)

    assert rendered, "the page rendered no template: the test checks nothing"
    assert response.status_code == 200
    assert response.context["form"] != "intruder"
    contexts = [context.get("form") for context in response.context]
    assert "intruder" not in contexts
    assert all(template.source != "{{ form }}" for template in response.templates)
