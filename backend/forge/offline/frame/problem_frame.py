"""ProblemFrame: what the problem asks to change, in which direction, under which limits, by whom.

Reading (plain rules over the problem's own words, no grammar of English sentences):
    1. The leftmost directional goal verb (cut, reduce, improve …, any form the lexicon maps to it),
       the question's first, then the whole text's: the phrase after it up to punctuation or a
       boundary word is the target, without leading determiners; a trailing particle ("keep deaths
       down") sets the direction.
    2. Else the leftmost other goal verb (make, keep, protect …) the same way.
    3. Else the problem's own first sentence, quoted («…»): the offline model does not rephrase
       what it cannot read. A Chinese or Japanese problem is its own target.

Invariants:
    - Pure and deterministic; the target is never empty; `goal_direction` is "decrease", "increase"
      or "achieve".
    - `levers` are nouns of the text (by the lemminflect lexicon) that are not target terms nor goal
      verbs, constraint terms last; padded with labelled generic levers. There is always an actor.
    - `offline_frame` (the structured FrameOutput) fills the frame's fields from this reading only.
    - A trailing "Constraints:" list (as the API writes a session's constraints) is read as
      constraints after those in the sentence; the target comes from the text above it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from forge.core.frame.problem_constraints import split_constraints
from forge.core.research.text_terms import content_terms, match_key, salient_terms
from forge.engine.frame.frame_problem import FrameOutput
from forge.offline.text.wording import DETERMINERS, first_sentence, is_noun_like, lower_first, the_phrase, verb_lemma
from forge.ports import StructuredRequest

DECREASE_VERBS = frozenset(
    "cut reduce lower decrease minimize minimise shrink shorten curb limit prevent avoid stop eliminate halve "
    "lessen mitigate tackle end".split()
)
INCREASE_VERBS = frozenset(
    "increase improve raise boost grow maximize maximise accelerate expand strengthen enhance double retain "
    "sustain speed extend lengthen".split()
)
ACHIEVE_VERBS = frozenset(
    "make achieve build design create ensure enable get develop deliver keep find protect".split()
)
GOAL_VERBS = sorted(DECREASE_VERBS | INCREASE_VERBS | ACHIEVE_VERBS)
PARTICLES = {"down": "decrease", "low": "decrease", "up": "increase", "high": "increase"}
BOUNDARY_WORDS = frozenset(
    "without while whilst given under with but despite for by in so when if using through within at on and or "
    "from because across during via before after unless among that to is are was were".split()
)
PRONOUNS = frozenset("it them they this that these those".split())
CONNECTORS = (
    r"without|while|whilst|given|under|but|despite|within|unless|with no|with only|using only|"
    r"no more than|at no extra|with (?:a |an |the )?(?:fixed|limited|same|existing|current|small|"
    r"tight|flat|frozen|modest|shrinking|constant)|on (?:a |an )?(?:fixed|limited|tight|small|shoestring)"
)
ACTOR_WORDS = frozenset(
    """hospital clinic patient nurse doctor staff team manager city council government agency school teacher
    student parent company firm startup employer employee worker customer user client developer maintainer
    contributor volunteer community resident citizen household farmer driver rider passenger researcher lab
    university organization organisation member donor investor regulator supplier retailer shop owner tenant
    operator library museum bakery restaurant factory bank airline engineer commuter visitor shopper reader""".split()
)
_CONSTRAINT = re.compile(rf"\b(?:{CONNECTORS})\b.*?(?=[,.;:?!]|\b(?:{CONNECTORS})\b|$)")
_TOKENS = re.compile(r"[a-z0-9][a-z0-9\-']*|[,.;:?!()]")
GENERIC_LEVERS = ("incentives", "timing", "information flow")
NO_ACTOR = "the people affected"
MAX_TARGET_WORDS = 9
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
        """The first lever as a noun phrase for a sentence ("the staff")."""
        return the_phrase(self.levers[0])

    @property
    def constraint(self) -> str:
        return self.constraints[0] if self.constraints else "within the current resources"

    @property
    def direction_verb(self) -> str:
        """ "reduce"/"increase" for a direction, else the problem's own verb, "address" without one."""
        return {"decrease": "reduce", "increase": "increase"}.get(self.goal_direction, self.goal_verb or "address")

    @property
    def goal(self) -> str:
        """E.g. "reduce emergency wait times without more staff"."""
        return " ".join((self.direction_verb, self.target, *self.constraints[:1]))


def _goal_verb(words: list[str]) -> tuple[int, str, str] | None:
    """(index, lemma, direction) of the leftmost goal verb, directional verbs first; a word after a
    determiner or before a copula ("the stop", "the tram stop is") is a noun, not a verb."""
    for verbs in (DECREASE_VERBS | INCREASE_VERBS, ACHIEVE_VERBS):
        for i, word in enumerate(words):
            lemma = word if word in verbs else verb_lemma(word)
            noun = (i > 0 and words[i - 1] in DETERMINERS) or words[i + 1 : i + 2] in (["is"], ["are"], ["was"])
            if lemma in verbs and not noun:
                direction = "decrease" if lemma in DECREASE_VERBS else "increase" if lemma in INCREASE_VERBS else ""
                return i, lemma, direction or "achieve"
    return None


def _phrase_after(words: list[str]) -> list[str]:
    phrase: list[str] = []
    for word in words:
        if (not word[0].isalnum()) or (phrase and word in BOUNDARY_WORDS):
            break
        if phrase or (word not in DETERMINERS and word not in PARTICLES and not word.endswith("'s")):
            phrase.append(word)
    if len(phrase) > MAX_TARGET_WORDS:  # a long target loses its trailing modifier, not its last words
        cuts = [i for i, w in enumerate(phrase[:MAX_TARGET_WORDS]) if i and w in ("of", "for", "in", "on", "at")]
        phrase = phrase[: cuts[-1] if cuts else MAX_TARGET_WORDS]
    return phrase


def _verb_target(text: str) -> tuple[str, str, str] | None:
    words = _TOKENS.findall(text.lower())
    found = _goal_verb(words)
    if found is None:
        return None
    at, verb, direction = found
    phrase = _phrase_after(words[at + 1 :])
    if phrase and phrase[-1] in PARTICLES:
        direction = PARTICLES[phrase.pop()] if direction == "achieve" else direction
    if not phrase or phrase[0] in PRONOUNS or not content_terms(" ".join(phrase)):
        return None
    return " ".join(phrase), verb, direction


def read_target(statement: str) -> tuple[str, str, str]:
    """(target, goal verb, direction): see the module docstring for the order of the readings."""
    if not statement.isascii():  # Chinese, Japanese: the question itself is the target
        return statement.strip().rstrip("?？。.!！")[:60], "", "achieve"
    # A verb inside a constraint ("while growing its user base") is a limit, not the goal.
    plain = " ".join(_CONSTRAINT.sub(",", statement.lower()).split())
    questions = [s for s in re.split(r"(?<=[.?!])\s+", plain) if s.endswith("?")]
    for text in (questions[-1:] or []) + [plain]:
        found = _verb_target(text)
        if found:
            return found
    quoted = first_sentence(_CONSTRAINT.sub("", statement.strip()), 90).rstrip(" ,.?!")
    return f"«{quoted[:1].upper()}{quoted[1:]}»", "", "achieve"


def _constraints(statement: str, listed: tuple[str, ...] = ()) -> tuple[str, ...]:
    found = [" ".join(m.group(0).split()) for m in _CONSTRAINT.finditer(statement.lower())]
    found += [lower_first(item.rstrip(".;,")) for item in listed if item.strip()]
    return tuple(dict.fromkeys(c for c in found if content_terms(c)))


def _is_lever(term: str, banned: set[str]) -> bool:
    """An English noun of the text ("staff"), not an inflected verb form ("burning", "losing")."""
    return term.isascii() and match_key(term) not in banned and is_noun_like(term) and verb_lemma(term) in (None, term)


def _levers(
    text: str, target: str, verb: str, constraints: tuple[str, ...], actors: tuple[str, ...]
) -> tuple[str, ...]:
    """Salient nouns that are not the target; constraint terms and the first actor last (the limit is
    rarely the lever, and the actor acts on it)."""
    banned = {match_key(t) for t in (*content_terms(target), *GOAL_VERBS, verb)}
    limits = {match_key(t) for c in constraints for t in content_terms(c)}
    found = [t for t in salient_terms(text, 16) if _is_lever(t, banned)]
    levers = sorted(found, key=lambda t: (t == actors[0], match_key(t) in limits))[:5]
    actor = [f"{actors[0]} workload"] if actors[0] != NO_ACTOR else []
    levers += [g for g in (*actor, *GENERIC_LEVERS) if g not in levers][: max(0, MIN_LEVERS - len(levers))]
    return tuple(levers)


def _actors(text: str) -> tuple[str, ...]:
    found = [t for t in content_terms(text) if t in ACTOR_WORDS]
    return tuple(dict.fromkeys(found)) or (NO_ACTOR,)


@functools.lru_cache(maxsize=1024)  # pure: every offline call re-frames the session's problem
def frame_problem(problem: str) -> ProblemFrame:
    parts = split_constraints(problem)
    statement, listed = parts.statement, parts.constraints
    # Terms come from the statement and the listed constraints, as if the list were part of the sentence.
    text = " ".join([statement, *(f"{item.rstrip('.;,')}." for item in listed)]) if listed else problem
    target, verb, direction = read_target(statement)
    constraints = _constraints(statement, listed)
    actors = _actors(text)
    banned = {match_key(v) for v in (*GOAL_VERBS, verb)}
    return ProblemFrame(
        problem=problem.strip(),
        target=target,
        goal_verb=verb,
        goal_direction=direction,
        constraints=constraints,
        levers=_levers(text, target, verb, constraints, actors),
        actors=actors,
        key_terms=tuple(t for t in salient_terms(text, 12) if match_key(t) not in banned)[:8],
    )


# An outcome with a direction compares with the baseline; one without says the objective is met.
_OUTCOME_WORD = {"decrease": "lower", "increase": "higher"}


def offline_frame(request: StructuredRequest[Any]) -> FrameOutput:
    reading = frame_problem(request.input)
    verb = reading.direction_verb if reading.goal_verb in ("", "make") else reading.goal_verb
    target = reading.target
    objective = f"{verb.capitalize()} {target}"
    comparison = _OUTCOME_WORD.get(reading.goal_direction)
    return FrameOutput(
        objective=objective,
        target_object=target,
        target_outcome=(
            f"{target} measurably {comparison} than today's baseline"
            if comparison
            else f"{objective[0].lower()}{objective[1:]}, shown against today's baseline"
        ),
        hard_constraints=list(reading.constraints),
        success_criteria=[
            f"{target}: a baseline measured before any change, and the change against it after a fixed trial period"
        ],
        stakeholders=list(reading.actors),
        scope=f"Within the problem as stated: {request.input.splitlines()[0].strip()}",
        domain_tags=list(reading.key_terms[:3]),
    )
