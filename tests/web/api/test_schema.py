"""The OpenAPI schema is valid OpenAPI 3 and names every endpoint; the docs
page is served with its scripts from this server (no CDN)."""

from __future__ import annotations

import re

import pytest
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

ENDPOINTS = {
    "/api/v1/test-sets/": {"get", "post"},
    "/api/v1/test-sets/{id}": {"get"},
    "/api/v1/test-sets/{id}/outputs/": {"post"},
    "/api/v1/test-sets/{id}/leaderboard": {"get"},
    "/api/v1/test-sets/{id}/nbest/": {"post"},
    "/api/v1/nbest/{id}/orange/": {"post"},
    "/api/v1/orange/{id}": {"get"},
    "/api/v1/orange/{id}/retry": {"post"},
    "/api/v1/jobs/{id}": {"get"},
    "/api/v1/jobs/{id}/retry": {"post"},
    "/api/v1/test-sets/{id}/fill-missing": {"get", "post"},
    "/api/v1/outputs/{id}": {"patch", "delete"},
    "/api/v1/test-sets/{id}/error-spans/": {"get", "post"},
}


@pytest.fixture(scope="module")
def schema_and_warnings():
    GENERATOR_STATS.reset()
    with GENERATOR_STATS.silence():
        schema = SchemaGenerator().get_schema(request=None, public=True)
    warnings = list(GENERATOR_STATS._warn_cache) + list(GENERATOR_STATS._error_cache)
    return schema, warnings


def _paths(schema) -> dict[str, set[str]]:
    # drf-spectacular names path parameters after the URL's (pk -> id).
    return {
        re.sub(r"\{[^}]+\}", "{id}", path): set(operations) - {"parameters"}
        for path, operations in schema["paths"].items()
    }


def test_the_schema_is_valid_openapi_3(schema_and_warnings):
    schema, _ = schema_and_warnings
    validate_schema(schema)  # raises on an invalid document
    assert schema["openapi"].startswith("3.")


def test_the_schema_names_every_endpoint(schema_and_warnings):
    paths = _paths(schema_and_warnings[0])
    for path, methods in ENDPOINTS.items():
        assert methods <= paths.get(path, set()), path


def test_the_api_views_generate_without_warnings(schema_and_warnings):
    ours = [w for w in schema_and_warnings[1] if "mtdash/api/" in w]
    assert ours == []


def test_the_schema_documents_the_token_and_the_upload_fields(schema_and_warnings):
    schema = schema_and_warnings[0]
    scheme = schema["components"]["securitySchemes"]["tokenAuth"]
    assert scheme == {**scheme, "type": "apiKey", "name": "Authorization"}
    post = schema["paths"]["/api/v1/test-sets/"]["post"]
    fields = post["requestBody"]["content"]["multipart/form-data"]["schema"]["$ref"]
    request = schema["components"]["schemas"][fields.rsplit("/", 1)[1]]
    assert {"name", "source", "reference", "reference_label"} <= set(
        request["properties"]
    )


def test_the_schema_and_the_docs_are_served(client, db):
    # Open to anonymous users on purpose (README, API): they describe routes
    # and fields, never data; every data route asks for a token or a session.
    schema = client.get("/api/v1/schema")
    assert schema.status_code == 200 and b"openapi: 3" in schema.content
    assert client.get("/api/v1/test-sets/").status_code in (401, 403)
    docs = client.get("/api/v1/docs").content.decode()
    scripts = re.findall(r'src="([^"]+)"', docs)
    # Local files, and Swagger UI's start-up script from the docs route
    # itself (a file, not inline, for the Content-Security-Policy).
    local = ("/static/", "/api/v1/docs?script=")
    assert scripts and all(src.startswith(local) for src in scripts), scripts
    assert "/api/v1/docs?script=" in scripts
    assert "<script>" not in docs and "<style>" not in docs
    assert "cdn" not in docs.lower()
    for src in scripts:
        assert client.get(src).status_code == 200, src
