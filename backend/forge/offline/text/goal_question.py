"""The goal of a problem written as context then a question, read from the question.

People often describe the situation first and ask last: "Our library loses 30% of its evening visitors
in winter because the walk from the bus stop is dark. How can we keep them coming without building
anything new?" The goal is in the question ("keep them coming"); the context says who "them" are.
Reading the first goal-like verb of the whole text instead finds "stop" (a noun here) and makes
"is dark" the target.

Invariants:
    - Pure and deterministic heuristics over lower-cased ASCII English; no knowledge files, no IO.
    - `read_goal_clause` returns None unless one sentence reads as a question or a request with a
      main verb (`How can <subject> <verb> …`, `How to <verb> …`, `Can we <verb> …`, or an imperative
      such as `Make it start in under 2 seconds`); the caller then reads the whole text as before.
    - The clause's `verb` is the main verb as written (base form); `rest` is the text after it, up to
      the end of the sentence. Nothing is invented: both are the question's own words.
    - `resolve_pronoun` replaces a leading pronoun only with a noun phrase of the context that agrees
      in number; with no such phrase the text is returned unchanged.
    - `situation_gist` reads a stated situation ("Our nightly build fails twice a week") as subject,
      verb and what follows, only with a noun subject and a lexicon verb within five words.

Design decisions:
    - No part-of-speech tagger: the subject of `How can <subject> <verb>` ends before the first word
      of a verb lexicon (a determiner is never followed by the verb), or right after a pronoun.
    - A pronoun that acts ("they show up", "them to finish") prefers people (actor words); one that
      is acted on prefers things, and among things a direct object over a prepositional one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from forge.offline.text.goal_vocabulary import (
    PEOPLE_VERBS,
    PERSONAL_PRONOUNS,
    PHRASAL_PARTICLES,
    PHRASE_DETERMINERS,
    VERB_LEXICON,
    is_actor_word,
)
from forge.offline.text.phrasing import is_plural

SENTENCE_BREAK = re.compile(r"(?<=[.?!])\s+")
_MODALS = frozenset("can could should do does might would will must shall".split())
_PREPOSITIONS = frozenset(
    "of in on at for from to by with without during across into onto over under after before among per".split()
)
_QUANTITY_WORDS = frozenset("more many most few fewer less all some no several".split())
_ADVERBS = frozenset("still also ever actually really best better finally truly possibly realistically".split())
# Verbs that say nothing of the goal: "what can we do about it" has no target of its own.
_EMPTY_VERBS = frozenset("do be have go".split())
PLURAL_PRONOUNS = frozenset({"them", "they", "these", "those"})
# "this"/"that" often point at a whole situation ("How can the company reduce that?"), not a noun
# phrase: they are left as they are, and the caller reads the target elsewhere.
SINGULAR_PRONOUNS = frozenset({"it"})
PRONOUNS = PLURAL_PRONOUNS | SINGULAR_PRONOUNS | frozenset({"this", "that"})
_THIRD_PERSON = re.compile(r"(?:ies|es|s)$")


@dataclass(frozen=True, slots=True)
class GoalClause:
    verb: str  # the main verb as written, base form ("keep", "protect")
    rest: str  # the question's words after the verb ("them coming without building anything new")
    context: str  # the sentences before the question, where its pronouns point


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_BREAK.split(text.strip()) if s.strip()]


def words_of(text: str) -> list[str]:
    return re.findall(r"[a-z0-9][a-z0-9\-']*", text.lower())


def verb_base(word: str) -> str | None:
    """The lexicon verb `word` is a form of, base or third person ("loses" -> "lose", "flies" -> "fly")."""
    if word in VERB_LEXICON:
        return word
    if not _THIRD_PERSON.search(word):
        return None
    return next((base for base in (word[:-3] + "y", word[:-2], word[:-1]) if base in VERB_LEXICON), None)


def is_verb_form(word: str) -> bool:
    return verb_base(word) is not None


def read_goal_clause(problem: str) -> GoalClause | None:
    """The goal clause of the last question (or, with none, the last request) in `problem`."""
    found = sentences(problem)
    questions = [i for i, s in enumerate(found) if s.endswith("?")]
    for i in reversed(questions or range(len(found))):
        clause = _clause_of(words_of(found[i]), asked=bool(questions))
        if clause is not None:
            verb, rest = clause
            return GoalClause(verb, " ".join(rest), " ".join(found[:i]).lower())
    return None


def _clause_of(words: list[str], *, asked: bool) -> tuple[str, list[str]] | None:
    while words and words[0] in ("and", "so", "but", "then"):
        words = words[1:]
    if len(words) < 2:
        return None
    # A request ("Reduce …", "Make it start …") opens with its verb.
    start = _verb_start_of_question(words) if asked else (0 if words[0] in VERB_LEXICON else None)
    if start is None or start >= len(words) or words[start] in _EMPTY_VERBS:
        return None
    return words[start], words[start + 1 :]


def _verb_start_of_question(words: list[str]) -> int | None:
    if words[0] in ("how", "what") and len(words) > 2 and words[1] == "to":  # "How to keep …"
        return 2
    if words[0] in ("how", "what") and words[1] in _MODALS:
        subject = 2
    elif words[0] in _MODALS:  # "Can we keep …"
        subject = 1
    else:
        return None
    return _after_subject(words, subject)


def _after_subject(words: list[str], start: int) -> int | None:
    if start >= len(words):
        return None
    if words[start] in PERSONAL_PRONOUNS:
        verb = start + 1
    else:
        # After a determiner the next word is part of the subject; a bare subject may be one word.
        first = start + 2 if words[start] in PHRASE_DETERMINERS else start + 1
        verb = next((j for j in range(first, min(first + 3, len(words))) if is_verb_form(words[j])), -1)
        if verb < 0:
            return None
    while verb < len(words) and words[verb] in _ADVERBS:
        verb += 1
    if verb < len(words) and (
        words[verb] in _PREPOSITIONS or words[verb] in PHRASE_DETERMINERS or not words[verb].isalpha()
    ):
        return None  # "How can we, with a fixed budget, cut …": an aside, not the verb
    return verb


def acts_on_people(verb: str) -> bool:
    """Whether a pronoun after `verb` most likely means people ("keep them", "retain them")."""
    return verb in PEOPLE_VERBS


def resolve_pronoun(text: str, context: str, *, acts: bool) -> str:
    """`text` with its leading pronoun replaced by the context's noun phrase it most likely means."""
    head, _, tail = text.partition(" ")
    if head not in PLURAL_PRONOUNS | SINGULAR_PRONOUNS or not context:
        return text
    candidates = _noun_phrases(words_of(context), plural=head in PLURAL_PRONOUNS)
    if not candidates:
        return text

    def preference(item: tuple[int, str, bool]) -> tuple[bool, bool, int]:
        _, phrase, after_preposition = item
        return (is_actor_word(phrase.split()[-1]) != acts, after_preposition, item[0])

    chosen = min(candidates, key=preference)[1]
    return f"{chosen} {tail}".strip()


def _noun_phrases(words: list[str], *, plural: bool) -> list[tuple[int, str, bool]]:
    """(position, phrase, follows a preposition) of the context's noun phrases of that number: a
    head noun with up to two modifiers, opened by a determiner, number, preposition, verb, quantity
    word or the start of the text (so a verb after a noun, "library loses", is not taken)."""
    if not plural:
        return _opening_phrase(words)
    found: list[tuple[int, str, bool]] = []
    for i, word in enumerate(words):
        if not is_plural(word) or word.endswith("'s") or is_verb_form(word):
            continue
        start = i
        while start > 0 and i - start < 2 and _modifier(words[start - 1]):
            start -= 1
        before = words[start - 1] if start > 0 else ""
        if start == 0 or _opens_phrase(before):
            found.append((i, " ".join(words[start : i + 1]), before in _PREPOSITIONS))
    return found


def _opening_phrase(words: list[str]) -> list[tuple[int, str, bool]]:
    """The context's first noun phrase (its topic): what "it" most often points back to."""
    start = 1 if words and words[0] in PHRASE_DETERMINERS else 0
    end = start
    while end < len(words) and end - start < 3 and _modifier(words[end]):
        end += 1
    return [(start, " ".join(words[start:end]), False)] if end > start else []


def _modifier(word: str) -> bool:
    return (
        word.isalpha()
        and word not in PHRASE_DETERMINERS
        and word not in _PREPOSITIONS
        and word not in _MODALS
        and word not in _QUANTITY_WORDS
        and word not in PERSONAL_PRONOUNS
        and not is_verb_form(word)
        and word not in ("and", "or", "but", "because", "is", "are", "was", "were", "has", "have", "not", "cannot")
    )


def _opens_phrase(word: str) -> bool:
    return (
        word in PHRASE_DETERMINERS
        or word in _PREPOSITIONS
        or word in _QUANTITY_WORDS
        or word.isdigit()
        or word.endswith("%")
        or is_verb_form(word)
        or word in ("and", "or", "but", "because")
    )


_PORTION = re.compile(
    r"^(?:(?:a|an|one|half|most|many|some|all|much|part|two|three|a third|a quarter|a fifth)\s+)+of\s+"
)


def situation_gist(sentence: str) -> tuple[list[str], str, list[str]] | None:
    """(subject, verb base form, what follows the verb) of a sentence that states a situation:
    "Half of our seedlings die in the first month" -> (["seedlings"], "die", ["in", "the", …]).
    None when the subject is a pronoun or no lexicon verb follows it within five words."""
    lowered = _PORTION.sub("", sentence.lower())
    words = words_of(lowered)
    while words and words[0] in PHRASE_DETERMINERS:
        words = words[1:]
    verb = next((i for i in range(1, min(6, len(words))) if is_verb_form(words[i])), -1)
    while 0 < verb < len(words) - 1 and is_verb_form(words[verb + 1]):
        verb += 1  # "our nightly build fails": the subject's noun may look like a verb too
    subject = words[:verb] if verb > 0 else []
    if (
        not subject
        or subject[0] in PERSONAL_PRONOUNS
        or any(w in PHRASE_DETERMINERS or w in _PREPOSITIONS for w in subject)
    ):
        return None
    return subject, verb_base(words[verb]) or words[verb], words[verb + 1 :]


def object_of(rest: list[str]) -> str:
    """The particle and direct object after a situation's verb: "away a fifth of its bread every
    evening" -> "away bread"; "twice a week" -> "" (no determiner opens it: not an object)."""
    particle = [rest[0]] if rest and rest[0] in PHRASAL_PARTICLES else []
    words = rest[len(particle) :]
    if not words or words[0] not in PHRASE_DETERMINERS or words[0] in ("every", "each"):
        return " ".join(particle)
    phrase = " ".join(words).split(" of ")[-1].split()
    while phrase and phrase[0] in PHRASE_DETERMINERS:
        phrase = phrase[1:]
    head: list[str] = []
    for word in phrase:
        if word in PHRASE_DETERMINERS or word in _PREPOSITIONS or (head and is_verb_form(word)) or len(head) == 3:
            break
        head.append(word)
    return " ".join([*particle, *head])
