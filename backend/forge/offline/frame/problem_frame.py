"""ProblemFrame: what the problem asks to change, in which direction, under which limits, by whom.

Invariants:
    - Pure and deterministic heuristics over the problem text (no knowledge files, no IO).
    - `target`, `goal_verb` and `goal_direction` come from `read_target` (its docstring lists the
      readings: the question of a context-then-question problem first); the target is never empty.
    - `goal_direction` is one of "decrease", "increase", "achieve".
    - `levers` never repeat a target term and never include goal verbs or filler adjectives; there
      is always at least one lever and one actor (generic fallbacks are labelled as such).
    - A trailing "Constraints:" list (a line "Constraints:" then "- item" lines, as the API writes a
      session's constraints) is read as constraints, after those found in the sentence; the target
      comes from the text above the list, and the heading itself is never a term.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from forge.core.frame.problem_constraints import split_constraints
from forge.core.research.text_terms import content_terms, salient_terms
from forge.offline.text.goal_vocabulary import (
    ACHIEVE_VERBS,
    BOUNDARY_WORDS,
    CONNECTORS,
    DECREASE_VERBS,
    FILLER,
    INCREASE_VERBS,
    SUBJECT_PRONOUNS,
    is_actor_word,
)
from forge.offline.text.phrasing import gerund, is_plural, the_phrase
from forge.offline.text.read_target import find_goal_verb, read_target
from forge.offline.text.term_match import stem

_CONSTRAINT = re.compile(rf"\b(?:{CONNECTORS})\b.*?(?=[,.;:?!]|\b(?:{CONNECTORS})\b|$)")
_SUBJECT = re.compile(
    r"\b(?:can|could|should|do|does|might|would|will|must)\s+(?:a |an |the |our |my )?"
    r"([a-z][a-z\-]+)"
)
_POSSESSIVE = re.compile(r"\b([a-z][a-z\-]+)'s\b")
GENERIC_LEVERS = ("incentives", "timing", "information flow")
NO_ACTOR = "the people affected"
MIN_LEVERS = 2


@dataclass(frozen=True, slots=True)
class ProblemFrame:
    problem: str
    target: str
    goal_verb: str
    goal_direction: str
    constraints: tuple[str, ...]
    levers: tuple[str, ...]
    actors: tuple[str, ...]
    key_terms: tuple[str, ...]

    @property
    def lever(self) -> str:
        """The first lever as a whole noun phrase for a sentence ("the database", never "database")."""
        return the_phrase(self.levers[0])

    @property
    def lever_phrases(self) -> tuple[str, ...]:
        return tuple(the_phrase(lever) for lever in self.levers)

    @property
    def actor_phrases(self) -> tuple[str, ...]:
        """The actors as noun phrases for a sentence ("the bakery", "the maintainers")."""
        return tuple(the_phrase(actor) for actor in self.actors)

    @property
    def actors_their(self) -> str:
        """The possessive that agrees with the listed actors ("its" for one singular actor)."""
        single = len(self.actors) == 1 and self.actors[0] != NO_ACTOR and not is_plural(self.actors[0])
        return "its" if single else "their"

    @property
    def constraint(self) -> str:
        return self.constraints[0] if self.constraints else "within the current resources"

    @property
    def direction_verb(self) -> str:
        """The verb a sentence puts before the target: "reduce"/"increase" for a direction, else the
        problem's own verb ("keep evening visitors coming"), "achieve" when it has none."""
        return {"decrease": "reduce", "increase": "increase"}.get(self.goal_direction, self.goal_verb or "achieve")

    @property
    def plural(self) -> bool:
        return is_plural(self.target)

    @property
    def be(self) -> str:
        return "are" if self.plural else "is"

    @property
    def it(self) -> str:
        return "them" if self.plural else "it"

    @property
    def lever_be(self) -> str:
        return "are" if is_plural(self.levers[0]) else "is"

    @property
    def it_is(self) -> str:
        return "they are" if self.plural else "it is"

    @property
    def goal(self) -> str:
        """E.g. "reduce emergency wait times without more staff"."""
        return " ".join(
            p for p in (self.direction_verb, self.target, self.constraints[0] if self.constraints else "") if p
        )


def _as_phrase(item: str) -> str:
    """Lower-case the first letter ("Without more staff" -> "without more staff"), not acronyms ("GDPR")."""
    return item[0].lower() + item[1:] if len(item) > 1 and not item[1].isupper() else item


def _constraints(statement: str, listed: tuple[str, ...] = ()) -> tuple[str, ...]:
    lowered = statement.lower()
    found = [" ".join(m.group(0).split()) for m in _CONSTRAINT.finditer(lowered)]
    found += [_as_phrase(item.rstrip(".;,")) for item in listed]
    return tuple(dict.fromkeys(c for c in found if content_terms(c)))


def _banned_stems(target: str, verb: str) -> set[str]:
    banned = {stem(t) for t in content_terms(target)}
    banned |= {stem(v) for v in (*DECREASE_VERBS, *INCREASE_VERBS, *ACHIEVE_VERBS)}
    banned |= {stem(w) for w in FILLER}
    return banned | ({stem(verb)} if verb else set())


def _levers(
    problem: str, target: str, verb: str, actors: tuple[str, ...], constraints: tuple[str, ...] = ()
) -> tuple[str, ...]:
    """Salient non-target terms (terms of the constraints after the others: the limit is rarely the
    lever; the grammatical subject last: it acts); padded with generic levers (the first actor's
    workload, incentives, timing) when the text has few."""
    banned = _banned_stems(target, verb)
    subject = {stem(name) for _, name in _subject(problem.lower())}
    limits = {stem(t) for c in constraints for t in content_terms(c)}
    # A lever enters English sentences as a noun phrase: CJK bigrams are search terms, not phrases.
    # Nor the verb a target states as it happens ("die" for "seedlings dying").
    happening = set(target.split())
    found = [
        t
        for t in salient_terms(problem, 16)
        if stem(t) not in banned and t not in FILLER and t.isascii() and gerund(t) not in happening
    ]
    levers = sorted(found, key=lambda t: (stem(t) in subject, stem(t) in limits))[:5]
    actor = actors[0] if actors and actors[0] != NO_ACTOR else ""
    generic = ([f"{actor.removesuffix('s')} workload"] if actor else []) + list(GENERIC_LEVERS)
    levers += [g for g in generic if g not in levers][: max(0, MIN_LEVERS - len(levers))]
    return tuple(levers)


def _subject(lowered: str) -> list[tuple[int, str]]:
    """The noun right before the goal verb in "can a hospital cut ..." (at most three words back)."""
    found = find_goal_verb(lowered)
    if not found:
        return []
    verb_start = lowered.rfind(" ", 0, found[2] - len(found[0])) + 1
    head = _SUBJECT.search(lowered, 0, max(verb_start, 0))
    if not head:
        return []
    words = lowered[head.start(1) : verb_start].split()
    return [(head.start(1), words[-1])] if 0 < len(words) <= 3 else []


def _actors(problem: str) -> tuple[str, ...]:
    lowered = problem.lower()
    found = _subject(lowered)
    found += [(m.start(1), m.group(1)) for m in _POSSESSIVE.finditer(lowered)]
    found += [(m.start(), m.group(0)) for m in re.finditer(r"[a-z][a-z\-]+", lowered) if is_actor_word(m.group(0))]
    actors: dict[str, str] = {}
    for _, name in sorted(found):
        if name not in SUBJECT_PRONOUNS and name not in FILLER and name not in BOUNDARY_WORDS and len(name) > 2:
            actors.setdefault(stem(name.removesuffix("s")), name)
    return tuple(actors.values()) or (NO_ACTOR,)


def _key_terms(problem: str, verb: str) -> tuple[str, ...]:
    banned = _banned_stems("", verb)
    return tuple(t for t in salient_terms(problem, 12) if stem(t) not in banned)[:8]


@functools.lru_cache(maxsize=1024)  # pure: every offline call re-frames the session's problem
def frame_problem(problem: str) -> ProblemFrame:
    parts = split_constraints(problem)
    statement, listed = parts.statement, parts.constraints
    # Terms come from the statement and the listed constraints, as if the list were part of the sentence.
    text = " ".join([statement, *(f"{item.rstrip('.;,')}." for item in listed)]) if listed else problem
    target, verb, direction = read_target(statement)
    actors = _actors(text)
    return ProblemFrame(
        problem=problem.strip(),
        target=target,
        goal_verb=verb,
        goal_direction=direction,
        constraints=(constraints := _constraints(statement, listed)),
        levers=_levers(text, target, verb, actors, constraints),
        actors=actors,
        key_terms=_key_terms(text, verb),
    )
