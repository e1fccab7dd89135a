"""Canonical ids and metric names: ids that look the same are the same; misspelt metrics are recognised."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench_gate.text.canonical import collisions, describe, id_key, invisible, metric_skeleton, shown

IDS = st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=24)
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u200e", "\u200f", "\u2062",
             "\u180e", "\ufe0f", "\u3164", "\u2800", "\u034f"]
SPACES = [" ", "\u00a0", "\u2009", "\u3000", "\t", "\u202f"]


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if 0x21 <= ord(c) <= 0x7E else c for c in text)


@st.composite
def disguised(draw: st.DrawFn) -> tuple[str, str]:
    """An ASCII id and the same id with invisible characters, spaces, fullwidth forms or case changed."""
    base = draw(IDS)
    chars = list(base)
    for _ in range(draw(st.integers(1, 4))):
        how = draw(st.sampled_from(["invisible", "pad", "fullwidth", "case"]))
        i = draw(st.integers(0, len(chars)))
        if how == "invisible":
            chars.insert(i, draw(st.sampled_from(INVISIBLE)))
        elif how == "pad":
            if draw(st.booleans()):
                chars.append(draw(st.sampled_from(SPACES)))
            else:
                chars.insert(0, draw(st.sampled_from(SPACES)))
        elif how == "fullwidth" and i < len(chars):
            chars[i] = _fullwidth(chars[i])
        elif how == "case" and i < len(chars):
            chars[i] = chars[i].swapcase()
    return base, "".join(chars)


@given(disguised())
@settings(max_examples=400, deadline=None)
def test_a_disguised_id_is_the_same_id(pair: tuple[str, str]) -> None:
    base, other = pair
    assert id_key(base) == id_key(other)
    found = collisions([(0, base), (1, other)])
    assert found == [(0, 1, base, other)]
    if base != other:
        assert describe(base, other).startswith("differ only by ")
    # every character a reader cannot see is escaped in messages
    assert all(not invisible(ch) for ch in shown(other))


@given(IDS, IDS)
def test_different_ids_stay_different(a: str, b: str) -> None:
    # ASCII look-alikes (0 and o, 1 and l, m and rn, | and l...) are the same id to a reader
    if a.casefold().translate(LOOKALIKE) != b.casefold().translate(LOOKALIKE):
        assert collisions([(0, a), (1, b)]) == []


LOOKALIKE = str.maketrans({"0": "o", "1": "l", "|": "l", "m": "rn", "`": "'", '"': "''", "%": "o/o"})


@given(st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=30))
@settings(max_examples=400)
def test_an_ascii_id_gets_the_key_every_step_would_give(text: str) -> None:
    """ASCII ids (nearly all of them) take the fixed table; the key must be the general path's."""
    import unicodedata

    from bench_gate.text.canonical import reading

    slow = unicodedata.normalize("NFKC", "".join(reading(c) for c in unicodedata.normalize("NFKD", text)))
    assert id_key(text) == " ".join(slow.split())


@pytest.mark.parametrize(
    ("a", "b", "words"),
    [
        ("gpt4_2655", "gpt4_2655 ", "whitespace"),
        ("gpt4_2655", "gpt4_2655\u00a0", "whitespace and compatibility forms (fullwidth letters, no-break space...)"),
        ("gpt4_2655", "gpt4_\u200b2655", "invisible characters"),
        ("gpt4_2655", "ｇｐｔ４_2655", "compatibility forms (fullwidth letters, no-break space...)"),
        ("gpt4_2655", "GPT4_2655", "letter case"),
        ("gpt4_2655", "gpt4\u00ad_2655", "invisible characters"),
    ],
    ids=["trailing-space", "nbsp", "zero-width-space", "fullwidth", "case", "soft-hyphen"],
)
def test_describe_names_the_difference(a: str, b: str, words: str) -> None:
    assert collisions([("x", a), ("y", b)]) == [("x", "y", a, b)]
    assert describe(a, b) == "differ only by " + words


def test_exact_repeat_is_a_collision_and_blank_ids_are_empty() -> None:
    assert collisions([(0, "a"), (1, "b"), (2, "a")]) == [(0, 2, "a", "a")]
    assert describe("a", "a") == "identical"
    assert id_key(" \u200b\u00a0\ufeff ") == ""


def test_shown_escapes_what_cannot_be_seen() -> None:
    assert shown("q1\u200b") == "'q1\\u200b'"
    assert shown("q1\u00a0") == "'q1\\u00a0'"
    assert shown("q 1") == "'q 1'"


CANONICAL = ["recall@5", "hit@10", "ndcg@5", "legacy_recall@10", "qa_accuracy", "qa_mean_score"]


@st.composite
def misspelt(draw: st.DrawFn) -> tuple[str, str]:
    """A canonical metric name and a spelling that differs only by case, padding, zeros or separators."""
    name = draw(st.sampled_from(CANONICAL))
    head, at, k = name.partition("@")
    if at:
        k = "0" * draw(st.integers(0, 3)) + k
        at = draw(st.sampled_from(["@", "_at_", "-at-", " @ ", "@", "＠", "_"]))
    head = "".join(c.upper() if draw(st.booleans()) else c for c in head)
    if draw(st.booleans()):
        head = head.replace("_", draw(st.sampled_from(["-", " ", "", "."])))
    text = head + at + k
    text = draw(st.sampled_from(["", " ", "\u00a0", "\u200b"])) + text + draw(st.sampled_from(["", " ", "\t", "\u200b"]))
    return name, text


@given(misspelt())
@settings(max_examples=400)
def test_misspelt_metric_names_share_the_skeleton(pair: tuple[str, str]) -> None:
    name, text = pair
    assert metric_skeleton(text) == metric_skeleton(name)


@pytest.mark.parametrize(
    ("text", "skeleton"),
    [("Recall@5", "recall@5"), ("recall@05", "recall@5"), ("recall@5 ", "recall@5"), ("recall_at_5", "recall@5"),
     ("RECALL-5", "recall@5"), ("recall@0", "recall@0"), ("recall@1000000", "recall@1000000"),
     ("legacy_recall@10", "legacyrecall@10"), ("mrr", "mrr"), ("precision@5", "precision@5")],
)
def test_metric_skeleton(text: str, skeleton: str) -> None:
    assert metric_skeleton(text) == skeleton


def test_different_metrics_keep_different_skeletons() -> None:
    names = ["recall@5", "recall@10", "hit@5", "ndcg@5", "legacy_recall@5", "qa_accuracy", "qa_mean_score",
             "qa_correct_count", "qa_evaluated_count"]
    assert len({metric_skeleton(n) for n in names}) == len(names)
