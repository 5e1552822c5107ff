"""Receiving API uploads: streamed to temporary files on disk, capped (an
n-best list has a handler of its own: ``mtdash.orange.nbest.upload_handlers``).

What the files contain is checked by the web forms' own code afterwards
(``mtdash.common.upload_checks`` through the upload forms).
"""

from __future__ import annotations

from django.conf import settings
from django.core.files.uploadhandler import TemporaryFileUploadHandler


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
