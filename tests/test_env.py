import pytest
from django.core.exceptions import ImproperlyConfigured

from mtdash import env


@pytest.mark.parametrize(
    "raw, expected", [("true", True), ("No", False), ("1", True), ("off", False)]
)
def test_it_parses_booleans(monkeypatch, raw, expected):
    monkeypatch.setenv("MTDASH_X", raw)
    assert env.env_bool("MTDASH_X", not expected) is expected


@pytest.mark.parametrize("raw", ["Flase", "2", "enabled"])
def test_it_refuses_a_boolean_it_cannot_read(monkeypatch, raw):
    monkeypatch.setenv("MTDASH_X", raw)
    with pytest.raises(ImproperlyConfigured, match="MTDASH_X"):
        env.env_bool("MTDASH_X", False)


def test_it_refuses_a_number_below_the_minimum(monkeypatch):
    monkeypatch.setenv("MTDASH_N", "0")
    with pytest.raises(ImproperlyConfigured, match="at least 1"):
        env.env_int("MTDASH_N", 5, minimum=1)


def test_it_refuses_a_non_number(monkeypatch):
    monkeypatch.setenv("MTDASH_N", "12MB")
    with pytest.raises(ImproperlyConfigured, match="not a whole number"):
        env.env_int("MTDASH_N", 5)


def test_it_splits_lists(monkeypatch):
    monkeypatch.setenv("MTDASH_L", " a.example, ,b.example ")
    assert env.env_list("MTDASH_L", []) == ["a.example", "b.example"]


def test_it_creates_a_private_secret_key_once(monkeypatch, tmp_path):
    monkeypatch.delenv("MTDASH_SECRET_KEY", raising=False)
    key_file = tmp_path / "secret_key"
    first = env.secret_key("MTDASH_SECRET_KEY", key_file)
    assert len(first) >= 50
    assert key_file.stat().st_mode & 0o777 == 0o600
    assert env.secret_key("MTDASH_SECRET_KEY", key_file) == first


def test_it_refuses_a_short_secret_key(monkeypatch, tmp_path):
    monkeypatch.setenv("MTDASH_SECRET_KEY", "short")
    with pytest.raises(ImproperlyConfigured, match="32 characters"):
        env.secret_key("MTDASH_SECRET_KEY", tmp_path / "k")


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("", None),
        ("X-Forwarded-Proto", ("HTTP_X_FORWARDED_PROTO", "https")),
        ("x-forwarded-proto: https", ("HTTP_X_FORWARDED_PROTO", "https")),
        ("X-Scheme:HTTPS", ("HTTP_X_SCHEME", "HTTPS")),
    ],
)
def test_it_reads_the_proxy_header_as_django_wants_it(monkeypatch, raw, expected):
    monkeypatch.setenv("MTDASH_X", raw)
    assert env.env_proxy_header("MTDASH_X") == expected


@pytest.mark.parametrize(
    "raw", ["X Forwarded Proto", "X-Forwarded-Proto:", "X_Forwarded", "-X", "a: b c"]
)
def test_it_refuses_a_proxy_header_it_cannot_read(monkeypatch, raw):
    monkeypatch.setenv("MTDASH_X", raw)
    with pytest.raises(ImproperlyConfigured, match="MTDASH_X"):
        env.env_proxy_header("MTDASH_X")
