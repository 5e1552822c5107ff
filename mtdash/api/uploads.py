"""Receiving API uploads: streamed to temporary files on disk, capped, and
gzip-compressed n-best lists decompressed (with the same cap).

What the files contain is checked by the web forms' own code afterwards
(``mtdash.common.upload_checks`` through the upload forms).
"""

from __future__ import annotations

import gzip
import zlib

from django.conf import settings
from django.core.files.uploadedfile import TemporaryUploadedFile, UploadedFile
from django.core.files.uploadhandler import TemporaryFileUploadHandler

from mtdash.common.upload_checks import UploadProblem, check_size

GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 1024 * 1024


class CappedTemporaryFileUploadHandler(TemporaryFileUploadHandler):
    """Every file to a temporary file, never to memory; past
    ``MTDASH_MAX_UPLOAD_BYTES`` the bytes are counted but not written, so an
    oversized upload fills no disk and is refused with its real size."""

    def new_file(self, *args, **kwargs) -> None:
        super().new_file(*args, **kwargs)
        self._received = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        self._received += len(raw_data)
        if self._received <= settings.MTDASH_MAX_UPLOAD_BYTES:
            self.file.write(raw_data)


class StreamedUploadsMixin:
    """For an API view: multipart files go to disk through the capped handler."""

    def initialize_request(self, request, *args, **kwargs):
        request.upload_handlers = [CappedTemporaryFileUploadHandler(request)]
        return super().initialize_request(request, *args, **kwargs)


def gunzipped(uploaded: UploadedFile) -> UploadedFile:
    """``uploaded`` itself, or if gzip-compressed its decompressed content in a
    new temporary file (name without ``.gz``), refused past the upload limit.

    Decompression stops at the limit, so a small "zip bomb" cannot fill the
    disk or memory.
    """
    check_size(uploaded)
    uploaded.seek(0)
    if uploaded.read(2) != GZIP_MAGIC:
        uploaded.seek(0)
        return uploaded
    uploaded.seek(0)
    limit = settings.MTDASH_MAX_UPLOAD_BYTES
    name = uploaded.name.removesuffix(".gz") or uploaded.name
    out = TemporaryUploadedFile(name, "text/plain", 0, "utf-8")
    try:
        with gzip.GzipFile(fileobj=uploaded, mode="rb") as stream:
            while chunk := stream.read(_CHUNK):
                out.size += len(chunk)
                if out.size > limit:
                    raise UploadProblem(
                        uploaded.name,
                        None,
                        f"decompressed, the file is more than {limit:,} bytes; "
                        f"the limit is {limit:,}",
                    )
                out.write(chunk)
    except (OSError, EOFError, zlib.error) as problem:
        out.close()
        raise UploadProblem(
            uploaded.name, None, f"the gzip data cannot be decompressed ({problem})"
        ) from None
    except UploadProblem:
        out.close()
        raise
    out.seek(0)
    return out
