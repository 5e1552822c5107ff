"""A WMT21 test set in the database with the systems a human file judges,
and that human file cut to the test set (the first segments, those systems).

On the full data the human files cover every segment and system; on the
committed fixtures (``tests/fixtures/data``) their first 150-152 segments
and a few systems. Either way the test set and the file agree, as a user's
would.
"""

from __future__ import annotations

from pathlib import Path

from mtdash.evaluation.models import TestSet
from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from tests.scoring.support.realdata import WMT21_DIR, read_lines, segment_count

# The systems each WMT21 human file judges that the fixtures hold outputs
# (or references) of: ``ref-A`` is WMT's reference A scored as a system.
SYSTEMS = {
    ("en-de", "mqm_seg.tsv"): ("Facebook-AI", "Online-W", "UEdin", "ref-A"),
    ("zh-en", "mqm_seg.tsv"): ("Online-W", "ref-A"),
    ("ru-en", "da_seg.tsv"): ("Facebook-AI", "Online-Y"),
}


def wmt_test_set(team, user, pair: str, systems: tuple[str, ...]) -> TestSet:
    """The first segments of WMT21 ``pair`` with outputs of ``systems``."""
    source_language, target_language = pair.split("-")
    directory = WMT21_DIR / pair
    n = segment_count(f"wmt21/{pair}", full=150)
    first = lambda name: read_lines(directory / name)[:n]  # noqa: E731
    test_set = create_test_set(
        team,
        user,
        TestSetData(
            name=f"newstest2021 {pair}",
            source_language=source_language,
            target_language=target_language,
            text_type="news",
            description="",
            sources=first(f"src.{source_language}"),
            references={"A": first(f"ref.A.{target_language}")},
        ),
    )
    for system in systems:
        file_name = (
            f"ref.A.{target_language}"
            if system == "ref-A"
            else f"sys/{system}.{target_language}"
        )
        create_system_output(test_set, user, system, first(file_name), queue=False)
    return test_set


def human_file(pair: str, name: str, n_segments: int) -> tuple[bytes, list[list[str]]]:
    """The human file of ``pair`` cut to the systems of :data:`SYSTEMS` and
    the first ``n_segments``: its bytes and its data rows (split on tabs)."""
    path: Path = WMT21_DIR / pair / "human" / name
    header, *lines = path.read_text(encoding="utf-8").splitlines()
    seg_column = next(
        i for i, cell in enumerate(header.split("\t")) if cell.startswith("seg_id")
    )
    systems = SYSTEMS[pair, name]
    rows = [
        cells
        for cells in (line.split("\t") for line in lines)
        if cells[0] in systems and int(cells[seg_column]) <= n_segments
    ]
    text = "\n".join([header, *("\t".join(cells) for cells in rows)]) + "\n"
    return text.encode("utf-8"), rows
