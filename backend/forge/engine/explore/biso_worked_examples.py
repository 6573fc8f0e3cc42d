"""One worked BISO example per prompt, from a field unlike the problem's (issue 42).

Invariants:
    - Three examples from unrelated fields (payments, materials, public policy); each shows one
      transfer at the depth the gate asks (>= 6 rows, several mapping types, one causal group, an
      observable per row) and one declined domain with its reason.
    - The example chosen is the one whose field terms share the fewest content terms with the problem
      and its frame (ties: the order below), so the example never pulls the model toward the
      problem's own field; deterministic, no model call.
"""

from __future__ import annotations

from dataclasses import dataclass

from forge.core.frame.problem_frame import ProblemFrame
from forge.core.research.text_terms import term_set


@dataclass(frozen=True, slots=True)
class WorkedExample:
    field_terms: str  # what the example is about, for the overlap with the problem
    text: str


EXAMPLES = (
    WorkedExample(
        "payments card fraud detection transactions bank merchant chargeback",
        """Target: cut card-fraud losses at a payments processor. Source: adaptive immune system.
structure: clonal selection with negative selection
statement: Train many narrow detectors on recent fraud, delete every detector that fires on the last 90 days \
of legitimate traffic, and multiply the detectors that catch confirmed fraud, so coverage follows the attack.
mapping (source -> target, type, group, observable_link):
- antigen, binds a receptor -> fraud pattern, matches a detector rule (entity, selection, rule hit rate)
- lymphocyte, carries one receptor -> detector, encodes one narrow rule (entity, selection, rules in service)
- thymic deletion, removes self-reactive cells -> pruning, deletes rules firing on legitimate traffic \
(relation, selection, false-positive rate)
- clonal expansion, multiplies cells that bind -> promotion, adds variants of rules that caught fraud \
(relation, selection, share of new rules from hits)
- affinity, strength of binding -> match score of a transaction (attribute, scoring, score distribution)
- memory cells speed the second response -> retained rules cut time-to-detect for a repeated attack \
(higher_order, selection, days to detect a repeat)
observable: fraud basis points and false-decline rate per month, before and after.
failure_modes: fraudsters adapt faster than the promotion cycle; legitimate behaviour drifts, so pruning \
against stale traffic deletes useful detectors.
Declined example: source "glacier flow" for this target: hypotheses [], decline_reason "its structures \
(basal sliding, creep under load) need continuous stress fields; card fraud has no quantity that plays that role".""",
    ),
    WorkedExample(
        "concrete cement material crack durability structure building corrosion",
        """Target: make concrete bridge decks last longer between repairs. Source: bone remodelling.
structure: damage-triggered remodelling (osteoclast/osteoblast coupling)
statement: Embed capsules that release a healing agent where microcracks open, so repair is triggered by the \
damage itself rather than by inspection, closing cracks below 0.3 mm before water and chlorides reach the steel.
mapping (source -> target, type, group, observable_link):
- microcrack, signals through dying osteocytes -> microcrack, ruptures capsules along its path \
(relation, repair loop, capsules ruptured per m2)
- osteoclast, removes damaged bone -> water ingress, dissolves capsule wall (entity, repair loop, ingress depth)
- osteoblast, lays new matrix -> healing agent, precipitates calcite in the crack (entity, repair loop, crack \
closure %)
- remodelling rate, set by load -> release rate, set by crack width (attribute, repair loop, width vs closure)
- coupling: removal triggers deposition -> crack opening triggers its own sealing (higher_order, repair loop, \
time from crack to seal)
- bone density -> residual capsule density (attribute, capacity, capsules left after 10 years)
observable: chloride depth at the rebar and crack widths at 5 years, against plain decks.
failure_modes: capsules are single-use, bone is not: a crack that reopens in the same place stays open.
Declined example: source "auction theory" for this target: hypotheses [], decline_reason "its structures \
allocate scarce goods among bidders; a deck has no bidders or prices that could carry the mechanism".""",
    ),
    WorkedExample(
        "policy government city council regulation public citizens housing vote",
        """Target: help a city council decide faster without worse decisions. Source: honeybee nest-site selection.
structure: quorum sensing with graded recruitment
statement: Let working groups advance options in parallel, each recruiting members in proportion to assessed \
quality, and commit the council once a fixed quorum of members backs one option, instead of waiting for a vote.
mapping (source -> target, type, group, observable_link):
- scout bee, inspects one site -> council member, studies one option (entity, decision loop, options studied)
- waggle dance length, grows with site quality -> briefing time, grows with assessed quality \
(attribute, decision loop, minutes per option)
- recruitment, more dancers bring more scouts -> endorsement, backers bring colleagues (relation, decision loop, \
backers per week)
- quorum threshold at the site -> commitment threshold of backers (relation, decision loop, backers at commit)
- cross-inhibition, stop signals to rival dancers -> rival groups pause when one nears quorum \
(higher_order, decision loop, days from quorum to decision)
- swarm waits on a branch -> the service waits under an interim rule (entity, cost, cost of delay per week)
observable: days from proposal to decision and the share of decisions reversed within two years.
failure_modes: bees share one interest; council factions do not, so recruitment can track alliances, not quality.
Declined example: source "crystal lattice defects" for this target: hypotheses [], decline_reason "its \
structures are about atoms in a periodic lattice; a council has no periodic order whose defects carry a mechanism".""",
    ),
)


def worked_example(problem: str, frame: ProblemFrame) -> str:
    """The example from the field farthest from the problem, introduced as such."""
    problem_terms = term_set(f"{problem} {frame.objective} {frame.target_object} {frame.target_outcome}")
    chosen = min(EXAMPLES, key=lambda e: len(term_set(e.field_terms) & problem_terms))
    return f"WORKED EXAMPLE (another field: copy its depth and form, never its content):\n{chosen.text}"
