"""Static files as a browser gets them: pages link collectstatic's hashed
names, WhiteNoise answers them gzipped with a cache of a year or more, and
/favicon.ico answers at the site's root."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from mtdash.evaluation.services.scoring_jobs import run_scoring_job
from mtdash.evaluation.services.uploads import create_system_output
from tests.conftest import PASSWORD

ROOT = Path(__file__).resolve().parents[3]
YEAR = 365 * 24 * 3600

pytestmark = pytest.mark.django_db


@pytest.fixture
def system_page(client, owner, test_set) -> str:
    for name, hypotheses in {
        "good": ["the cat is on the mat", "it is raining", "hello everyone"],
        "poor": ["cat", "rain", "greetings"],
    }.items():
        job = create_system_output(test_set, owner, name, hypotheses, queue=False)
        run_scoring_job(job.pk)
    client.login(username=owner.username, password=PASSWORD)
    # A system's page: charts, so Plotly too.
    page = client.get(reverse("output_detail", args=[job.output_id]))
    assert page.status_code == 200
    return page.content.decode()


def body(response) -> bytes:
    return b"".join(response.streaming_content)


def max_age(response) -> int:
    match = re.search(r"max-age=(\d+)", response["Cache-Control"])
    assert match, response["Cache-Control"]
    return int(match.group(1))


def plotly_url() -> str:
    """Plotly's address as every page with charts links it."""
    html = render_to_string("_plotly.html")
    (url,) = re.findall(r'<script src="([^"]*/plotly-basic[^"]*)"', html)
    return url


def test_plotly_is_linked_by_a_hashed_name_and_served_gzipped_for_a_year(client):
    url = plotly_url()
    assert re.fullmatch(
        r"/static/vendor/plotly-basic-3\.3\.0\.min\.[0-9a-f]{12}\.js", url
    )

    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")

    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    assert max_age(response) >= YEAR
    assert "immutable" in response["Cache-Control"]
    compressed = body(response)
    original = next((ROOT / "static" / "vendor").glob("plotly-basic-*.min.js"))
    # 1.1 MB as written, about a third of that on the wire.
    assert len(compressed) < 0.4 * original.stat().st_size
    assert gzip.decompress(compressed) == original.read_bytes()


def test_a_client_that_takes_no_gzip_gets_the_file_as_it_is(client):
    response = client.get(plotly_url())
    assert response.status_code == 200
    assert "Content-Encoding" not in response
    original = next((ROOT / "static" / "vendor").glob("plotly-basic-*.min.js"))
    assert body(response) == original.read_bytes()


def test_every_stylesheet_and_script_of_a_page_has_a_hashed_name(system_page):
    links = re.findall(r'(?:href|src)="(/static/[^"]+)"', system_page)
    assert any(link.endswith(".css") for link in links)
    assert any(link.endswith(".js") for link in links)
    for link in links:
        assert re.search(r"\.[0-9a-f]{12}\.(css|js|svg)$", link), link


def test_the_favicon_answers_at_the_root_and_pages_link_it(client, system_page):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    icon = body(response)
    assert icon[:4] == b"\x00\x00\x01\x00"  # an ICO file
    assert icon == (ROOT / "static" / "root" / "favicon.ico").read_bytes()
    (svg,) = re.findall(
        r'<link rel="icon" href="([^"]+)" type="image/svg\+xml"', system_page
    )
    answer = client.get(svg)
    assert answer.status_code == 200
    assert answer["Content-Type"] == "image/svg+xml"
    assert b"<svg" in body(answer)
