"""Reading what a problem asks to change: its target, its goal verb and the direction of change.

Readings, first that applies wins:
    1. The question of a problem written as context then a question (`goal_question`): its main
       verb's object, with a leading pronoun resolved from the context; a purpose clause, comparative,
       quantity word or "keep X coming" shapes the target.
    2. "keep/stop/prevent X from Y" anywhere: X doing Y, to decrease.
    3. The leftmost directional goal verb (cut, reduce, improve …) and the phrase after it.
    4. The situation the first sentence states, when the question names nothing else ("Our nightly
       build fails twice a week. How do we fix this?" -> "nightly build failing", to decrease).
    5. The leftmost other goal verb (make, get, keep …), then a leading quantity word ("Less noise?"),
       then the text's most salient terms (the question itself for Chinese or Japanese).

Invariants:
    - Pure and deterministic over the problem text; the target is never empty.
    - A goal verb's word used as a noun or adjective ("the bus stop is dark", "per stop", "the lower
      town") is not a goal verb.
"""

from __future__ import annotations

import re

from forge.core.research.text_terms import content_terms, salient_terms
from forge.offline.text.goal_question import (
    PRONOUNS,
    GoalClause,
    acts_on_people,
    object_of,
    read_goal_clause,
    resolve_pronoun,
    sentences,
    situation_gist,
)
from forge.offline.text.goal_vocabulary import (
    ACHIEVE_VERBS,
    BOUNDARY_WORDS,
    COMPARATIVES,
    DECREASE_VERBS,
    INCREASE_VERBS,
    PARTICLES,
    PHRASAL_PARTICLES,
    PHRASE_DETERMINERS,
)
from forge.offline.text.phrasing import gerund, is_plural

MAX_TARGET_WORDS = 9
# A target longer than MAX_TARGET_WORDS is cut before a preposition that starts a trailing modifier,
# so it stays a whole noun phrase ("p99 write latency" rather than "... of our order-processing").
_MODIFIER_STARTS = frozenset({"of", "for", "in", "on", "at", "across", "during", "among", "per"})


def _verb_forms(verb: str) -> list[str]:
    forms = [verb, verb + "s", verb + "es", verb + "d", verb + "ed", verb + "ing"]
    if verb.endswith("e"):
        forms.append(verb[:-1] + "ing")
    if verb.endswith("y"):
        forms += [verb[:-1] + "ies", verb[:-1] + "ied"]
    if len(verb) <= 4 and verb[-1] not in "aeiouwy" and verb[-2] in "aeiou":
        forms += [verb + verb[-1] + "ing", verb + verb[-1] + "ed"]
    return forms


# A goal verb's word used as a noun or adjective: "the bus stop is dark", "per stop", "the lower town".
_NOUN_BEFORE = re.compile(r"\b(?:" + "|".join(sorted(PHRASE_DETERMINERS | {"per"})) + r")\s+$")
_NOUN_AFTER = re.compile(r"^\s+(?:is|are|was|were|has|have|had)\b")


def _as_verb(lowered: str, pattern: str) -> re.Match[str] | None:
    """The first match of `pattern` that is used as a verb (not preceded by a determiner, not
    followed by a copula)."""
    for match in re.finditer(pattern, lowered):
        if not _NOUN_BEFORE.search(lowered, 0, match.start()) and not _NOUN_AFTER.match(lowered[match.end() :]):
            return match
    return None


def find_goal_verb(lowered: str) -> tuple[str, str, int] | None:
    """(verb, direction, end offset) of the leftmost goal verb, preferring directional verbs."""
    for verbs, direction in ((DECREASE_VERBS + INCREASE_VERBS, ""), (ACHIEVE_VERBS, "achieve")):
        best: tuple[int, str, int] | None = None
        for verb in verbs:
            pattern = r"\b(?:" + "|".join(_verb_forms(verb)) + r")\b" + (r"\s+up\b" if verb == "speed" else "")
            match = _as_verb(lowered, pattern)
            if match and (best is None or match.start() < best[0]):
                best = (match.start(), verb, match.end())
        if best:
            _, verb, end = best
            chosen = direction or ("decrease" if verb in DECREASE_VERBS else "increase")
            return verb, chosen, end
    return None


def _cut_phrase(text: str) -> str:
    """The phrase up to punctuation or a boundary word, without leading determiners/possessives."""
    phrase = re.split(r"[,.;:?!()]", text, maxsplit=1)[0]
    words = phrase.split()
    for i, word in enumerate(words):
        if i > 0 and word in BOUNDARY_WORDS:
            words = words[:i]
            break
    while words and (words[0] in PHRASE_DETERMINERS or words[0] in BOUNDARY_WORDS):
        words = words[1:]
    if words and words[0].endswith("'s") and len(words) > 1:
        words = words[1:]
    return " ".join(_whole_phrase(words))


def _whole_phrase(words: list[str]) -> list[str]:
    """At most MAX_TARGET_WORDS words, never ending mid-phrase: a longer target loses its trailing
    modifier ("... of our order-processing service"), not just its last words."""
    if len(words) <= MAX_TARGET_WORDS:
        return words
    cuts = [i for i in range(1, MAX_TARGET_WORDS + 1) if words[i] in _MODIFIER_STARTS]
    return words[: cuts[-1]] if cuts else words[:MAX_TARGET_WORDS]


def _refine_target(target: str, verb: str, direction: str) -> tuple[str, str]:
    """Strip trailing particles ("down") and comparatives ("faster"), which set the direction."""
    for particle, implied in PARTICLES.items():
        if target.endswith(" " + particle):
            return target[: -len(particle) - 1].strip(), implied if direction == "achieve" else direction
    words = target.split()
    if verb == "make" and len(words) > 1 and words[-1] in COMPARATIVES:
        quantity, implied = COMPARATIVES[words[-1]]
        return f"the {quantity} of {' '.join(words[:-1])}", implied
    return target, direction


# "keep maintainers from burning out": the thing to decrease is "maintainers burning out", even when a
# directional verb ("while growing its user base") appears later in the sentence.
_KEEP_FROM = re.compile(
    r"\b(?:keep|keeps|keeping|stop|stops|stopping|prevent|prevents|preventing)\s+(.+?)\s+from\s+"
    r"([a-z\-]+)(?:\s+([a-z\-]+))?"
)


def _keep_from_target(lowered: str) -> str | None:
    match = _KEEP_FROM.search(lowered)
    if not match:
        return None
    who = _cut_phrase(match.group(1))
    action, follower = match.group(2), match.group(3) or ""
    # "burning out", "going bankrupt": keep a second word unless it starts a new phrase ("leaving the").
    if follower and follower not in PHRASE_DETERMINERS and follower not in BOUNDARY_WORDS:
        action = f"{action} {follower}"
    target = f"{who} {action}".strip()
    return target if content_terms(who) else None


_QUANTIFIER = re.compile(r"^\s*(less|fewer|more)\s+(.+)")


_PURPOSE = re.compile(r"\b(?:in order |so as )?to ([a-z]+)\b")
_TO_INFINITIVE = re.compile(r"^((?:[a-z\-']+ ){0,2}?[a-z\-']+) to ([a-z]+)\b(.*)$")
_ACTING_PRONOUN = re.compile(r"^(they|these|those) ([a-z]+\b.*)$")


def _question_target(clause: GoalClause) -> tuple[str, str, str] | None:
    """(target, verb, direction) from the statement's question ("… How can we keep them coming?"),
    its pronoun resolved from the sentences before; None when the question has no usable target."""
    verb, rest = clause.verb, clause.rest
    if verb == "make" and rest.startswith("sure "):  # "make sure they show up"
        verb, rest = "ensure", rest.removeprefix("sure ").removeprefix("that ")
    purpose = _PURPOSE.search(rest)  # "split the backlog into parts to reduce delay": the goal is the purpose
    if purpose and verb not in DECREASE_VERBS + INCREASE_VERBS and purpose.group(1) in DECREASE_VERBS + INCREASE_VERBS:
        verb, rest = purpose.group(1), rest[purpose.end() :].strip()
    kept = _keep_from_target(f"{verb} {rest}")
    if kept:
        return _resolved(kept, clause, acts=True), "prevent", "decrease"
    if rest.split(" ", 1)[0] in PHRASAL_PARTICLES:  # "speed up drug discovery", "cut down on overtime"
        rest = rest.split(" ", 1)[1]
    if not rest or (rest.split()[0] in BOUNDARY_WORDS and rest.split()[0] not in ("on", "for")):
        return None  # "answer within a day": the verb has no object here to be the target
    return _clause_target(verb, rest, clause)


def _clause_target(verb: str, rest: str, clause: GoalClause) -> tuple[str, str, str] | None:
    direction = "decrease" if verb in DECREASE_VERBS else "increase" if verb in INCREASE_VERBS else "achieve"
    quantity = _QUANTIFIER.match(rest)  # "get more of them to finish checkout", "use less paint"
    if quantity:
        verb, rest = "", quantity.group(2).removeprefix("of ")
        direction = "decrease" if quantity.group(1) in ("less", "fewer") else "increase"
    infinitive = _TO_INFINITIVE.match(rest)  # "them to finish checkout": people who do something
    pronoun_acts = _ACTING_PRONOUN.match(rest)  # "(make sure) they show up"
    acts = bool(infinitive or pronoun_acts) or acts_on_people(verb)
    if infinitive:
        rest = f"{infinitive.group(1)} who {infinitive.group(2)}{infinitive.group(3)}"
    elif pronoun_acts and verb == "ensure":
        rest = f"{pronoun_acts.group(1)} who {pronoun_acts.group(2)}"
    phrase = _cut_phrase(_resolved(rest, clause, acts=acts))
    phrase = " ".join(w for w in phrase.split() if not (w.endswith("ly") and len(w) > 4)) or phrase
    if not content_terms(phrase) or phrase.split()[0] in PRONOUNS:
        return None
    counted = _people_who(phrase, verb)
    if counted:  # a count of people to raise: "evening visitors who keep coming", "customers who pay"
        return counted, "", "increase"
    if verb == "ensure":  # a clause ("every patient shows up"), not a quantity: its particle stays
        return phrase, verb, direction
    return _comparative_target(phrase, verb, direction)


def _people_who(phrase: str, verb: str) -> str | None:
    """The phrase as a plural group of people with a relative clause, when it reads as one:
    "X who …" already, or "keep X coming" -> "X who keep coming"; else None."""
    words = phrase.split()
    at = words.index("who") if "who" in words else -1
    if at <= 0 and verb == "keep":
        at = next((i for i, w in enumerate(words) if i > 0 and w.endswith("ing") and len(w) > 4), -1)
        if at > 0:
            words = [*words[:at], "who", "keep", *words[at:]]
    if at <= 0 or not is_plural(" ".join(words[:at])):
        return None
    return " ".join(words)


def _resolved(text: str, clause: GoalClause, *, acts: bool) -> str:
    return resolve_pronoun(text, clause.context, acts=acts)


def _comparative_target(phrase: str, verb: str, direction: str) -> tuple[str, str, str]:
    """ "review pull requests faster": the target is the speed of reviewing them, to increase."""
    words = phrase.split()
    if verb not in ("", "make") and len(words) > 1 and words[-1] in COMPARATIVES:
        quantity, implied = COMPARATIVES[words[-1]]
        return f"the {quantity} of {gerund(verb)} {' '.join(words[:-1])}", "", implied
    target, direction = _refine_target(phrase, verb, direction)
    return target, verb, direction


def read_target(problem: str) -> tuple[str, str, str]:
    """(target, goal verb, direction) of the problem statement (see the module docstring)."""
    # Read once: the question's own target comes first, and it decides whether the situation applies.
    clause = read_goal_clause(problem) if problem.isascii() else None
    asked = _question_target(clause) if clause else None
    if asked:
        return asked
    lowered = problem.lower()
    kept = _keep_from_target(lowered)
    if kept:
        return kept, "prevent", "decrease"
    found = find_goal_verb(lowered)
    stated = _verb_target(lowered, found) if found else None
    if stated and stated[2] != "achieve":
        return stated
    situation = _situation_target(problem, clause)
    if situation:
        return situation
    if stated:
        return stated
    quantifier = _QUANTIFIER.match(lowered)
    if quantifier and content_terms(quantifier.group(2)):  # "Less noise?", "More trust in the data"
        target = _cut_phrase(quantifier.group(2))
        return target, quantifier.group(1), "decrease" if quantifier.group(1) in ("less", "fewer") else "increase"
    if not problem.isascii():  # Chinese, Japanese: bigram terms are no phrase; the question itself is
        return problem.strip().rstrip("?？。.!！")[:60], "", "achieve"
    fallback = " ".join(salient_terms(problem, 2)) or problem.strip()[:60]
    return fallback, "", "achieve"


def _verb_target(lowered: str, found: tuple[str, str, int]) -> tuple[str, str, str] | None:
    verb, direction, end = found
    phrase = _cut_phrase(lowered[end:].strip())
    if not content_terms(phrase):
        return None
    target, direction = _refine_target(phrase, verb, direction)
    return (target, verb, direction) if content_terms(target) else None


# Question verbs whose "this"/"that"/"it" is the situation the context states ("How do we fix this?").
_FIX_VERBS = frozenset("fix solve handle tackle stop prevent avoid address reduce cut curb end".split())


def _situation_target(statement: str, clause: GoalClause | None) -> tuple[str, str, str] | None:
    """ "Our nightly build fails twice a week. How do we fix this?": the situation the first sentence
    states ("nightly build failing") is the thing to reduce, when the question names nothing else (its
    object is "this"/"that"/"it" after a fixing verb, or it has no goal verb: "What should we do?")."""
    parts = sentences(statement) if statement.isascii() else []
    if len(parts) < 2:
        return None
    if clause is not None:
        first = clause.rest.split()[0] if clause.rest else ""
        if clause.verb not in _FIX_VERBS or first not in ("this", "that", "it"):
            return None
    gist = situation_gist(parts[0])
    if gist is None:
        return None
    subject, verb, rest = gist
    return " ".join(w for w in (*subject, gerund(verb), object_of(rest)) if w), "", "decrease"
