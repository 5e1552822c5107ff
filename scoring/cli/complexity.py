"""``python -m scoring complexity``: readability and complexity of a text file.

Reads a UTF-8 file, one segment per line (a line may hold several sentences:
they are counted, ``--sentences line`` counts one per line), in one of the
languages with syllable rules (cs, de, en, es, fr, ru), and prints its ASL, ASW,
Flesch Reading Ease and Flesch-Kincaid grade (:mod:`scoring.readability.complexity`).
With ``--reference-text`` it also prints the normalisation coefficient
C = ASW(text) / ASW(reference text) of Babych et al. (2005) and the factors
by which WNM (C) and BLEU (C²) scores obtained on the text are normalised.

Exit status 0 on success, 2 on bad input (unreadable file, invalid UTF-8, a
text without words, a style the language does not have), with a one-line
message on stderr.

Wiring (in :mod:`scoring.cli.main`)::

    add_complexity_parser(commands)                 # in build_parser()
    if arguments.command == "complexity":           # first thing in main()
        return run_complexity(arguments)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, TextIO

from scoring.cli.arguments import EXIT_BAD_INPUT, EXIT_BROKEN_PIPE, EXIT_OK
from scoring.errors import InputFileError, ScoringError
from scoring.readability.complexity import (
    SENTENCE_MODES,
    TextComplexity,
    text_complexity,
)
from scoring.readability.normalisation import (
    NORMALISATION_POWERS,
    normalisation_coefficient,
)
from scoring.readability.syllables.counter import LANGUAGES, STYLES
from scoring.textfiles import read_segments

_ALL_STYLES = tuple(
    dict.fromkeys(style for styles in STYLES.values() for style in styles)
)


def add_complexity_parser(
    subparsers: argparse._SubParsersAction,
) -> argparse.ArgumentParser:
    """Add the ``complexity`` command to ``subparsers``; returns its parser."""
    parser = subparsers.add_parser(
        "complexity",
        help="readability of a text: ASL, ASW, Flesch Reading Ease and grade",
        description=(
            "Readability figures of a text, one segment per line (Babych et al. "
            "2005). Words are runs of letters; numbers and punctuation are not "
            "counted; sentences are counted within lines."
        ),
    )
    parser.add_argument("--text", required=True, metavar="FILE", help="UTF-8 text file")
    parser.add_argument("--lang", required=True, choices=LANGUAGES, help="its language")
    parser.add_argument(
        "--syllables",
        choices=_ALL_STYLES,
        help="syllable style (default spoken; written: French mute e counted)",
    )
    parser.add_argument(
        "--sentences",
        choices=SENTENCE_MODES,
        default="split",
        help="split: sentences within lines (default); line: one per line",
    )
    parser.add_argument(
        "--reference-text",
        metavar="FILE",
        help="text of the reference text type (same language): print C and C²",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def run_complexity(arguments: argparse.Namespace) -> int:
    """Run ``complexity`` with parsed ``arguments``; returns the exit status."""
    try:
        report = _report(arguments)
    except ScoringError as error:
        sys.stderr.write(f"error: {error}\n")
        return EXIT_BAD_INPUT
    try:
        if arguments.json:
            json.dump(report, sys.stdout, ensure_ascii=False, indent=2)
            sys.stdout.write("\n")
        else:
            _print_human(report, sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (e.g. "| head"): quiet exit, as scoring.cli.main does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    return EXIT_OK


def _measure(
    path: str, language: str, style: str | None, sentences: str = "split"
) -> dict[str, Any]:
    figures: TextComplexity = text_complexity(
        read_segments(path), language, style, sentences
    )
    if figures.n_words == 0:
        raise InputFileError(
            f"{path}: no words to measure (words are runs of letters; numbers "
            "and punctuation are not counted)",
            path,
        )
    return {"file": path, **figures.to_dict()}


def _report(arguments: argparse.Namespace) -> dict[str, Any]:
    sentences = getattr(arguments, "sentences", "split")
    text = _measure(arguments.text, arguments.lang, arguments.syllables, sentences)
    report: dict[str, Any] = {"text": text}
    if arguments.reference_text:
        reference = _measure(
            arguments.reference_text, arguments.lang, arguments.syllables, sentences
        )
        coefficient = float(normalisation_coefficient(text["asw"], reference["asw"]))
        report["reference"] = reference
        report["coefficient"] = coefficient
        report["factors"] = {
            metric: coefficient**power for metric, power in NORMALISATION_POWERS.items()
        }
    return report


def _print_human(report: dict[str, Any], out: TextIO) -> None:
    for role in ("text", "reference"):
        if role not in report:
            continue
        figures = report[role]
        out.write(
            f"{role}: {figures['file']} ({figures['n_sentences']} sentences, "
            f"{figures['n_words']} words, {figures['n_syllables']} syllables)\n"
            f"  ASL   {figures['asl']:.2f}  words per sentence\n"
            f"  ASW   {figures['asw']:.4f}  syllables per word\n"
            f"  FR    {figures['flesch_reading_ease']:.2f}  Flesch Reading Ease\n"
            f"  FKGL  {figures['flesch_kincaid_grade']:.2f}  Flesch-Kincaid grade\n"
            f"  {figures['signature']}\n"
        )
    if "coefficient" in report:
        factors = report["factors"]
        out.write(
            f"C = ASW(text) / ASW(reference) = {report['coefficient']:.4f}\n"
            f"  normalised WNM  = WNM  x {factors['wnm']:.4f}  (C)\n"
            f"  normalised BLEU = BLEU x {factors['bleu']:.4f}  (C²)\n"
        )
