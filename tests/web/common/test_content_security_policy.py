"""Every response carries the strict Content-Security-Policy: pages, the
API, the login page, errors (issue 24 item 8)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import PASSWORD

PROJECT_ROOT = Path(__file__).resolve().parents[3]
EXPECTED = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "style-src-attr": "'unsafe-inline'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "frame-ancestors": "'none'",
    "form-action": "'self'",
}


def directives(response) -> dict[str, str]:
    header = response.headers.get("Content-Security-Policy", "")
    found = {}
    for part in header.split(";"):
        name, _, value = part.strip().partition(" ")
        if name:
            found[name] = value
    return found


def assert_strict(response) -> None:
    found = directives(response)
    for name, value in EXPECTED.items():
        assert found.get(name) == value, (name, found)
    # 'unsafe-inline' only for style attributes: never scripts or elements.
    for name, value in found.items():
        if name != "style-src-attr":
            assert "unsafe-inline" not in value, name
    assert "unsafe-eval" not in response.headers["Content-Security-Policy"]
    assert "style-src-elem" not in found  # style elements: style-src 'self'


@pytest.mark.django_db
def test_the_login_page_and_a_404_carry_the_policy(client):
    assert_strict(client.get("/accounts/login/"))
    assert_strict(client.get("/no-such-page/"))


@pytest.mark.django_db
def test_pages_of_a_logged_in_user_carry_the_policy(client, owner, test_set):
    client.login(username=owner.username, password=PASSWORD)
    for path in ("/", test_set.get_absolute_url(), "/test-sets/new/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert_strict(response)


@pytest.mark.django_db
def test_the_api_and_its_docs_carry_the_policy(client, owner):
    assert_strict(client.get("/api/v1/test-sets/"))
    assert_strict(client.get("/api/v1/schema"))
    docs = client.get("/api/v1/docs")
    assert docs.status_code == 200
    assert_strict(docs)


def test_templates_have_no_inline_script_handler_or_style():
    """What the policy would refuse, looked for where it would come from."""
    problems = []
    for path in sorted((PROJECT_ROOT / "templates").rglob("*.html")):
        text = path.read_text()
        for match in re.finditer(r"<script\b[^>]*>", text):
            tag = match.group(0)
            if "src=" not in tag and "application/json" not in tag:
                problems.append(f"{path.name}: inline {tag}")
        for pattern in (
            r"\son[a-z]+\s*=",
            r"\sstyle\s*=",
            r"javascript:",
            r"<style\b",
        ):
            for found in re.finditer(pattern, text):
                problems.append(f"{path.name}: {found.group(0).strip()}")
    assert problems == []


def test_plotly_style_sheet_is_the_vendored_bundles_rules():
    """Plotly's rules come from the linked file (the policy refuses the style
    element Plotly would write): the file must be that of the bundle the
    pages load, regenerated when the bundle changes."""
    import subprocess
    import sys

    snippet = (PROJECT_ROOT / "templates" / "_plotly.html").read_text()
    bundle = re.search(r"vendor/(plotly-basic-[\d.]+)\.min\.js", snippet).group(1)
    sheet = PROJECT_ROOT / "static" / "vendor" / f"{bundle}.css"
    assert f"vendor/{bundle}.css" in snippet
    assert 'id="plotly.js-style-global" class="no-inline-styles"' in snippet
    made = subprocess.run(
        [sys.executable, "bin/plotly_css.py", f"static/vendor/{bundle}.min.js"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert sheet.read_text() == made
    # The rules Plotly's own code relies on: the modebar's hover and the
    # notifier's position.
    assert ".js-plotly-plot .plotly .modebar" in made
    assert ".plotly-notifier {" in made
