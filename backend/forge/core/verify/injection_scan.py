"""Prompt-injection scan (seed 000 §4.3.3): a regex pre-filter over every text that reaches a
verifier — the problem, documents, research results, insights — before any scoring.

Invariants:
    - Pure and deterministic; a finding names the text's source, the pattern and a short excerpt
      around the match, so the person sees what was flagged and where.
    - Texts are normalised before matching (NFKC, zero-width characters removed, case folded,
      whitespace collapsed), so full-width letters, hidden joiners and line breaks do not slip past.
    - The patterns target instructions aimed at the model (ignore/override instructions, reveal the
      prompt, role reassignment, chat-role markers, demands for a score); ordinary prose that merely
      uses the words ("we ignore previous quarters", "the system prompt designer") is not flagged.
      It is a pre-filter, not a proof of safety: a finding flags the hypothesis for a person.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

EXCERPT_CHARS = 60
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad"))
_WORDS = r"(?:\s+[\w'-]+){0,3}?"


@dataclass(frozen=True, slots=True)
class InjectionPattern:
    name: str
    regex: re.Pattern[str]


@dataclass(frozen=True, slots=True)
class InjectionFinding:
    source: str  # e.g. "problem", "document:<id>", "research:<query>", "insight:<n>"
    pattern: str
    excerpt: str


INJECTION_PATTERNS: tuple[InjectionPattern, ...] = (
    InjectionPattern(
        "ignore_instructions",
        re.compile(
            rf"\b(?:ignore|disregard|forget|skip)\b{_WORDS}\s+(?:previous|prior|above|earlier|preceding|all|any|your|the)\b"
            rf"{_WORDS}\s+(?:instructions?|prompts?|rules|directions|guidelines|directives)\b"
        ),
    ),
    InjectionPattern(
        "override_system_prompt",
        re.compile(
            rf"\b(?:override|overwrite|replace|bypass|disable)\b{_WORDS}\s+"
            r"(?:system prompt|system message|system instructions|safety rules|guardrails)\b"
        ),
    ),
    InjectionPattern(
        "reveal_prompt",
        re.compile(
            rf"\b(?:reveal|print|show|repeat|leak|output)\b{_WORDS}\s+"
            r"(?:system prompt|hidden instructions|initial instructions|your instructions)\b"
        ),
    ),
    InjectionPattern(
        "role_reassignment",
        re.compile(
            r"\byou are now\b|\bfrom now on,? you (?:are|will|must)\b"
            r"|\bact as (?:an? )?(?:unrestricted|jailbroken|dan|developer mode)\b|\bdo anything now\b"
        ),
    ),
    InjectionPattern(
        "chat_role_marker",
        re.compile(r"<\|im_(?:start|end)\|>|</?system>|\[/?inst\]|(?:^|\n|\. )(?:system|assistant)\s*:\s"),
    ),
    InjectionPattern(
        "score_demand",
        re.compile(
            r"\b(?:rate|score|grade|mark|give)\b[^.\n]{0,40}?"
            r"(?:\b10\s*/\s*10\b|\b10 out of 10\b|\ba (?:perfect|full|maximum) score\b|\bscore of 10\b)"
            r"|\b(?:must|should) (?:be )?(?:pass(?:ed)?|accepted|approved) (?:by|this) (?:the )?(?:verifier|review|check)\b"
        ),
    ),
    InjectionPattern(
        "ignore_instructions_zh",
        re.compile(r"(?:忽略|无视|忽视|不要理会)(?:之前|以上|先前|上面|前面|所有)的?(?:所有)?(?:指令|指示|提示|规则)"),
    ),
    InjectionPattern("override_system_prompt_zh", re.compile(r"(?:覆盖|绕过|忽略)系统提示")),
)


def normalise_for_scan(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).translate(_ZERO_WIDTH).casefold()
    return re.sub(r"[ \t\r\f\v]+", " ", folded)


def scan_for_injection(texts: Mapping[str, str]) -> tuple[InjectionFinding, ...]:
    """Every pattern match in every text, in the order of `texts` then of the patterns."""
    findings: list[InjectionFinding] = []
    for source, text in texts.items():
        normal = normalise_for_scan(text)
        for pattern in INJECTION_PATTERNS:
            match = pattern.regex.search(normal)
            if match is not None:
                findings.append(InjectionFinding(source, pattern.name, _excerpt(normal, match)))
    return tuple(findings)


def _excerpt(text: str, match: re.Match[str]) -> str:
    start = max(0, match.start() - EXCERPT_CHARS // 2)
    return " ".join(text[start : match.end() + EXCERPT_CHARS // 2].split())
