"""ProblemFrame: what the problem asks to change, in which direction, under which limits, by whom.

Invariants:
    - Pure and deterministic heuristics over the problem text (no knowledge files, no IO).
    - `target` is never empty: the phrase after the goal verb when there is one, otherwise the
      problem's most salient terms.
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

from forge.core.problem_constraints import split_constraints
from forge.core.text_terms import content_terms, salient_terms
from forge.providers.offline.phrasing import is_plural
from forge.providers.offline.term_match import stem

DECREASE_VERBS = tuple(
    """cut reduce lower decrease minimize minimise shrink shorten curb limit prevent avoid stop
    eliminate slow halve lessen mitigate combat tackle fight end""".split()
)
INCREASE_VERBS = tuple(
    """increase improve raise boost grow maximize maximise accelerate expand strengthen enhance
    double retain sustain speed""".split()
)
ACHIEVE_VERBS = tuple("""make achieve build design create ensure enable get develop deliver keep find bring""".split())
_PARTICLES = {"down": "decrease", "low": "decrease", "under control": "decrease", "up": "increase", "high": "increase"}
_COMPARATIVES = {
    "faster": "increase",
    "quicker": "increase",
    "better": "increase",
    "easier": "increase",
    "safer": "increase",
    "stronger": "increase",
    "cheaper": "decrease",
    "shorter": "decrease",
    "smaller": "decrease",
    "slower": "decrease",
    "leaner": "decrease",
}
_BOUNDARY_WORDS = tuple(
    """without while whilst given under with but despite for by in so when if using through
    within at on and or from because across during via before after unless among that to""".split()
)
_DETERMINERS = tuple("""the a an our its their my your his her this that these those all some""".split())
_CONNECTORS = (
    r"without|while|whilst|given|under|but|despite|within|unless|with no|with only|using only|"
    r"no more than|at no extra|with (?:a |an |the )?(?:fixed|limited|same|existing|current|small|"
    r"tight|flat|frozen|modest|shrinking|constant)|on (?:a |an )?(?:fixed|limited|tight|small|"
    r"shoestring)"
)
_CONSTRAINT = re.compile(rf"\b(?:{_CONNECTORS})\b.*?(?=[,.;:?!]|\b(?:{_CONNECTORS})\b|$)")
_SUBJECT = re.compile(
    r"\b(?:can|could|should|do|does|might|would|will|must)\s+(?:a |an |the |our |my )?"
    r"([a-z][a-z\-]+)"
)
_POSSESSIVE = re.compile(r"\b([a-z][a-z\-]+)'s\b")
_FILLER = frozenset(
    """fixed limited existing current same small tight flat frozen modest shrinking constant
    extra whole high low new old big large good bad better worse faster slower cheaper easier harder keep
    down without while given despite within unless only able possible ever longer shorter fewer single every
    losing""".split()
)
_PRONOUNS = frozenset({"we", "i", "you", "they", "one", "it", "people", "someone"})
ACTOR_WORDS = frozenset(
    """hospital clinic patient nurse doctor physician staff team manager city council
    government ministry agency school teacher student parent company firm startup employer employee worker
    customer user client developer maintainer contributor volunteer community resident citizen household
    farmer driver rider passenger researcher scientist lab university organization organisation member
    donor investor regulator supplier retailer shop owner landlord tenant operator police utility
    charity ngo hire newcomer""".split()
)
MAX_TARGET_WORDS = 9
# A target longer than MAX_TARGET_WORDS is cut before a preposition that starts a trailing modifier,
# so it stays a whole noun phrase ("p99 write latency" rather than "... of our order-processing").
_MODIFIER_STARTS = frozenset({"of", "for", "in", "on", "at", "across", "during", "among", "per"})
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
        return self.levers[0]

    @property
    def constraint(self) -> str:
        return self.constraints[0] if self.constraints else "within the current resources"

    @property
    def direction_verb(self) -> str:
        return {"decrease": "reduce", "increase": "increase"}.get(self.goal_direction, "achieve")

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
    def it_is(self) -> str:
        return "they are" if self.plural else "it is"

    @property
    def goal(self) -> str:
        """E.g. "reduce emergency wait times without more staff"."""
        return " ".join(
            p for p in (self.direction_verb, self.target, self.constraints[0] if self.constraints else "") if p
        )


def _verb_forms(verb: str) -> list[str]:
    forms = [verb, verb + "s", verb + "es", verb + "d", verb + "ed", verb + "ing"]
    if verb.endswith("e"):
        forms.append(verb[:-1] + "ing")
    if verb.endswith("y"):
        forms += [verb[:-1] + "ies", verb[:-1] + "ied"]
    if len(verb) <= 4 and verb[-1] not in "aeiouwy" and verb[-2] in "aeiou":
        forms += [verb + verb[-1] + "ing", verb + verb[-1] + "ed"]
    return forms


def _find_goal_verb(lowered: str) -> tuple[str, str, int] | None:
    """(verb, direction, end offset) of the leftmost goal verb, preferring directional verbs."""
    for verbs, direction in ((DECREASE_VERBS + INCREASE_VERBS, ""), (ACHIEVE_VERBS, "achieve")):
        best: tuple[int, str, int] | None = None
        for verb in verbs:
            pattern = r"\b(?:" + "|".join(_verb_forms(verb)) + r")\b" + (r"\s+up\b" if verb == "speed" else "")
            match = re.search(pattern, lowered)
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
        if i > 0 and word in _BOUNDARY_WORDS:
            words = words[:i]
            break
    while words and (words[0] in _DETERMINERS or words[0] in _BOUNDARY_WORDS):
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
    for particle, implied in _PARTICLES.items():
        if target.endswith(" " + particle):
            return target[: -len(particle) - 1].strip(), implied if direction == "achieve" else direction
    words = target.split()
    if verb == "make" and len(words) > 1 and words[-1] in _COMPARATIVES:
        return " ".join(words[:-1]), _COMPARATIVES[words[-1]]
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
    if follower and follower not in _DETERMINERS and follower not in _BOUNDARY_WORDS:
        action = f"{action} {follower}"
    target = f"{who} {action}".strip()
    return target if content_terms(who) else None


def _target(problem: str) -> tuple[str, str, str]:
    lowered = problem.lower()
    kept = _keep_from_target(lowered)
    if kept:
        return kept, "prevent", "decrease"
    found = _find_goal_verb(lowered)
    if found:
        verb, direction, end = found
        phrase = _cut_phrase(lowered[end:].strip())
        if content_terms(phrase):
            target, direction = _refine_target(phrase, verb, direction)
            if content_terms(target):
                return target, verb, direction
    fallback = " ".join(salient_terms(problem, 2)) or problem.strip()[:60]
    return fallback, "", "achieve"


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
    banned |= {stem(w) for w in _FILLER}
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
    found = [t for t in salient_terms(problem, 16) if stem(t) not in banned and t not in _FILLER]
    levers = sorted(found, key=lambda t: (stem(t) in subject, stem(t) in limits))[:5]
    actor = actors[0] if actors and actors[0] != NO_ACTOR else ""
    generic = ([f"{actor.removesuffix('s')} workload"] if actor else []) + list(GENERIC_LEVERS)
    levers += [g for g in generic if g not in levers][: max(0, MIN_LEVERS - len(levers))]
    return tuple(levers)


def _subject(lowered: str) -> list[tuple[int, str]]:
    """The noun right before the goal verb in "can a hospital cut ..." (at most three words back)."""
    found = _find_goal_verb(lowered)
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
    found += [
        (m.start(), m.group(0))
        for m in re.finditer(r"[a-z][a-z\-]+", lowered)
        if m.group(0) in ACTOR_WORDS or m.group(0).removesuffix("s") in ACTOR_WORDS
    ]
    actors: dict[str, str] = {}
    for _, name in sorted(found):
        if name not in _PRONOUNS and name not in _FILLER and name not in _BOUNDARY_WORDS and len(name) > 2:
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
    target, verb, direction = _target(statement)
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
