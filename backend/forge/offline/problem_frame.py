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
from forge.offline.goal_question import (
    PRONOUNS,
    GoalClause,
    acts_on_people,
    read_goal_clause,
    resolve_pronoun,
)
from forge.offline.goal_vocabulary import (
    ACHIEVE_VERBS,
    ACTOR_WORDS,
    BOUNDARY_WORDS,
    COMPARATIVES,
    CONNECTORS,
    DECREASE_VERBS,
    FILLER,
    INCREASE_VERBS,
    PARTICLES,
    PHRASE_DETERMINERS,
    SUBJECT_PRONOUNS,
)
from forge.offline.phrasing import gerund, is_plural, the_phrase
from forge.offline.term_match import stem

_CONSTRAINT = re.compile(rf"\b(?:{CONNECTORS})\b.*?(?=[,.;:?!]|\b(?:{CONNECTORS})\b|$)")
_SUBJECT = re.compile(
    r"\b(?:can|could|should|do|does|might|would|will|must)\s+(?:a |an |the |our |my )?"
    r"([a-z][a-z\-]+)"
)
_POSSESSIVE = re.compile(r"\b([a-z][a-z\-]+)'s\b")
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
_NOUN_BEFORE = re.compile(r"\b(?:the|a|an|our|its|their|my|your|this|that|each|every|per)\s+$")
_NOUN_AFTER = re.compile(r"^\s+(?:is|are|was|were|has|have|had)\b")


def _as_verb(lowered: str, pattern: str) -> re.Match[str] | None:
    """The first match of `pattern` that is used as a verb (not preceded by a determiner, not
    followed by a copula)."""
    for match in re.finditer(pattern, lowered):
        if not _NOUN_BEFORE.search(lowered, 0, match.start()) and not _NOUN_AFTER.match(lowered[match.end() :]):
            return match
    return None


def _find_goal_verb(lowered: str) -> tuple[str, str, int] | None:
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


_PARTICLE_OPENERS = ("up ", "down ", "out ", "back ", "off ")
_PURPOSE = re.compile(r"\b(?:in order |so as )?to ([a-z]+)\b")
_TO_INFINITIVE = re.compile(r"^((?:[a-z\-']+ ){0,2}?[a-z\-']+) to ([a-z]+)\b(.*)$")
_ACTING_PRONOUN = re.compile(r"^(they|these|those) ([a-z]+\b.*)$")


def _question_target(statement: str) -> tuple[str, str, str] | None:
    """(target, verb, direction) from the statement's question ("… How can we keep them coming?"),
    its pronoun resolved from the sentences before; None when no question has a usable target."""
    clause = read_goal_clause(statement) if statement.isascii() else None
    if clause is None:
        return None
    verb, rest = clause.verb, clause.rest
    if verb == "make" and rest.startswith("sure "):  # "make sure they show up"
        verb, rest = "ensure", rest.removeprefix("sure ").removeprefix("that ")
    purpose = _PURPOSE.search(rest)  # "split the backlog into parts to reduce delay": the goal is the purpose
    if purpose and verb not in DECREASE_VERBS + INCREASE_VERBS and purpose.group(1) in DECREASE_VERBS + INCREASE_VERBS:
        verb, rest = purpose.group(1), rest[purpose.end() :].strip()
    kept = _keep_from_target(f"{verb} {rest}")
    if kept:
        return _resolved(kept, clause, acts=True), "prevent", "decrease"
    if rest.startswith(_PARTICLE_OPENERS):  # "speed up drug discovery", "cut down on overtime"
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
    return resolve_pronoun(text, clause.context, acts=acts, actor_words=ACTOR_WORDS)


def _comparative_target(phrase: str, verb: str, direction: str) -> tuple[str, str, str]:
    """ "review pull requests faster": the target is the speed of reviewing them, to increase."""
    words = phrase.split()
    if verb not in ("", "make") and len(words) > 1 and words[-1] in COMPARATIVES:
        quantity, implied = COMPARATIVES[words[-1]]
        return f"the {quantity} of {gerund(verb)} {' '.join(words[:-1])}", "", implied
    target, direction = _refine_target(phrase, verb, direction)
    return target, verb, direction


def _target(problem: str) -> tuple[str, str, str]:
    asked = _question_target(problem)
    if asked:
        return asked
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
    quantifier = _QUANTIFIER.match(lowered)
    if quantifier and content_terms(quantifier.group(2)):  # "Less noise?", "More trust in the data"
        target = _cut_phrase(quantifier.group(2))
        return target, quantifier.group(1), "decrease" if quantifier.group(1) in ("less", "fewer") else "increase"
    if not problem.isascii():  # Chinese, Japanese: bigram terms are no phrase; the question itself is
        return problem.strip().rstrip("?？。.!！")[:60], "", "achieve"
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
    found = [t for t in salient_terms(problem, 16) if stem(t) not in banned and t not in FILLER and t.isascii()]
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
