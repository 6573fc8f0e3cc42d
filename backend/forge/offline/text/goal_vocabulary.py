"""The words the offline problem reading knows: goal verbs by direction, particles and comparatives
that set a direction, the words that end a phrase, filler, and nouns that name actors.

Invariants:
    - Data only (lower-case English words, and `is_actor_word`); `read_target`, `goal_question` and
      `problem_frame` hold the reading. Each fact is listed once: the verb lexicon is the goal verbs
      plus `OTHER_VERBS`, and `SUBJECT_PRONOUNS` extends `PERSONAL_PRONOUNS`.
    - A word list changes what every offline session reads from its problem: extend it with words
      that are unambiguous in problem statements, and add a case to tests/offline/test_problem_frame.py.
"""

from __future__ import annotations

DECREASE_VERBS = tuple(
    """cut reduce lower decrease minimize minimise shrink shorten curb limit prevent avoid stop
    eliminate slow halve lessen mitigate combat tackle fight end""".split()
)
INCREASE_VERBS = tuple(
    """increase improve raise boost grow maximize maximise accelerate expand strengthen enhance
    double retain sustain speed extend prolong lengthen""".split()
)
ACHIEVE_VERBS = tuple("""make achieve build design create ensure enable get develop deliver keep find bring""".split())
PARTICLES = {"down": "decrease", "low": "decrease", "under control": "decrease", "up": "increase", "high": "increase"}
# "make decisions faster": the target is the quantity the comparative names ("the speed of decisions").
COMPARATIVES = {
    "faster": ("speed", "increase"),
    "quicker": ("speed", "increase"),
    "better": ("quality", "increase"),
    "easier": ("ease", "increase"),
    "safer": ("safety", "increase"),
    "stronger": ("strength", "increase"),
    "cheaper": ("cost", "decrease"),
    "shorter": ("length", "decrease"),
    "smaller": ("size", "decrease"),
    "slower": ("speed", "decrease"),
    "leaner": ("waste", "decrease"),
}
BOUNDARY_WORDS = tuple(
    """without while whilst given under with but despite for by in so when if using through
    within at on and or from because across during via before after unless among that to""".split()
)
PHRASE_DETERMINERS = frozenset(
    """the a an our its their my your his her this that these those all some every each any""".split()
)
CONNECTORS = (
    r"without|while|whilst|given|under|but|despite|within|unless|with no|with only|using only|"
    r"no more than|at no extra|with (?:a |an |the )?(?:fixed|limited|same|existing|current|small|"
    r"tight|flat|frozen|modest|shrinking|constant)|on (?:a |an )(?:fixed|limited|tight|small|shoestring)|"
    r"on (?:fixed|limited|tight|shoestring)"
)
FILLER = frozenset(
    """fixed limited existing current same small tight flat frozen modest shrinking constant
    extra whole high low new old big large good bad better worse faster slower cheaper easier harder keep
    down without while given despite within unless only able possible ever longer shorter fewer single every
    losing lose loses lost away never sure abandon forget skip miss take spend expect come leave sign
    looking burning twice half once fifth quarter third rose fell risen fix solve""".split()
)
PERSONAL_PRONOUNS = frozenset({"we", "i", "you", "they", "it", "one", "he", "she", "someone", "people"})
# Never an actor, even before "'s" ("what's the best way", "it's", "there's").
SUBJECT_PRONOUNS = PERSONAL_PRONOUNS | {"what", "that", "there", "here", "who", "let", "how"}
ACTOR_WORDS = frozenset(
    """hospital clinic patient nurse doctor physician staff team manager city council
    government ministry agency school teacher student parent company firm startup employer employee worker
    customer user client developer maintainer contributor volunteer community resident citizen household
    farmer driver rider passenger researcher scientist lab university organization organisation member
    donor investor regulator supplier retailer shop owner landlord tenant operator police utility
    charity ngo hire newcomer library museum bakery restaurant cafe factory warehouse bank airline
    airport engineer commuter visitor traveller traveler shopper reader learner caregiver family""".split()
)
# "give away", "pile up", "speed up": a particle belongs to the verb before it.
PHRASAL_PARTICLES = frozenset("up down away out off back over".split())
# Verbs a problem or its question commonly uses besides the goal verbs above: with them the verb
# lexicon tells where a subject ends and keeps verbs ("loses", "answers") out of noun phrases.
OTHER_VERBS = frozenset(
    """abandon adapt add answer attract automate balance change check choose clean combine convince cool
    decide detect engage encourage feed finish fix flood forget form free handle heat help hire lose
    manage measure miss monitor motivate move persuade plan predict protect provide reach recover recruit
    recycle remove replace reuse review run save scale schedule sell serve share skip solve spend spread
    store support take teach throw track train turn use waste win give survive send ship return offer
    welcome fail die break crash pile drop fall rise leak stall slip wait quit decline suffer struggle
    exceed block delay jam clog rot spoil freeze overheat arrive churn""".split()
)
VERB_LEXICON = frozenset(DECREASE_VERBS + INCREASE_VERBS + ACHIEVE_VERBS) | OTHER_VERBS
# Verbs whose object is usually people: "keep them" after "teachers leave the city" means the teachers.
PEOPLE_VERBS = frozenset(
    "keep retain attract help motivate convince persuade encourage engage train teach hire recruit serve reach welcome".split()
)


def is_actor_word(word: str) -> bool:
    """An actor noun, singular or plural ("hospital", "nurses")."""
    return word in ACTOR_WORDS or word.removesuffix("s") in ACTOR_WORDS
