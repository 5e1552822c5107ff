"""Receiving an n-best list: gzip-compressed on the fly, capped, on disk.

An n-best list may be a gigabyte. :class:`NBestUploadHandler` writes each
uploaded file to a temporary file as it arrives, never to memory: a gzip
file as sent, anything else compressed (gzip, level 1: fast, and a third of
the text's size) while it is written. What arrives past
``MTDASH_MAX_NBEST_BYTES`` is counted but not written, so an oversized file
fills no disk and is refused with its real size. The content is checked
later, by a worker (``services.nbest_validation``).

The handler must be installed before anything reads ``request.POST``: the
view is CSRF-exempt and checks the token itself afterwards (Django's recipe).
"""

from __future__ import annotations

import zlib

from django.conf import settings
from django.core.files.uploadedfile import TemporaryUploadedFile, UploadedFile
from django.core.files.uploadhandler import FileUploadHandler

GZIP_MAGIC = b"\x1f\x8b"
# Level 1 compresses text at roughly 100 MB/s, faster than most uploads arrive.
COMPRESS_LEVEL = 1


class ReceivedNBest(TemporaryUploadedFile):
    """A received file, stored gzip-compressed.

    ``size`` is what was sent (bytes); ``sent_compressed`` whether it came
    as gzip; ``over_limit`` whether more than ``MTDASH_MAX_NBEST_BYTES``
    arrived (then the stored bytes are incomplete and must not be used).
    """

    sent_compressed: bool = False
    over_limit: bool = False


class NBestUploadHandler(FileUploadHandler):
    """Every file of the request to a gzip-compressed temporary file."""

    def new_file(self, *args, **kwargs) -> None:
        super().new_file(*args, **kwargs)
        self.file = ReceivedNBest(
            self.file_name, self.content_type, 0, self.charset, self.content_type_extra
        )
        self._received = 0
        self._compressor = None
        self._first = True

    def receive_data_chunk(self, raw_data: bytes, start: int) -> None:
        if self._first:
            self._first = False
            # Two bytes are enough: the first chunk is 64 KiB unless the file
            # is smaller (then it is the whole file).
            self.file.sent_compressed = raw_data[:2] == GZIP_MAGIC
            if not self.file.sent_compressed:
                self._compressor = zlib.compressobj(
                    COMPRESS_LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS
                )
        self._received += len(raw_data)
        if self._received > settings.MTDASH_MAX_NBEST_BYTES:
            self.file.over_limit = True
            return None
        if self._compressor is not None:
            raw_data = self._compressor.compress(raw_data)
        self.file.write(raw_data)
        return None

    def file_complete(self, file_size: int) -> ReceivedNBest:
        if self._first:  # an empty file: an empty gzip stream, for the check
            self._compressor = zlib.compressobj(
                COMPRESS_LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS
            )
        if self._compressor is not None and not self.file.over_limit:
            self.file.write(self._compressor.flush())
        self.file.seek(0)
        self.file.size = file_size
        return self.file


def as_received(uploaded: UploadedFile) -> ReceivedNBest:
    """``uploaded`` itself if this handler received it, else a copy made the
    same way (a request handled without it, a file built in a test)."""
    if isinstance(uploaded, ReceivedNBest):
        return uploaded
    handler = NBestUploadHandler()
    handler.new_file("nbest_file", uploaded.name, uploaded.content_type, None)
    size = 0
    for chunk in uploaded.chunks():
        handler.receive_data_chunk(chunk, size)
        size += len(chunk)
    return handler.file_complete(size)
