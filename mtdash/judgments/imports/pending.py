"""A judgments file between the browser's preview and its confirmation.

The uploaded bytes wait in the artifact storage (which every web process
sees) under a random token; the user's session holds the token with the
test set and the file name, so only the user who uploaded a file can see
its preview or import it. Confirming or cancelling deletes the file; a new
preview of the same test set in the same session replaces the previous one;
files left waiting longer than :data:`KEPT_FOR` (a preview abandoned, a
session expired) are deleted at the next upload.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.core.files.base import ContentFile
from django.utils import timezone

from mtdash.orange.artifact_storage import artifact_storage

_SESSION_KEY = "pending_judgments"
_FOLDER = "pending-judgments"
KEPT_FOR = timedelta(days=1)


@dataclass(frozen=True)
class PendingFile:
    token: str
    test_set_id: int
    file_name: str

    @property
    def storage_name(self) -> str:
        return f"{_FOLDER}/{self.token}"

    def read(self) -> bytes:
        with artifact_storage().open(self.storage_name, "rb") as handle:
            return handle.read()


def keep(session, test_set_id: int, file_name: str, data: bytes) -> PendingFile:
    """Keep ``data`` until it is confirmed or cancelled; replaces the
    session's earlier pending file of this test set."""
    previous = _entries(session).get(str(test_set_id))
    if previous:
        discard(session, find(session, test_set_id, previous["token"]))
    sweep()
    pending = PendingFile(secrets.token_urlsafe(18), test_set_id, file_name)
    artifact_storage().save(pending.storage_name, ContentFile(data))
    entries = _entries(session)
    entries[str(test_set_id)] = {"token": pending.token, "name": file_name}
    session[_SESSION_KEY] = entries
    return pending


def find(session, test_set_id: int, token: str) -> PendingFile | None:
    """The session's pending file of the test set with this token, if any."""
    entry = _entries(session).get(str(test_set_id))
    if not entry or not secrets.compare_digest(entry["token"], token):
        return None
    pending = PendingFile(entry["token"], test_set_id, entry["name"])
    if not artifact_storage().exists(pending.storage_name):
        return None
    return pending


def discard(session, pending: PendingFile | None) -> None:
    if pending is None:
        return
    artifact_storage().delete(pending.storage_name)
    entries = _entries(session)
    entries.pop(str(pending.test_set_id), None)
    session[_SESSION_KEY] = entries


def sweep(now=None) -> int:
    """Delete pending files older than :data:`KEPT_FOR`; how many."""
    storage = artifact_storage()
    if not storage.exists(_FOLDER):
        return 0
    oldest = (now or timezone.now()) - KEPT_FOR
    deleted = 0
    for name in storage.listdir(_FOLDER)[1]:
        path = f"{_FOLDER}/{name}"
        if storage.get_modified_time(path) < oldest:
            storage.delete(path)
            deleted += 1
    return deleted


def _entries(session) -> dict[str, dict[str, str]]:
    return dict(session.get(_SESSION_KEY, {}))
