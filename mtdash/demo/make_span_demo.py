"""The demo's error-span annotations: MQM by three raters, ESA by two
annotators and a metric's spans, on the demo systems' outputs of the first
three documents (24 segments × 7 systems).

Written for mtdash, not taken from any campaign. The demo systems are the
held-out translation E damaged by known operations (:mod:`.systems`), so
each output's errors are known by construction: :func:`true_errors`
follows every word of E through the damage (:func:`.systems.damage_steps`)
and names each error as an MQM annotator would:

=======================  ==========================================  ========
damage                   MQM category, marked on                     severity
=======================  ==========================================  ========
wrong word               Accuracy/Mistranslation, the word           Major
French word left in      Accuracy/Untranslated text, the word        Major
content word dropped     Accuracy/Omission, its French cognate in    Minor
                         the source (no position without one)
function word dropped    Fluency/Grammar, the word after the gap     Minor
word repeated            Accuracy/Addition, the repeat               Minor
adjacent words swapped   Fluency/Grammar, both words                 Minor
end cut off              Accuracy/Omission, the source's tail        Major
=======================  ==========================================  ========

A segment whose words are 40% or more French is a Non-translation (Major,
no position, nothing else marked, as WMT's guidelines say).

The annotators are imperfect in seeded ways. Each MQM rater misses some
errors, softens some severities and has a habit (``rater2`` finds awkward
style where nothing was damaged and sometimes calls a French word a
mistranslation, ``rater3`` calls word order Style/Awkward, ``rater1``
marks commas). ESA's annotators mark target spans (minor or major, no
category) and give 0–100 scores that fall with the errors they see. The
metric ``xcomet-demo`` finds most wrong and untranslated words and fewer
of the rest, sometimes takes a neighbouring word into its span, marks a
few correct words, and gives each span a confidence and each segment a
0–1 score.

``python -m mtdash.demo.make_span_demo`` writes the three files into
``mtdash/demo/data/``; the same seed writes the same bytes (a test checks
the committed files), and ``manage.py load_demo`` imports them through the
error-span import. Standard library only: a management command imports it.
"""

from __future__ import annotations

import difflib
import json
import random
import re
from dataclasses import dataclass, replace
from pathlib import Path

from .corpus import DemoTestSet, demo_test_set
from .systems import (
    SYSTEM_RECIPES,
    WRONG_WORD_VOCABULARY,
    DemoSystem,
    damage_steps,
    demo_systems,
)

SEED = 22
SYSTEMS_SEED = 2024  # demo_systems' default: the outputs load_demo stores
#: Test-set lines annotated (0-based): the first three documents.
SEGMENTS = range(24)
METRIC = "xcomet-demo"
DATA_DIR = Path(__file__).resolve().parent / "data"
MQM_FILE = "demo-mqm.tsv"
ESA_FILE = "demo-esa.jsonl"
METRIC_FILE = "demo-xcomet.jsonl"

MQM_HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
NON_TRANSLATION_SHARE = 0.4  # of a segment's words left in French
COGNATE_RATIO = 0.75  # difflib's ratio from which a French word is the cognate
_CORE = re.compile(r"^(\W*)(.*?)(\W*)$")
_WRONG = frozenset(WRONG_WORD_VOCABULARY)
_ELISION = re.compile(r"^(?:[cdjlmnst]|qu)['’]", re.IGNORECASE)


class _Word(str):
    """A word of the output with the position in E of the word it stands
    for, and whether damage substituted it."""

    origin: int
    substituted: bool

    def __new__(cls, text: str, origin: int, substituted: bool = False) -> _Word:
        word = super().__new__(cls, text)
        word.origin, word.substituted = origin, substituted
        return word


@dataclass(frozen=True)
class TrueError:
    """One error damage made, as MQM names it: code points ``[start, end)``
    of the ``side`` text (``None``: no position)."""

    kind: str  # the damage: wrong, french, omission, grammar, addition, ...
    category: str
    severity: str  # "Major" or "Minor", as WMT's files write them
    side: str
    start: int | None
    end: int | None


@dataclass(frozen=True)
class Item:
    """One system's output of one segment, with its true errors."""

    system: str
    index: int  # test-set line, 0-based
    document: str
    document_number: int  # 1-based, in test-set order
    source: str
    target: str
    errors: tuple[TrueError, ...]


def _cores(text: str) -> list[tuple[str, int, int]]:
    """(core, start, end) of each whitespace token of ``text`` without the
    punctuation around it (an annotator marks the word, not its comma)."""
    found = []
    for match in re.finditer(r"\S+", text):
        leading, core, _ = _CORE.match(match.group()).groups()
        start = match.start() + len(leading)
        found.append((core, start, start + len(core)))
    return found


def _is_content(core: str) -> bool:
    """A word the damage would replace (systems.py: four letters or more)."""
    return sum(c.isalpha() for c in core) >= 4


def true_errors(
    translation: str, source: str, system: str, index: int
) -> tuple[str, list[TrueError]]:
    """(the output, its errors in text order) of demo system ``system`` on
    test-set line ``index``, whose translation E is ``translation``."""
    rates = next(r for r in SYSTEM_RECIPES if r.name == system).rates
    words = [_Word(t, k) for k, t in enumerate(translation.split())]
    steps = damage_steps(words, source, rates, f"{SYSTEMS_SEED}:{index}")
    _, tokens = next(steps)
    for k, token in enumerate(tokens):  # tag the substitutions in place
        if not isinstance(token, _Word):
            tokens[k] = _Word(token, k, substituted=True)
    after = {"substitute": list(tokens)}
    after.update((operation, list(tokens)) for operation, tokens in steps)
    final = after["truncate"]
    output = " ".join(final)
    target = _cores(output)
    # A French word that is English too (turbines) is a wrong word where it
    # stands; one equal to the word it replaced is no error.
    english = {core.lower() for core, _, _ in _cores(translation)}
    wrong = {
        k
        for k, t in enumerate(final)
        if t.substituted and target[k][0].lower() in _WRONG | english
    }
    french = [k for k, t in enumerate(final) if t.substituted and k not in wrong]
    if len(final) > 2 and len(french) >= NON_TRANSLATION_SHARE * len(final):
        only = TrueError(
            "non-translation", "Non-translation!", "Major", "target", None, None
        )
        return output, [only]
    errors = []
    seen: set[int] = set()
    for k, token in enumerate(final):
        _, start, end = target[k]
        if id(token) in seen:
            errors.append(
                TrueError(
                    "addition", "Accuracy/Addition", "Minor", "target", start, end
                )
            )
        elif k in wrong and target[k][0].lower() != _original(words, token):
            errors.append(
                TrueError(
                    "wrong", "Accuracy/Mistranslation", "Major", "target", start, end
                )
            )
        elif k in french:
            errors.append(
                TrueError(
                    "french",
                    "Accuracy/Untranslated text",
                    "Major",
                    "target",
                    start,
                    end,
                )
            )
        seen.add(id(token))
    before, swapped = after["duplicate"], after["swap"]
    for p in range(min(len(swapped), len(final)) - 1):
        if (
            swapped[p] is before[p + 1]
            and swapped[p + 1] is before[p]
            and before[p] is not before[p + 1]
        ):
            errors.append(
                TrueError(
                    "order",
                    "Fluency/Grammar",
                    "Minor",
                    "target",
                    target[p][1],
                    target[p + 1][2],
                )
            )
    errors += _omissions(words, after, source, target)
    # Two function words missing before the same word: one error there.
    errors = [e for k, e in enumerate(errors) if e.start is None or e not in errors[:k]]
    return output, sorted(errors, key=_text_order)


def _original(words: list[_Word], token: _Word) -> str:
    return _CORE.match(words[token.origin]).group(2).lower()


def _text_order(error: TrueError) -> tuple:
    return (
        error.side != "target",
        error.start is None,
        error.start or 0,
        error.end or 0,
    )


def _omissions(
    words: list[_Word], after: dict[str, list[_Word]], source: str, target: list
) -> list[TrueError]:
    """Words of E the drops and the truncation took away."""
    final = after["truncate"]
    kept = {t.origin for t in after["drop"]}
    dropped = sorted(set(range(len(words))) - kept)
    truncated = sorted(kept - {t.origin for t in final})
    sources = _cores(source)
    errors = []
    for origin in dropped:
        word = _CORE.match(words[origin]).group(2)
        if _is_content(word):
            where = _cognate(word, sources)
            side = "source" if where else "target"
            start, end = where or (None, None)
            errors.append(
                TrueError("omission", "Accuracy/Omission", "Minor", side, start, end)
            )
        else:  # a missing article or preposition: the word after the gap
            gap = next(
                (k for k, t in enumerate(final) if t.origin > origin), len(final) - 1
            )
            _, start, end = target[gap]
            errors.append(
                TrueError("grammar", "Fluency/Grammar", "Minor", "target", start, end)
            )
    if truncated:
        first = min(round(truncated[0] / len(words) * len(sources)), len(sources) - 1)
        lost = [_CORE.match(words[k]).group(2) for k in truncated]
        major = len(lost) > 1 or _is_content(lost[0])
        severity = "Major" if major else "Minor"
        errors.append(
            TrueError(
                "truncation",
                "Accuracy/Omission",
                severity,
                "source",
                sources[first][1],
                sources[-1][2],
            )
        )
    return errors


def _cognate(word: str, sources: list[tuple[str, int, int]]) -> tuple[int, int] | None:
    """Where the source word most like ``word`` is (kilometres ~
    kilomètres), if one is alike enough to be what it translates."""
    best, where = 0.0, None
    for core, start, end in sources:
        elided = _ELISION.match(core)  # l'impact: the span is impact
        if elided:
            core, start = core[elided.end() :], start + elided.end()
        if _is_content(core):
            ratio = difflib.SequenceMatcher(None, word.lower(), core.lower()).ratio()
            if ratio > best:
                best, where = ratio, (start, end)
    return where if best >= COGNATE_RATIO else None


def demo_items(
    test_set: DemoTestSet | None = None, systems: tuple[DemoSystem, ...] | None = None
) -> list[Item]:
    """Every annotated output segment, by system (best first), then line."""
    test_set = test_set or demo_test_set()
    systems = systems or demo_systems(test_set, SYSTEMS_SEED)
    documents = list(dict.fromkeys(test_set.document_ids))
    items = []
    for system in systems:
        for index in SEGMENTS:
            output, errors = true_errors(
                test_set.held_out_translation[index],
                test_set.sources[index],
                system.name,
                index,
            )
            assert output == system.hypotheses[index], (system.name, index)
            document = test_set.document_ids[index]
            items.append(
                Item(
                    system=system.name,
                    index=index,
                    document=document,
                    document_number=documents.index(document) + 1,
                    source=test_set.sources[index],
                    target=output,
                    errors=tuple(errors),
                )
            )
    return items


def _rng(*key: object) -> random.Random:
    """A generator of its own per annotator and item, so one annotator's
    choices never shift another's."""
    return random.Random(":".join(map(str, (SEED, *key))))


def _untouched_word(item: Item, rng: random.Random) -> tuple[int, int] | None:
    """A random content word of the target that no true error covers."""
    covered = [
        (e.start, e.end)
        for e in item.errors
        if e.side == "target" and e.start is not None
    ]
    free = [
        (start, end)
        for core, start, end in _cores(item.target)
        if _is_content(core) and all(end <= s or start >= e for s, e in covered)
    ]
    return rng.choice(free) if free else None


# --- MQM ------------------------------------------------------------------


@dataclass(frozen=True)
class Rater:
    name: str
    recall: float  # share of Major errors found (Minor ones: 85% of it)
    softer: float  # share of Major errors called Minor
    style: float  # chance per segment of marking awkward style that is not damage
    commas: float  # chance per segment of marking a comma (Fluency/Punctuation)
    order: str  # the category word order gets
    untranslated: float  # share of French words called mistranslations


RATERS = (
    Rater("rater1", 0.92, 0.10, 0.03, 0.08, "Fluency/Grammar", 0.0),
    Rater("rater2", 0.80, 0.25, 0.15, 0.00, "Fluency/Grammar", 0.30),
    Rater("rater3", 0.86, 0.05, 0.04, 0.00, "Style/Awkward", 0.0),
)


def rater_errors(rater: Rater, item: Item) -> list[TrueError]:
    """The errors ``rater`` marks in ``item``."""
    rng = _rng("mqm", rater.name, item.system, item.index)
    marked = []
    for error in item.errors:
        draw, severity_draw, category_draw = rng.random(), rng.random(), rng.random()
        if error.kind == "non-translation":
            marked.append(error)
            continue
        recall = rater.recall * (1.0 if error.severity == "Major" else 0.85)
        if draw >= recall:
            continue
        if error.severity == "Major" and severity_draw < rater.softer:
            error = replace(error, severity="Minor")
        if error.kind == "order":
            error = replace(error, category=rater.order)
        elif error.kind == "french" and category_draw < rater.untranslated:
            error = replace(error, category="Accuracy/Mistranslation")
        marked.append(error)
    if item.errors and item.errors[0].kind == "non-translation":
        return marked
    if rng.random() < rater.style and (where := _untouched_word(item, rng)):
        marked.append(TrueError("style", "Style/Awkward", "Minor", "target", *where))
    commas = [m.start() for m in re.finditer(",", item.target)]
    if rng.random() < rater.commas and commas:
        comma = rng.choice(commas)
        marked.append(
            TrueError(
                "comma", "Fluency/Punctuation", "Minor", "target", comma, comma + 1
            )
        )
    return sorted(marked, key=_text_order)


def _marked(text: str, start: int, end: int) -> str:
    return f"{text[:start]}<v>{text[start:end]}</v>{text[end:]}"


def mqm_tsv(items: list[Item] | None = None) -> str:
    """The MQM file in WMT's layout: a row per marked error (a
    ``No-error`` row when a rater marks none), the span in ``<v>…</v>``."""
    lines = [MQM_HEADER]
    for item in items or demo_items():
        for rater in RATERS:
            marked = rater_errors(rater, item)
            rows = (
                [("No-error", "No-error", item.source, item.target)]
                if not marked
                else []
            )
            for error in marked:
                source, target = item.source, item.target
                if error.start is not None and error.side == "source":
                    source = _marked(source, error.start, error.end)
                elif error.start is not None:
                    target = _marked(target, error.start, error.end)
                rows.append((error.category, error.severity, source, target))
            for category, severity, source, target in rows:
                cells = (
                    item.system,
                    item.document,
                    item.document_number,
                    item.index + 1,
                )
                cells += (rater.name, source, target, category, severity)
                lines.append("\t".join(map(str, cells)))
    return "\n".join(lines) + "\n"


# --- ESA ------------------------------------------------------------------


@dataclass(frozen=True)
class EsaAnnotator:
    name: str
    recall: float
    segments: range


ESA_ANNOTATORS = (
    EsaAnnotator("esa-a", 0.85, SEGMENTS),
    EsaAnnotator("esa-b", 0.78, range(16)),  # the first two documents
)


def esa_line(annotator: EsaAnnotator, item: Item) -> dict:
    """One ESA annotation: target spans as the annotator sees them, then a
    0–100 score that falls with them (and with what they noticed missing)."""
    rng = _rng("esa", annotator.name, item.system, item.index)
    spans, penalty = [], 0.0
    for error in item.errors:
        seen = rng.random() < annotator.recall
        weight = rng.uniform(14, 22) if error.severity == "Major" else rng.uniform(3, 7)
        if error.kind == "non-translation":
            spans.append({"start": 0, "end": len(item.target), "severity": "major"})
            penalty += rng.uniform(75, 90)
        elif seen and error.side == "target" and error.start is not None:
            severity = error.severity.lower()
            spans.append({"start": error.start, "end": error.end, "severity": severity})
            penalty += weight
        elif seen or rng.random() < 0.5:  # an omission noticed, or an unease
            penalty += weight / 2
    score = min(100.0, 100.0 - penalty - abs(rng.gauss(0, 3)))
    spans.sort(key=lambda s: (s["start"], s["end"]))
    return {
        "segment": item.index + 1,
        "system": item.system,
        "annotator": annotator.name,
        "score": max(0, round(score)),
        "spans": spans,
    }


def esa_jsonl(items: list[Item] | None = None) -> str:
    lines = [
        esa_line(annotator, item)
        for annotator in ESA_ANNOTATORS
        for item in items or demo_items()
        if item.index in annotator.segments
    ]
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


# --- a metric's spans -----------------------------------------------------

# Chance that the metric finds an error of each kind (it reads the target
# only: omissions are out of its sight).
METRIC_RECALL = {
    "wrong": 0.9,
    "french": 0.93,
    "addition": 0.6,
    "order": 0.4,
    "grammar": 0.25,
}
METRIC_PENALTY = {"critical": 0.3, "major": 0.12, "minor": 0.04}


def metric_line(item: Item) -> dict:
    """The metric's spans of one output segment and its 0–1 score."""
    rng = _rng("metric", item.system, item.index)
    words = [(start, end) for _, start, end in _cores(item.target)]
    spans = []
    for error in item.errors:
        draw, severity_draw, edge_draw, side_draw = (rng.random() for _ in range(4))
        confidence = round(0.5 + 0.49 * rng.random(), 2)
        if error.kind == "non-translation":
            spans.append(_span(0, len(item.target), "critical", confidence))
            continue
        if error.side != "target" or error.start is None:
            continue
        if draw >= METRIC_RECALL.get(error.kind, 0.0):
            continue
        start, end = error.start, error.end
        if edge_draw < 0.25:  # a neighbouring word taken in
            first = next(k for k, (s, e) in enumerate(words) if s <= start < e)
            last = next(k for k, (s, e) in enumerate(words) if s < end <= e)
            if side_draw < 0.5 and first > 0:
                start = words[first - 1][0]
            elif last + 1 < len(words):
                end = words[last + 1][1]
        if error.kind in ("wrong", "french"):
            critical = 0.3 if error.kind == "french" else 0.15
            severity = "critical" if severity_draw < critical else "major"
            if error.kind == "wrong" and severity_draw > 0.85:
                severity = "minor"
        else:
            severity = "minor" if severity_draw < 0.8 else "major"
        spans.append(_span(start, end, severity, confidence))
    if rng.random() < 0.15 and (where := _untouched_word(item, rng)):
        spans.append(_span(*where, "minor", round(0.2 + 0.35 * rng.random(), 2)))
    spans.sort(key=lambda s: (s["start"], s["end"]))
    penalty = sum(METRIC_PENALTY[s["severity"]] for s in spans)
    score = min(1.0, max(0.02, 1.0 - penalty + rng.gauss(0, 0.02)))
    return {
        "segment": item.index + 1,
        "system": item.system,
        "metric": METRIC,
        "score": round(score, 4),
        "spans": spans,
    }


def _span(start: int, end: int, severity: str, confidence: float) -> dict:
    return {"start": start, "end": end, "severity": severity, "confidence": confidence}


def metric_jsonl(items: list[Item] | None = None) -> str:
    lines = [metric_line(item) for item in items or demo_items()]
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


def demo_span_files() -> dict[str, str]:
    """File name -> contents, as :func:`write_files` writes them."""
    items = demo_items()
    return {
        MQM_FILE: mqm_tsv(items),
        ESA_FILE: esa_jsonl(items),
        METRIC_FILE: metric_jsonl(items),
    }


def write_files(directory: Path = DATA_DIR) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in demo_span_files().items():
        path = directory / name
        path.write_text(text, encoding="utf-8", newline="\n")
        written.append(path)
    return written


if __name__ == "__main__":
    for path in write_files():
        print(path)
