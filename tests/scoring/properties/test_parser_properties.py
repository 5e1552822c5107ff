"""Properties of the parsers: segment files and Moses n-best lists.

Valid files generated from parts round-trip exactly; arbitrary bytes or
lines never raise anything but the library's own ``InputFileError``.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import InputFileError, ScoringError
from scoring.orange.nbest import iter_nbest
from scoring.textfiles import decode_segments, non_utf8_file
from tests.scoring.properties.strategies import PROPERTY_SETTINGS, sentences

# Segment text: anything but the line end "\n"; a "\r" is kept inside a line
# but not at its end (where it belongs to a CRLF line end).
segment_text = st.text(
    st.characters(codec="utf-8", exclude_characters="\n"), max_size=30
).filter(lambda text: not text.endswith("\r"))


@PROPERTY_SETTINGS
@given(
    segments=st.lists(segment_text, max_size=8),
    line_end=st.sampled_from(["\n", "\r\n"]),
    final_newline=st.booleans(),
    byte_order_mark=st.booleans(),
)
def test_decode_segments_gives_back_the_lines_written(
    segments, line_end, final_newline, byte_order_mark
):
    text = line_end.join(segments)
    if segments and (final_newline or segments[-1] == ""):
        text += line_end  # a final empty segment needs its line end
    data = ("\ufeff" if byte_order_mark else "").encode() + text.encode("utf-8")
    if non_utf8_file(data) is not None:  # e.g. text starting with "%PDF-"
        return
    decoded = decode_segments(data, "f.txt", strip_byte_order_mark=byte_order_mark)
    assert decoded == tuple(segments)


def test_a_bad_byte_after_a_byte_order_mark_is_located_in_the_files_bytes():
    with pytest.raises(InputFileError) as raised:
        decode_segments(
            b"\xef\xbb\xbfab\ncd\xffx\n", "f.txt", strip_byte_order_mark=True
        )
    assert raised.value.line == 2
    assert "(byte 0xff at byte 3 of the line)" in str(raised.value)
    with pytest.raises(InputFileError) as raised:
        decode_segments(b"\xef\xbb\xbfa\xe9b\n", "f.txt", strip_byte_order_mark=True)
    assert "(byte 0xe9 at byte 5 of the line), perhaps Latin-1" in str(raised.value)


@PROPERTY_SETTINGS
@given(data=st.binary(max_size=200))
def test_decode_segments_on_any_bytes_returns_text_or_raises_input_file_error(data):
    try:
        segments = decode_segments(data, "f.bin", strip_byte_order_mark=True)
    except InputFileError as error:
        assert str(error).startswith("f.bin: ")
        assert error.path == "f.bin"
        assert error.line is None or 1 <= error.line <= data.count(b"\n") + 1
    else:
        assert all("\n" not in segment for segment in segments)
        assert len(segments) <= data.count(b"\n") + 1


# -- n-best lists -----------------------------------------------------------

nbest_text = sentences().map(lambda text: text.replace("|", "/"))
features = st.lists(
    st.tuples(st.sampled_from(["lm", "tm", "d", "w"]), st.floats(-100, 100)),
    max_size=3,
).map(lambda pairs: " ".join(f"{name}= {value!r}" for name, value in pairs))
scores = st.one_of(st.none(), st.floats(allow_nan=False, allow_infinity=False))


@st.composite
def nbest_entries(draw):
    """``(sentence_id, hypothesis, features, score)`` with increasing ids,
    each id's candidates consecutive."""
    ids = draw(st.lists(st.integers(0, 10**6), min_size=1, max_size=6, unique=True))
    entries = []
    for sentence_id in sorted(ids):
        for _ in range(draw(st.integers(1, 4))):
            entries.append(
                (sentence_id, draw(nbest_text), draw(features), draw(scores))
            )
    return entries


def nbest_line(sentence_id, hypothesis, feature_text, score) -> str:
    score_text = "" if score is None else repr(score)
    return f"{sentence_id} ||| {hypothesis} ||| {feature_text} ||| {score_text}"


@PROPERTY_SETTINGS
@given(entries=nbest_entries(), blank_lines=st.booleans())
def test_iter_nbest_gives_back_the_entries_written(entries, blank_lines):
    lines = [nbest_line(*entry) for entry in entries]
    if blank_lines:  # blank lines are skipped; line numbers still count them
        lines = [part for line in lines for part in (line, "  ")]
    parsed = list(iter_nbest(lines, "f.nbest"))
    assert [(e.sentence_id, e.hypothesis, e.features, e.score) for e in parsed] == [
        (i, h.strip(), f.strip(), s) for i, h, f, s in entries
    ]
    step = 2 if blank_lines else 1
    assert [e.line_number for e in parsed] == list(
        range(1, step * len(entries) + 1, step)
    )


nbest_garbage_line = st.one_of(
    st.text(max_size=40),
    st.lists(
        st.one_of(
            st.text(max_size=8),
            st.integers(-5, 5).map(str),
            st.floats().map(repr),
            st.sampled_from(["", " ", "1_0", "\u0661", "+1", "nan", "inf", "1e999"]),
        ),
        max_size=5,
    ).map(" ||| ".join),
)


@PROPERTY_SETTINGS
@given(lines=st.lists(nbest_garbage_line, max_size=8))
def test_iter_nbest_on_any_lines_raises_nothing_but_input_file_error(lines):
    try:
        entries = list(iter_nbest(lines, "f.nbest"))
    except ScoringError as error:
        assert isinstance(error, InputFileError)
        assert str(error).startswith(f"f.nbest: line {error.line}: ")
        assert 1 <= error.line <= len(lines)
    else:
        ids = [entry.sentence_id for entry in entries]
        assert ids == sorted(ids)
