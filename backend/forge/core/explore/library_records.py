"""Typed records of the shipped knowledge: the source-domain library and the TRIZ tables.

Invariants:
    - Every record is a frozen dataclass built once by the shell loader (`forge.knowledge`) and
      passed in; core code never reads a file.
    - A `SourceDomain` has at least `MIN_STRUCTURES` structures; each `Structure` names its
      mechanism, key variables, dynamics, typical observables, failure modes and references.
    - `ContradictionMatrix` holds the classic 39x39 grid densely: `cells[i-1][j-1]` is the ordered
      principle numbers for improving i against worsening j; the diagonal is the empty tuple and a
      lookup on it (or outside 1..39) is answered by a `MatrixLookupError` value, never an exception.

Design decision: the transfer templates the offline model fills (`{target}`, `{lever}`,
`{constraint}`) live next to the science in `StructureTransfer`, so every model and HKG read the
same structure; the templates never leak into the API's science fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

MIN_STRUCTURES = 5
PARAMETER_COUNT = 39
PRINCIPLE_COUNT = 40


class ScienceField(str, Enum):
    PHYSICAL = "physical"
    BIOLOGICAL = "biological"
    SOCIAL = "social"
    FORMAL = "formal"
    ENGINEERING = "engineering"


@dataclass(frozen=True, slots=True)
class DomainVariable:
    name: str
    meaning: str


@dataclass(frozen=True, slots=True)
class StructureTransfer:
    """Templates for carrying a structure to a problem ({target}, {lever}, {constraint})."""

    mapping: str
    observable: str
    failure: str


@dataclass(frozen=True, slots=True)
class Structure:
    name: str
    source_relation: str
    mechanism: str
    key_variables: tuple[str, ...]
    dynamics: str
    typical_observables: tuple[str, ...]
    failure_modes: tuple[str, ...]
    references: tuple[str, ...]
    transfer: StructureTransfer

    @property
    def text(self) -> str:
        """The structure's science as one text (for term matching)."""
        return f"{self.name} {self.source_relation} {self.mechanism} {self.dynamics}"


@dataclass(frozen=True, slots=True)
class SourceDomain:
    id: str
    name: str
    field: ScienceField
    summary: str
    cue_terms: tuple[str, ...]
    key_variables: tuple[DomainVariable, ...]
    structures: tuple[Structure, ...]

    @property
    def text(self) -> str:
        """Everything the domain says, for term/embedding distance to a problem."""
        variables = " ".join(f"{v.name} {v.meaning}" for v in self.key_variables)
        structures = " ".join(s.text for s in self.structures)
        return f"{self.name} {self.summary} {' '.join(self.cue_terms)} {variables} {structures}"


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
    sub_principles: tuple[str, ...]
    cue_terms: tuple[str, ...]

    @property
    def label(self) -> str:
        return f"{self.number}. {self.name}"

    def applied_to(self, target: str) -> str:
        return self.abstract_form.replace("{target}", target)


@dataclass(frozen=True, slots=True)
class MatrixLookupError:
    """Why a (improving, worsening) pair has no cell: out of range or on the diagonal."""

    message: str


@dataclass(frozen=True, slots=True)
class ContradictionMatrix:
    cells: tuple[tuple[tuple[int, ...], ...], ...]

    def lookup(self, improving: int, worsening: int) -> tuple[int, ...] | MatrixLookupError:
        """The principle numbers in matrix order; () where the classic matrix is empty."""
        for role, number in (("improving", improving), ("worsening", worsening)):
            if not 1 <= number <= PARAMETER_COUNT:
                return MatrixLookupError(
                    f"{role} parameter must be a number from 1 to {PARAMETER_COUNT}, got {number}."
                )
        if improving == worsening:
            return MatrixLookupError(
                f"improving and worsening are both parameter {improving}; the matrix has no cell on its "
                "diagonal: a parameter that must be both high and low is a physical contradiction, resolved "
                "by separating the demands in time, in space or by condition, not by the matrix."
            )
        return self.cells[improving - 1][worsening - 1]


@dataclass(frozen=True, slots=True)
class TrizKnowledge:
    parameters: tuple[TrizParameter, ...]
    principles: tuple[TrizPrinciple, ...]
    matrix: ContradictionMatrix

    def principle(self, number: int) -> TrizPrinciple | None:
        return self.principles[number - 1] if 1 <= number <= len(self.principles) else None

    def parameter(self, number: int) -> TrizParameter | None:
        return self.parameters[number - 1] if 1 <= number <= len(self.parameters) else None


@dataclass(frozen=True, slots=True)
class ShippedKnowledge:
    domains: tuple[SourceDomain, ...]
    triz: TrizKnowledge

    def domain(self, name_or_id: str) -> SourceDomain | None:
        wanted = name_or_id.strip().lower()
        return next((d for d in self.domains if wanted in (d.id.lower(), d.name.lower())), None)
