"""Small, deterministic English helpers for the offline model's texts.

Invariants:
    - Pure string functions; they never invent content, only reshape text from the problem and the
      shipped knowledge (imperative -> gerund, "If X, Y." -> X, singular/plural agreement).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_VOWELS = "aeiou"
_NOT_IMPERATIVE = frozenset(
    {
        "a",
        "an",
        "the",
        "part",
        "small",
        "instead",
        "to",
        "before",
        "when",
        "expect",
        "look",
        "view",
        "if",
        "many",
        "most",
        "some",
        "rising",
        "truthful",
        "clustered",
        "strong",
        "it",
        "they",
        "this",
        "there",
        "these",
        "those",
        "its",
        "their",
        "each",
    }
)
_CONTINUATION = ("or ", "and ", "but not ")
_TRAILING = re.compile(
    r", (?=(?:so|which|aiming|accepting|triggered|removing|rather|while|even|instead|keeping|an|"
    r"because|since|making|using|with|not)\b)"
)
_CLAUSE_END = re.compile(r":|;| — |\. ")
_AGREEMENT = {
    "is": "are",
    "has": "have",
    "does": "do",
    "was": "were",
    "sits": "sit",
    "moves": "move",
    "degrades": "degrade",
    "oscillates": "oscillate",
    "settles": "settle",
    "depends": "depend",
    "relies": "rely",
    "suffers": "suffer",
    "hurts": "hurt",
    "fails": "fail",
    "swings": "swing",
    "changes": "change",
    "needs": "need",
    "retraces": "retrace",
    "reflects": "reflect",
    "behaves": "behave",
    "grows": "grow",
    "falls": "fall",
    "rises": "rise",
    "stays": "stay",
    "varies": "vary",
    "runs": "run",
    "stops": "stop",
    "holds": "hold",
    "drifts": "drift",
    "reacts": "react",
    "guarantees": "guarantee",
    "consumes": "consume",
}


_DETERMINERS = frozenset(
    """the a an our its their my your his her this that these those all some each every any no""".split()
)


def the_phrase(noun_phrase: str) -> str:
    """A bare noun phrase as a definite one ("database" -> "the database"); a phrase that already opens
    with a determiner or possessive, or is not English words (Chinese, Japanese), is kept as written."""
    words = noun_phrase.split()
    if not words or not words[0][0].isascii() or not words[0][0].isalpha():
        return noun_phrase
    if words[0].lower() in _DETERMINERS or words[0].lower().endswith("'s"):
        return noun_phrase
    return f"the {noun_phrase}"


def is_plural(noun_phrase: str) -> bool:
    """Plural when the head noun (before " of " or " who ", else the last word) ends in a plain -s."""
    head = noun_phrase.split(" of ")[0].split(" who ")[0].split()
    word = head[-1].lower() if head else ""
    return len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ics"))


def agree(text: str, subject: str) -> str:
    """Make a verb agree with a plural `subject` that opens a clause ("if times is" -> "if times are")."""
    if not is_plural(subject):
        return text
    opener = r"(^|\b(?:[Ii]f|[Ww]hen|[Ww]here|[Uu]nless|that|[Ww]hether|while|as|until|after|before) )"
    pattern = re.compile(opener + re.escape(subject) + r" (" + "|".join(_AGREEMENT) + r")\b")
    return pattern.sub(lambda m: f"{m.group(1)}{subject} {_AGREEMENT[m.group(2)]}", text)


def gerund(verb: str) -> str:
    lowered = verb.lower()
    if lowered.endswith("ie"):
        return lowered[:-2] + "ying"
    if lowered.endswith("e") and not lowered.endswith(("ee", "ye", "oe")):
        return lowered[:-1] + "ing"
    groups = re.findall(r"[aeiou]+", lowered)
    if (
        len(groups) == 1
        and len(lowered) >= 3
        and lowered[-1] not in _VOWELS + "wxy"
        and lowered[-2] in _VOWELS
        and lowered[-3] not in _VOWELS
    ):
        return lowered + lowered[-1] + "ing"
    return lowered + "ing"


def top_level_split(text: str, separator: str = ", ") -> tuple[str, str] | None:
    """Split at the first separator outside parentheses not followed by a continuation ("…, or …")."""
    depth = 0
    for i, char in enumerate(text):
        depth += char == "("
        depth -= char == ")"
        if depth == 0 and text.startswith(separator, i):
            head, tail = text[:i], text[i + len(separator) :]
            if not tail.startswith(_CONTINUATION):
                return head, tail
    return None


def lower_first(text: str) -> str:
    return text[0].lower() + text[1:] if text and not text[:2].isupper() else text


def if_condition(text: str) -> str | None:
    """X from "If X, Y." (the first comma that ends a clause ends X); None for other shapes."""
    stripped = " ".join(text.split())
    if not stripped.lower().startswith(("if ", "when ")):
        return None
    body = stripped.split(" ", 1)[1]
    parts = top_level_split(body)
    return parts[0] if parts else None


def imperative_action(text: str) -> str | None:
    """The first clause of an imperative sentence as a gerund phrase ("Pool the lines" -> "pooling the lines")."""
    stripped = " ".join(text.split())
    if stripped.lower().startswith("if "):
        parts = top_level_split(stripped)
        stripped = parts[1] if parts else ""
    clause = _CLAUSE_END.split(stripped, maxsplit=1)[0].rstrip(".")
    first, _, rest = clause.partition(" ")
    if not first.isalpha() or first.lower() in _NOT_IMPERATIVE or not rest:
        return None
    return _TRAILING.split(f"{gerund(first)} {rest}", maxsplit=1)[0]


def join_words(items: Sequence[str]) -> str:
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


_IRREGULAR_PLURALS = {"risk": "risks", "direction": "directions", "claim": "claims", "source": "sources"}


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """ "no risks", "1 risk", "3 risks": a count with its noun in the right number (never "risk(s)")."""
    many = plural or _IRREGULAR_PLURALS.get(noun, noun + "s")
    if count == 0:
        return f"no {many}"
    return f"{count} {noun if count == 1 else many}"
