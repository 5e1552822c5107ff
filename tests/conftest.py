"""Shared test world: a team with an owner and a member, an outsider in
another team, a small test set; plus real Redis and Celery worker fixtures."""

from __future__ import annotations

import os

import pytest

from tests.support import (
    client_templates,
    data_selection,
    db_template,
    deferred_timed,
    flush_retry,
    import_shares,
    schedule,
    services,
    static_files,
    test_times,
    wall_clock,
)

PASSWORD = "correct horse battery staple"


def pytest_addoption(parser):
    deferred_timed.add_option(parser)
    test_times.add_option(parser)


def pytest_configure(config):
    flush_retry.install()
    client_templates.install()
    static_files.remember_scans()
    db_template.install()
    test_times.install(config)  # --record-times=<file> only


@pytest.hookimpl(tryfirst=True)
def pytest_collection(session):
    import_shares.import_share(session.config)  # parallel runs only


@pytest.hookimpl(trylast=True)  # after pytest-django's own sort
def pytest_collection_modifyitems(config, items):
    data_selection.select(config, items)  # MTDASH_ONLY_DATA_TESTS=1 only
    deferred_timed.defer(config, items)  # --defer-timed=<file> only
    workers = getattr(config, "workerinput", {}).get("workercount", 0)
    items[:] = schedule.arrange(items, workers, schedule.module_seconds())


_run_lock: wall_clock.RunLock | None = None


@pytest.fixture(scope="session", autouse=True)
def wall_clock_run_lock(tmp_path_factory):
    """The lock that lets ``wall_clock`` tests run alone (see
    tests/support/wall_clock.py), shared by this run's processes."""
    global _run_lock
    _run_lock = wall_clock.RunLock(
        wall_clock.run_folder(tmp_path_factory.getbasetemp())
    )
    # Its files stay open until the process ends: this teardown runs inside
    # the last test's teardown, which holds the lock.
    return _run_lock


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    if _run_lock is None:
        return (yield)
    alone = item.get_closest_marker(wall_clock.MARKER) is not None
    with _run_lock.held(alone=alone):
        return (yield)


# Set-up and teardown (building data, starting workers, browsers, servers)
# take the shared lock too, so none runs beside a timed test's call.
@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    if _run_lock is None:
        return (yield)
    with _run_lock.held(alone=False):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    if _run_lock is None:
        return (yield)
    with _run_lock.held(alone=False):
        return (yield)


@pytest.fixture(scope="session", autouse=True)
def collected_static():
    """Pages link collectstatic's hashed names, as on every server: the
    session runs on a collected folder (made once per state of static/)."""
    from django.conf import settings
    from django.test import override_settings

    from tests.support.static_files import collected_static_root

    root = collected_static_root(settings.DATA_DIR / "test-static")
    with override_settings(STATIC_ROOT=str(root)):
        yield root


@pytest.fixture(scope="session")
def live_server(request, collected_static):
    """pytest-django's live server, with its static files served by WhiteNoise
    as gunicorn serves them (Django's test handler would look the hashed
    names up in static/, where they are not)."""
    from pytest_django.live_server_helper import LiveServer

    address = (
        request.config.getvalue("liveserver")
        or os.getenv("DJANGO_LIVE_TEST_SERVER_ADDRESS")
        or "localhost"
    )
    server = LiveServer(address, start=False)
    server.thread.static_handler = lambda application: application
    server.start()
    yield server
    server.stop()


@pytest.fixture
def fast_password_hashing(settings):
    # The real hasher is slow on purpose; tests log in hundreds of times.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def team(db):
    from mtdash.teams.models import Team

    return Team.objects.create(name="Alpha lab")


@pytest.fixture
def owner(django_user_model, team, fast_password_hashing):
    from mtdash.teams.models import Membership

    user = django_user_model.objects.create_user("alice", password=PASSWORD)
    Membership.objects.create(team=team, user=user, role=Membership.Role.OWNER)
    return user


@pytest.fixture
def member(django_user_model, team, fast_password_hashing):
    from mtdash.teams.models import Membership

    user = django_user_model.objects.create_user("bob", password=PASSWORD)
    Membership.objects.create(team=team, user=user)
    return user


@pytest.fixture
def outsider(django_user_model, db, fast_password_hashing):
    from mtdash.teams.models import Membership, Team

    user = django_user_model.objects.create_user("mallory", password=PASSWORD)
    Membership.objects.create(team=Team.objects.create(name="Other lab"), user=user)
    return user


@pytest.fixture
def test_set(team, owner):
    from mtdash.evaluation.services.uploads import TestSetData, create_test_set

    data = TestSetData(
        name="toy fr-en",
        source_language="fr",
        target_language="en",
        text_type="news",
        description="",
        sources=["le chat est sur le tapis", "il pleut", "bonjour à tous"],
        references={
            "A": ["the cat is on the mat", "it is raining", "hello everyone"],
            "B": ["there is a cat on the mat", "it rains", "hello all"],
        },
    )
    return create_test_set(team, owner, data)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    process, url = services.start_redis(tmp_path_factory.mktemp("redis"))
    yield url
    services.stop(process)


@pytest.fixture(scope="session")
def celery_worker_process(
    django_db_setup, django_db_blocker, redis_url, tmp_path_factory
):
    """A real worker process on the test database, and this process's Celery
    app pointed at the same Redis so uploads here reach that worker."""
    from django.db import connection

    from mtdash.celery import app

    app.conf.broker_url = redis_url
    if app._pool is not None:  # drop connections made with another broker URL
        app._pool.force_close_all()
        app._pool = None
    # ... and the producers bound to them: a test that sent a task before this
    # worker started (to the default URL) would otherwise make every later
    # send go to that broker, where no worker listens.
    app.amqp._producer_pool = None
    with django_db_blocker.unblock():
        db_url = services.database_url(connection.settings_dict)
    log_path = tmp_path_factory.mktemp("worker") / "worker.log"
    process = services.start_worker(redis_url, db_url, log_path)
    yield process
    services.stop(process)
