"""The shipped TRIZ knowledge: 39 engineering parameters, 40 inventive principles, and choosing them.

Invariants:
    - Loading reads `triz_parameters.json` and `triz_principles.json` (and `triz_matrix.json` when
      it exists) from the knowledge directory once, when called; never at import time.
    - Detection is deterministic: parameters and principles are ranked by cue-term hits (after a
      fixed everyday-word -> cue-vocabulary expansion, TRIZ_SYNONYMS), ties broken by their number;
      fallbacks are fixed (principles 1, 10, 15, 35).
    - The improving and worsening parameters are always different.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forge.providers.offline.problem_frame import ProblemFrame
from forge.providers.offline.term_match import cue_hits, stem_set
from forge.providers.offline.vocabulary import TRIZ_SYNONYMS, expand

FALLBACK_PRINCIPLES = (1, 10, 15, 35)
FALLBACK_IMPROVING = 39  # Productivity
FALLBACK_WORSENING = 36  # Device complexity
_DIRECTION_WORDS = {"decrease": "loss less reduce", "increase": "more gain increase", "achieve": ""}
_LOSS_PREFIX = "Loss of"
_LOSS_BONUS = 0.5


@dataclass(frozen=True, slots=True)
class TrizParameter:
    number: int
    name: str
    cue_terms: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TrizPrinciple:
    number: int
    name: str
    description: str
    abstract_form: str
    cue_terms: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.number}. {self.name}"

    def applied_to(self, target: str) -> str:
        return self.abstract_form.replace("{target}", target)


@dataclass(frozen=True, slots=True)
class TrizLibrary:
    parameters: tuple[TrizParameter, ...]
    principles: tuple[TrizPrinciple, ...]
    matrix: Mapping[tuple[int, int], tuple[int, ...]]

    def principle(self, number: int) -> TrizPrinciple | None:
        return next((p for p in self.principles if p.number == number), None)

    def parameter(self, number: int) -> TrizParameter | None:
        return next((p for p in self.parameters if p.number == number), None)


def _items(raw: Any, key: str) -> list[Mapping[str, Any]]:
    items = raw.get(key, raw.get("items", [])) if isinstance(raw, dict) else raw
    return list(items or [])


def _matrix(path: Path) -> dict[tuple[int, int], tuple[int, ...]]:
    if not path.exists():
        return {}
    raw = json.loads(path.read_text(encoding="utf-8"))
    cells = raw.get("cells", raw) if isinstance(raw, dict) else raw
    if isinstance(cells, dict):
        return {
            (int(k.split(",")[0]), int(k.split(",")[1])): tuple(int(p) for p in v)
            for k, v in cells.items()
            if "," in k and isinstance(v, list)
        }
    return {(int(c["improving"]), int(c["worsening"])): tuple(int(p) for p in c["principles"]) for c in cells}


def load_triz(knowledge_dir: Path) -> TrizLibrary:
    params_path, principles_path = knowledge_dir / "triz_parameters.json", knowledge_dir / "triz_principles.json"
    try:
        parameters = tuple(
            TrizParameter(int(p["number"]), str(p["name"]), tuple(p.get("cue_terms", ())))
            for p in _items(json.loads(params_path.read_text(encoding="utf-8")), "parameters")
        )
        principles = tuple(
            TrizPrinciple(
                int(p["number"]),
                str(p["name"]),
                str(p.get("description", "")),
                str(p.get("abstract_form", p.get("description", ""))),
                tuple(p.get("cue_terms", ())),
            )
            for p in _items(json.loads(principles_path.read_text(encoding="utf-8")), "principles")
        )
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"{knowledge_dir}: malformed TRIZ knowledge ({error})") from error
    try:
        matrix = _matrix(knowledge_dir / "triz_matrix.json")
    except (KeyError, TypeError, ValueError, IndexError):
        matrix = {}
    return TrizLibrary(parameters, principles, matrix)


def _rank_parameters(library: TrizLibrary, text: str, direction: str = "") -> list[tuple[float, TrizParameter]]:
    """Parameters by distinct cue stems hit; for a decrease goal a "Loss of ..." parameter wins ties."""
    stems = stem_set(f"{text} {expand(text, TRIZ_SYNONYMS)}")
    scored = []
    for p in library.parameters:
        hits = len({stem_of for cue in cue_hits(p.cue_terms, stems) for stem_of in stem_set(cue)})
        bonus = _LOSS_BONUS if hits and direction == "decrease" and p.name.startswith(_LOSS_PREFIX) else 0.0
        scored.append((hits + bonus, p))
    return sorted([s for s in scored if s[0] > 0], key=lambda s: (-s[0], s[1].number))


def detect_parameters(library: TrizLibrary, frame: ProblemFrame) -> tuple[TrizParameter, TrizParameter]:
    """(improving, worsening): the goal's parameter, and the parameter the constraint protects."""
    goal_text = f"{frame.target} {frame.goal_verb} {_DIRECTION_WORDS[frame.goal_direction]}"
    improving_ranked = _rank_parameters(library, goal_text, frame.goal_direction) or _rank_parameters(
        library, frame.problem, frame.goal_direction
    )
    fallback_improving = library.parameter(FALLBACK_IMPROVING) or library.parameters[0]
    improving = improving_ranked[0][1] if improving_ranked else fallback_improving
    limit_text = " ".join(frame.constraints) or " ".join(frame.levers)
    worsening_ranked = [p for _, p in _rank_parameters(library, limit_text) if p.number != improving.number]
    fallback = [
        p
        for p in (library.parameter(FALLBACK_WORSENING), *library.parameters)
        if p is not None and p.number != improving.number
    ]
    return improving, (worsening_ranked or fallback)[0]


def choose_principles(
    library: TrizLibrary, frame: ProblemFrame, improving: TrizParameter, worsening: TrizParameter, count: int = 3
) -> list[TrizPrinciple]:
    """Matrix principles for the pair first (if shipped), then cue-term matches, then the fallbacks."""
    stems = stem_set(f"{frame.problem} {frame.target} {' '.join(frame.levers)}")
    numbers: list[int] = list(library.matrix.get((improving.number, worsening.number), ()))[:2]
    scored = sorted(
        ((len(cue_hits(p.cue_terms, stems)), p.number) for p in library.principles), key=lambda s: (-s[0], s[1])
    )
    numbers += [n for hits, n in scored if hits > 0]
    numbers += list(FALLBACK_PRINCIPLES)
    chosen: list[TrizPrinciple] = []
    for number in dict.fromkeys(numbers):
        principle = library.principle(number)
        if principle is not None:
            chosen.append(principle)
        if len(chosen) == count:
            break
    return chosen


def principles_named(library: TrizLibrary, names: Sequence[str]) -> list[TrizPrinciple]:
    """Principles whose label or name appears in `names` (as written by identify_contradictions)."""
    found = []
    for name in names:
        lowered = name.lower()
        match = next((p for p in library.principles if p.name.lower() in lowered), None)
        if match is not None and match not in found:
            found.append(match)
    return found
