"""The words the offline problem reading knows: goal verbs by direction, particles and comparatives
that set a direction, the words that end a phrase, filler, and nouns that name actors.

Invariants:
    - Data only (lower-case English words); `problem_frame` and `goal_question` hold the reading.
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
PHRASE_DETERMINERS = tuple(
    """the a an our its their my your his her this that these those all some every each""".split()
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
# Never an actor, even before "'s" ("what's the best way", "it's", "there's").
SUBJECT_PRONOUNS = frozenset(
    {"we", "i", "you", "they", "one", "it", "people", "someone", "what", "that", "there", "here", "who", "let", "how"}
)
ACTOR_WORDS = frozenset(
    """hospital clinic patient nurse doctor physician staff team manager city council
    government ministry agency school teacher student parent company firm startup employer employee worker
    customer user client developer maintainer contributor volunteer community resident citizen household
    farmer driver rider passenger researcher scientist lab university organization organisation member
    donor investor regulator supplier retailer shop owner landlord tenant operator police utility
    charity ngo hire newcomer library museum bakery restaurant cafe factory warehouse bank airline
    airport engineer commuter visitor traveller traveler shopper reader learner caregiver family""".split()
)
