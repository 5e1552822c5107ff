"""Tokens derived once per distinct word equal each view's own tokens of the
whole text, and ORANGE from them equals ORANGE from the texts, bit for bit."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.batch.engine import token_view
from scoring.orange.batched import orange_batch
from scoring.orange.nbest import NBestList, open_nbest
from scoring.orange.nbest_stream import read_nbest_words
from scoring.orange.options import OrangeOptions
from scoring.orange.prepare import prepare_metrics
from scoring.orange.sources import TextSource, pretokenized_source
from scoring.orange.token_views import splits_at_whitespace
from scoring.registry import get_metric
from scoring.textfiles import read_segments
from tests.scoring.support.realdata import DATA_DIR

SPECS = (
    "bleus:n=4",
    "bleu:lowercase=true",
    "nist",
    "wer",
    "per:lowercase=true",
    "rouge-l",
    "rouge-w:w=1.2",
    "rouge-s:d=4",
    "rouge-l:lowercase=false,punct=true",
    "rouge-l:stem=true",
    "ter",
    "ter:lowercase=false",
    "bleu:tokenize=intl",  # not split at whitespace: the exact per-text path
    "ter:normalize=true",
)
VIEWS = {token_view(get_metric(spec)) for spec in SPECS}
TRICKY = [
    "Hello, world! It costs $3.50.",
    "a.b,c 1,000 1.5-2 5-6 well-known x. .y ,z z,",
    "&quot;Quoted&quot; &amp;amp; &lt;tag&gt; &AMP; &QUOT;",
    "<skipped> a<skipped>b <SKIPPED>",
    "ΟΔΟΣ ΣΑΣ Σ ΑΣ.Β İstanbul ǅemal ẞ",
    "tab\there\u2028line\u00a0nbsp\x1cfs end-\n",
    "'' `` -- ... ,,, ..",
    "",
    "   ",
    "x",
    "the the the the",
]


@pytest.mark.parametrize(
    "view", sorted((v for v in VIEWS if splits_at_whitespace(v)), key=repr), ids=repr
)
def test_split_views_tokenise_word_by_word(view):
    for text in TRICKY:
        by_word = [token for word in text.split() for token in view(word)]
        assert by_word == list(view(text)), text


ALPHABET = st.sampled_from(
    list("aZ09.,-&;<>'\"$ ") + ["&quot;", "&amp;", "\u2028", "\u00a0", "Σ", "İ", "\t"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(ALPHABET, max_size=30).map("".join))
def test_split_views_tokenise_word_by_word_on_any_text(text):
    for view in VIEWS:
        if splits_at_whitespace(view):
            by_word = [token for word in text.split() for token in view(word)]
            assert by_word == list(view(text))


def orange_both_ways(nbest_path, reference_paths, specs=SPECS):
    streams = [read_segments(path) for path in reference_paths]
    metrics = prepare_metrics(
        {spec: get_metric(spec) for spec in specs}, list(zip(*streams))
    )
    words = read_nbest_words(nbest_path)
    ids = words.sentence_ids.tolist()
    references = [tuple(stream[i] for stream in streams) for i in ids]
    options = OrangeOptions(curve_step=4, n_bootstrap=50)
    source = pretokenized_source(
        words, references, [token_view(m) for m in metrics.values()]
    )
    fast = orange_batch(metrics, source, options, sentence_ids=ids)
    texts = NBestList.from_entries(open_nbest(nbest_path))
    slow = orange_batch(
        metrics, TextSource(texts.candidates, references), options, sentence_ids=ids
    )
    return fast, slow


def test_orange_is_identical_on_a_real_moses_list():
    run = DATA_DIR / "moses-nbest" / "regression-mert-moses-new"
    if not (run / "run1.NBEST.out").exists():
        pytest.skip(f"real Moses n-best data not found at {run}")
    refs = [run / f"reference.{k}" for k in range(3)]
    fast, slow = orange_both_ways(run / "run1.NBEST.out", refs)
    for spec in SPECS:
        assert fast[spec].to_dict() == slow[spec].to_dict(), spec


def test_orange_is_identical_on_edge_cases(tmp_path):
    candidates = {
        0: ["", "a", "a a a a", "A, b. c", "Σ ΑΣ ﬁ"],
        1: ["x", "the the the", "&quot;x&quot; y-1", "ünï\u00a0cödé", " "],
        2: ["one"],
    }
    refs = [
        ["a a b", "x y", "one"],
        ["A b c", "the x", "two"],
        ["Σ a", "", "one one"],
    ]
    lines = [
        f"{i} ||| {text} ||| f ||| 0"
        for i, texts in candidates.items()
        for text in texts
    ]
    (tmp_path / "edge.nbest").write_text("\n".join(lines) + "\n")
    paths = []
    for k, stream in enumerate(refs):
        paths.append(tmp_path / f"ref.{k}")
        paths[-1].write_text("\n".join(stream) + "\n")
    fast, slow = orange_both_ways(tmp_path / "edge.nbest", paths)
    for spec in SPECS:
        assert fast[spec].to_dict() == slow[spec].to_dict(), spec


def hypothesis_tokens(grid):
    """Each hypothesis of a grid as its token strings."""
    vocabulary = grid.vocabulary
    return [
        tuple(vocabulary[t] for t in grid.hyp_tokens[start:stop].tolist())
        for start, stop in zip(grid.hyp_offsets[:-1], grid.hyp_offsets[1:])
    ]


@pytest.mark.parametrize("view", sorted(VIEWS, key=repr), ids=repr)
@pytest.mark.parametrize("line_break", [False, True], ids=["words", "line-break"])
def test_text_source_grids_hold_each_views_tokens(view, line_break):
    texts = TRICKY + (["end-\nof line", "a-\nb -\n"] if line_break else [])
    references = [["Hello , world", "x. .y 1,000"], ["the", "&amp; ΑΣ"]]
    candidates = [texts[:5], texts[5:]]
    source = TextSource(candidates, references)
    grid, reference_grid = source.grids(view, 0, 2)
    assert hypothesis_tokens(grid) == [tuple(view(text)) for text in texts]
    assert hypothesis_tokens(reference_grid) == [
        tuple(view(text)) for group in references for text in group
    ]
    # A second range (another thread's chunk) reuses the words: same tokens.
    again, _ = source.grids(view, 1, 2)
    assert hypothesis_tokens(again) == [tuple(view(text)) for text in texts[5:]]


def test_text_source_tokenises_each_distinct_word_once(monkeypatch):
    import scoring.tokenizers.registry as registry

    seen: list[str] = []
    tokens = registry._mteval_13a_tokens.__wrapped__  # uncached

    def counting(text):
        seen.append(text)
        return tokens(text)

    monkeypatch.setattr(registry, "_mteval_13a_tokens", counting)
    view = token_view(get_metric("bleu"))
    candidates = [["a b, c", "b, c a", "c a d"], ["a d", "e e"]]
    references = [["a b c", "c d"], ["e", "a e"]]
    source = TextSource(candidates, references)
    source.grids(view, 0, 1)
    source.grids(view, 1, 2)  # only "e" is new among the candidates' words
    words = {"a", "b,", "c", "d", "e"}
    reference_texts = [text for group in references for text in group]
    assert sorted(seen) == sorted([*words, *reference_texts])


@pytest.mark.parametrize("step", [2, 1 << 15])
def test_whole_text_views_of_a_file_hold_each_texts_tokens(tmp_path, monkeypatch, step):
    import scoring.orange.token_views as token_views

    monkeypatch.setattr(token_views, "_TEXTS_PER_STEP", step)
    texts = [t for t in TRICKY if "\n" not in t] + ["Mr. Li's U.S.-based, well-known"]
    lines = [f"{i % 3} ||| {text} ||| f ||| 0" for i, text in enumerate(texts)]
    lines.sort(key=lambda line: int(line.split(" ", 1)[0]))
    (tmp_path / "n.nbest").write_text("\n".join(lines) + "\n")
    words = read_nbest_words(tmp_path / "n.nbest")
    views = [token_view(get_metric(spec)) for spec in ("meteor", "bleu:tokenize=intl")]
    references = [("a", "b")] * 3
    source = pretokenized_source(words, references, views)
    for view in views:
        tokens = source.views[view]
        offsets = tokens.hyp_offsets.tolist()
        got = [
            tuple(tokens.vocabulary[t] for t in tokens.hyp_tokens[a:b].tolist())
            for a, b in zip(offsets[:-1], offsets[1:])
        ]
        expected = [tuple(view(line.split(" ||| ")[1])) for line in lines]
        assert got == expected
