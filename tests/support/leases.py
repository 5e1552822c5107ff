"""Short job leases for tests that kill workers or lose messages: a dead
worker's row may be taken over ``LEASE`` seconds after its last heartbeat,
a queued row ``GRACE`` seconds after it was queued. ``WORKER_ENV`` gives
the workers and beat a test starts the same; the autouse ``short_leases``
fixture gives them to this process (its sweeps and the web) in a test
module that imports it."""

from __future__ import annotations

import pytest

LEASE = 4
GRACE = 2
WORKER_ENV = {
    "MTDASH_JOB_LEASE_SECONDS": str(LEASE),
    "MTDASH_JOB_QUEUED_GRACE_SECONDS": str(GRACE),
}


@pytest.fixture(name="short_leases", autouse=True)
def short_leases_fixture(settings):
    settings.MTDASH_JOB_LEASE_SECONDS = LEASE
    settings.MTDASH_JOB_QUEUED_GRACE_SECONDS = GRACE
