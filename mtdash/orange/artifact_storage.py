"""The storage that holds artifacts: Django's ``storages["artifacts"]``.

``STORAGES["artifacts"]`` (see ``mtdash.env.artifact_storage``) is a
directory (:class:`ArtifactFileSystemStorage` under ``MTDASH_ARTIFACT_DIR``)
or an S3-compatible bucket (django-storages' ``S3Storage``), so a team whose
workers run on several machines needs no shared folder. Everything here goes
through Django's storage API, so either backend works; the one exception is
:func:`read_range`, which asks S3 for just the bytes it needs.

Writes are whole-or-nothing on both: S3 shows an object only once its upload
completed, and :class:`ArtifactFileSystemStorage` writes a temporary file and
renames it over the name. Saving a name again replaces it (a chunk run twice
leaves one partial result).
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

from django.conf import settings
from django.core.files import File
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, Storage, storages
from django.utils.functional import cached_property

ALIAS = "artifacts"


def artifact_storage() -> Storage:
    """The configured backend (one instance per process, made on first use)."""
    return storages[ALIAS]


class ArtifactFileSystemStorage(FileSystemStorage):
    """``FileSystemStorage`` under ``MTDASH_ARTIFACT_DIR`` whose saves replace.

    Django's own writes in place, so a reader could see half a file and a
    crash could leave one, and it renames a name that is taken. Here a file
    is written beside its name under a temporary one and renamed over it:
    readers see the old file or the new one, and the name never changes.
    """

    @cached_property
    def base_location(self):
        return self._value_or_setting(self._location, settings.MTDASH_ARTIFACT_DIR)

    def _clear_cached_properties(self, setting, **kwargs):
        # Follow a changed MTDASH_ARTIFACT_DIR as Django follows MEDIA_ROOT.
        super()._clear_cached_properties(setting, **kwargs)
        if setting == "MTDASH_ARTIFACT_DIR":
            self.__dict__.pop("base_location", None)
            self.__dict__.pop("location", None)

    def get_available_name(self, name, max_length=None):
        return name  # replaced, never renamed

    def _save(self, name, content):
        path = Path(self.path(name))
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
        try:
            # Mode "xb" creates it 0o666 less the umask, as Django does, so
            # web server and workers running as different users can share it.
            with temporary.open("xb") as handle:
                for chunk in content.chunks():
                    handle.write(chunk)
            if self.file_permissions_mode is not None:
                os.chmod(temporary, self.file_permissions_mode)
            os.replace(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)
        return str(name).replace("\\", "/")


def save_file(name: str, content: File | bytes) -> None:
    """Store (or replace) ``name``; nothing is left of it if this fails."""
    if isinstance(content, bytes):
        content = ContentFile(content)
    saved = artifact_storage().save(name, content)
    if saved != name:
        # Readers find artifacts by the names the database holds.
        raise RuntimeError(
            f"the artifact storage stored {name!r} as {saved!r}; it must replace "
            "files under their name (S3Storage with file_overwrite=True)"
        )


def _s3_object(handle: File):
    """The boto3 ``Object`` behind django-storages' ``S3File``, else None."""
    return getattr(handle, "obj", None)


def read_bytes(name: str) -> bytes:
    """The whole of a (small) artifact; FileNotFoundError if it is missing.

    On S3 this is one GET: ``S3File`` downloads through s3transfer's thread
    pool, which costs more than the transfer of an index or a partial.
    """
    with artifact_storage().open(name, "rb") as handle:
        s3_object = _s3_object(handle)
        if s3_object is not None:
            return s3_object.get()["Body"].read()
        return handle.read()


def read_range(name: str, start: int, stop: int) -> bytes:
    """Bytes ``start`` ≤ b < ``stop`` of an artifact.

    On S3 this is one ranged GET: django-storages' ``S3File`` would download
    the whole object on the first read, and every chunk of a job would fetch
    the whole n-best list.
    """
    if stop <= start:
        return b""
    with artifact_storage().open(name, "rb") as handle:
        s3_object = _s3_object(handle)
        if s3_object is not None:
            response = s3_object.get(Range=f"bytes={start}-{stop - 1}")
            return response["Body"].read()
        handle.seek(start)
        return handle.read(stop - start)


def delete_tree(prefix: str) -> None:
    """Delete every artifact under ``prefix`` (or the one named so); a
    missing one is fine."""
    if not prefix.strip("/."):
        raise ValueError("refusing to delete every artifact")
    storage = artifact_storage()
    try:
        directories, files = storage.listdir(prefix)
    except NotADirectoryError:  # a file on the file system
        storage.delete(prefix)
        return
    except FileNotFoundError:
        return
    for directory in directories:
        delete_tree(f"{prefix}/{directory}")
    for file_name in files:
        storage.delete(f"{prefix}/{file_name}")
    try:
        # The now empty directory on the file system; on S3 the prefix or a
        # single object of that name.
        storage.delete(prefix)
    except OSError:
        pass  # a file written meanwhile; the next deletion takes it


def local_path(name: str) -> Path:
    """Where an artifact is on disk (file-system storage only: tests and
    operators); NotImplementedError on object storage."""
    return Path(artifact_storage().path(name))
