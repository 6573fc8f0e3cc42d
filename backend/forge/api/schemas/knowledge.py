"""Response models of the read-only knowledge API (source-domain library and classic TRIZ tables).

Invariants:
    - Each model mirrors a record of `core.knowledge_records` field for field (built with `from_record`)
      and forbids other fields; the offline model's transfer templates are not part of the API.
    - Principle lists in a matrix cell keep the classic matrix order.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from forge.core.explore.library_records import ScienceField, SourceDomain, Structure, TrizParameter, TrizPrinciple


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DomainVariableOut(_Strict):
    name: str
    meaning: str


class StructureOut(_Strict):
    name: str
    source_relation: str = Field(description="The relation the structure states, in one sentence.")
    mechanism: str
    key_variables: list[str]
    dynamics: str
    typical_observables: list[str]
    failure_modes: list[str] = Field(description="Where the structure stops holding in its own domain.")
    references: list[str]

    @classmethod
    def from_record(cls, s: Structure) -> StructureOut:
        return cls(
            name=s.name,
            source_relation=s.source_relation,
            mechanism=s.mechanism,
            key_variables=list(s.key_variables),
            dynamics=s.dynamics,
            typical_observables=list(s.typical_observables),
            failure_modes=list(s.failure_modes),
            references=list(s.references),
        )


class SourceDomainOut(_Strict):
    id: str
    name: str
    field: ScienceField
    summary: str
    cue_terms: list[str]
    key_variables: list[DomainVariableOut]
    structures: list[StructureOut]

    @classmethod
    def from_record(cls, d: SourceDomain) -> SourceDomainOut:
        return cls(
            id=d.id,
            name=d.name,
            field=d.field,
            summary=d.summary,
            cue_terms=list(d.cue_terms),
            key_variables=[DomainVariableOut(name=v.name, meaning=v.meaning) for v in d.key_variables],
            structures=[StructureOut.from_record(s) for s in d.structures],
        )


class SourceDomainsResponse(_Strict):
    domains: list[SourceDomainOut]


class TrizParameterOut(_Strict):
    number: int = Field(ge=1, le=39)
    name: str

    @classmethod
    def from_record(cls, p: TrizParameter) -> TrizParameterOut:
        return cls(number=p.number, name=p.name)


class TrizParametersResponse(_Strict):
    parameters: list[TrizParameterOut]


class TrizPrincipleRef(_Strict):
    number: int = Field(ge=1, le=40)
    name: str


class TrizPrincipleOut(_Strict):
    number: int = Field(ge=1, le=40)
    name: str
    description: str
    sub_principles: list[str]

    @classmethod
    def from_record(cls, p: TrizPrinciple) -> TrizPrincipleOut:
        return cls(number=p.number, name=p.name, description=p.description, sub_principles=list(p.sub_principles))


class TrizPrinciplesResponse(_Strict):
    principles: list[TrizPrincipleOut]


class MatrixCellResponse(_Strict):
    improving: TrizParameterOut
    worsening: TrizParameterOut
    principles: list[TrizPrincipleRef] = Field(
        description="The cell's inventive principles in classic matrix order; empty where the classic matrix is empty."
    )
