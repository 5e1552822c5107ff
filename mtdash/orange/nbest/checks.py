"""Checking a Moses n-best file as a stream, with the request's messages.

An n-best list may be a gigabyte, so the worker that checks it never holds it
whole: it decodes blocks of complete lines (:data:`BLOCK_BYTES`), checks each
line and parses it with ``scoring.orange.iter_nbest``, and hands on one
sentence's candidates at a time. The messages are those of the whole-file
checks the upload form used to run (``mtdash.common.upload_checks.
read_segments`` then :func:`~mtdash.orange.nbest.uploads.
parse_nbest_upload`), word for word and in the same order of precedence:

1. what the file is, if plainly not UTF-8 text (its first bytes); 0 bytes;
2. invalid UTF-8 anywhere (the first bad byte);
3. a file of blank lines only;
4. a bare carriage return, a NUL or an over-long line (the first such line);
5. the first Moses field problem or sentence id outside the test set.

A later class beats an earlier line, so the stream is read to its end before
a problem of class 3–5 is raised (a bad byte on the last line is still
reported first, as the whole-file check did).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from mtdash.common.upload_checks import UploadProblem, max_segment_chars
from scoring import InputFileError, decode_text_file
from scoring.orange import NBestEntry, iter_nbest

# Bytes read at a time; blocks are cut after their last "\n".
BLOCK_BYTES = 8 * 1024 * 1024
# What scoring.textfiles.non_utf8_file reads of a file's start.
HEAD_BYTES = 4096


class _CheckedLines:
    """The decoded lines of a stream, checked one by one (classes 1–4).

    Iterating yields lines (without their end) until a line problem is found;
    :meth:`drain` then reads the rest, since a bad byte later in the file
    is reported before it. ``read`` returns at most ``size`` bytes, b"" at
    the end.
    """

    def __init__(self, read: Callable[[int], bytes], file_name: str):
        self.read = read
        self.file_name = file_name
        self.limit = max_segment_chars()
        self.n_lines = 0
        self.has_text = False
        self.line_problem: UploadProblem | None = None
        # A problem of class 1 or 2, raised at once (never one of the parser's).
        self.fatal: UploadProblem | None = None
        self._lines = self._checked_lines()

    def __iter__(self) -> Iterator[str]:
        return self._lines

    def drain(self) -> None:
        """Read to the end: decode errors, blank-only files and the first
        line problem are known only then."""
        for _ in self._lines:
            pass

    def _checked_lines(self) -> Iterator[str]:
        """Every line is counted and checked; lines are yielded only until
        the first line problem (the parser has nothing to say after it)."""
        try:
            for lines in self._decoded_blocks():
                for line in lines:
                    self.n_lines += 1
                    if not self.has_text and line.strip():
                        self.has_text = True
                    if self.line_problem is None:
                        self._check(self.n_lines, line)
                        if self.line_problem is None:
                            yield line
        except UploadProblem as problem:
            self.fatal = problem
            raise

    def _check(self, number: int, line: str) -> None:
        if "\r" in line:
            problem = "contains a bare carriage return (old Mac line end?)"
        elif "\x00" in line:
            problem = f"contains a NUL character (character {line.index(chr(0)) + 1})"
        elif len(line) > self.limit:
            problem = (
                f"the line is {len(line):,} characters long; a segment may have "
                f"at most {self.limit:,} (one segment per line: are line ends "
                "missing?)"
            )
        else:
            return
        self.line_problem = UploadProblem(self.file_name, number, problem)

    def _decoded_blocks(self) -> Iterator[list[str]]:
        lines_before = 0
        # A bytearray: a long line arriving in many reads is appended to in place.
        first, pending = True, bytearray()
        data = self._read_head()
        self._check_start(data)
        while True:
            if data:
                cut = data.rfind(b"\n")
                if cut < 0:
                    pending += data
                    data = self.read(BLOCK_BYTES)
                    continue
                block = bytes(pending + data[: cut + 1])
                pending = bytearray(data[cut + 1 :])
            else:
                block, pending = bytes(pending), bytearray()
            if block or first:
                lines = self._decode(block, first, lines_before)
                lines_before += block.count(b"\n")
                first = False
                yield lines
            if not data:
                return
            data = self.read(BLOCK_BYTES)

    def _utf8_problem(
        self, block: bytes, error: UnicodeDecodeError, first: bool
    ) -> tuple[int, str]:
        """Line (in ``block``) and the whole-file check's words for its first
        bad byte, from ``decode_text_file`` itself.

        The first block starts the file, byte-order mark included, so it is
        asked as it is; of a later block, only the bad line, after a newline
        (never taken for a file's first bytes). NULs become "a" in what is
        asked: both are valid ASCII, so the bad byte, its column and the hint
        stay the same, and no NUL makes the text look like UTF-16.
        """
        if first:
            probe, offset = block, 0
        else:
            start = block.rfind(b"\n", 0, error.start) + 1
            end = block.find(b"\n", error.start)
            probe = b"\n" + block[start : len(block) if end < 0 else end + 1]
            offset = block.count(b"\n", 0, start) - 1
        try:
            decode_text_file(probe.replace(b"\x00", b"a"), self.file_name)
        except InputFileError as probed:
            return offset + (probed.line or 1), probed.problem
        raise AssertionError("a block that failed to decode decoded")  # never

    def _read_head(self) -> bytes:
        """At least the bytes :func:`non_utf8_file` looks at (or the whole
        file), however little one read returns."""
        head = self.read(max(BLOCK_BYTES, HEAD_BYTES))
        while 0 < len(head) < HEAD_BYTES:
            more = self.read(HEAD_BYTES)
            if not more:
                break
            head += more
        return head

    def _check_start(self, head: bytes) -> None:
        """What the file is when plainly not UTF-8 text: ``decode_text_file``
        tells it from the first 4096 bytes alone, before decoding, and says
        so without a line (a bad byte there is left to :meth:`_decode`)."""
        if not head:
            raise UploadProblem(self.file_name, None, "the file is empty (0 bytes)")
        try:
            decode_text_file(head[:HEAD_BYTES], self.file_name)
        except InputFileError as error:
            # Lineless and not about emptiness: what the file is.
            if error.line is None and not error.problem.startswith("the file is empty"):
                raise UploadProblem(self.file_name, None, error.problem) from None

    def _decode(self, block: bytes, first: bool, lines_before: int) -> list[str]:
        """The lines of ``block`` (complete lines, or the file's last one).

        The first block is decoded as the whole-file check decoded the
        file (``utf-8-sig``, positions counted in the bytes with the mark).
        """
        try:
            text = block.decode("utf-8-sig" if first else "utf-8")
        except UnicodeDecodeError as error:
            line, problem = self._utf8_problem(block, error, first)
            raise UploadProblem(self.file_name, lines_before + line, problem) from None
        if first and not text:
            raise UploadProblem(
                self.file_name, None, "the file is empty (only a byte-order mark)"
            )
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()  # the final newline ends the last line; it adds no segment
        return [line[:-1] if line.endswith("\r") else line for line in lines]


def checked_sentences(
    read: Callable[[int], bytes], file_name: str, n_segments: int
) -> Iterator[list[NBestEntry]]:
    """Each sentence's candidates, in file order, once the whole file passed.

    Sentences are yielded as they are read (the caller stores them), but the
    iterator raises :class:`UploadProblem` at the end if the file has a
    problem further on, so nothing may be kept until it is exhausted.
    """
    lines = _CheckedLines(read, file_name)
    parse_problem: UploadProblem | None = None
    group: list[NBestEntry] = []
    try:
        for entry in iter_nbest(lines, file_name):
            if entry.sentence_id >= n_segments:
                raise UploadProblem(
                    file_name,
                    entry.line_number,
                    f"sentence id {entry.sentence_id} is not a segment of the test "
                    f"set, which has {n_segments} (ids 0–{n_segments - 1}; "
                    "Moses counts from 0)",
                )
            if group and group[0].sentence_id != entry.sentence_id:
                yield group
                group = []
            group.append(entry)
    except InputFileError as error:
        problem = str(error).removeprefix(f"{file_name}: line {error.line}: ")
        parse_problem = UploadProblem(file_name, error.line, problem)
    except UploadProblem as problem:
        if problem is lines.fatal:
            raise
        parse_problem = problem
    lines.drain()
    if not lines.has_text:
        count = lines.n_lines
        blank = "1 line, blank" if count == 1 else f"{count} lines, all blank"
        raise UploadProblem(file_name, None, f"the file is empty: {blank}")
    if lines.line_problem is not None:
        raise lines.line_problem
    if parse_problem is not None:
        raise parse_problem
    if not group:
        raise UploadProblem(file_name, None, "no candidates: every line is blank")
    yield group
