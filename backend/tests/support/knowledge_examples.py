"""Hand-made source domains for core unit tests (no files)."""

from __future__ import annotations

from forge.core.explore.library_records import (
    DomainVariable,
    ScienceField,
    SourceDomain,
    Structure,
    StructureTransfer,
)


def make_structure(name: str, relation: str = "a rises when b falls") -> Structure:
    return Structure(
        name=name,
        source_relation=relation,
        mechanism=f"{name} works by {relation}",
        key_variables=("a", "b"),
        dynamics="slow then fast",
        typical_observables=("a over time",),
        failure_modes=("b is fixed",),
        references=("Author, A. (1999). A book. Publisher.",),
        transfer=StructureTransfer("apply to {target} via {lever}", "watch {target}", "if {target} is fixed"),
    )


def make_domain(
    domain_id: str,
    *,
    name: str | None = None,
    field: ScienceField = ScienceField.PHYSICAL,
    summary: str = "",
    cues: tuple[str, ...] = (),
    relation: str = "a rises when b falls",
) -> SourceDomain:
    return SourceDomain(
        id=domain_id,
        name=name or domain_id.replace("_", " ").title(),
        field=field,
        summary=summary or f"Studies {domain_id.replace('_', ' ')}.",
        cue_terms=cues or (domain_id.split("_")[0],),
        key_variables=(DomainVariable("a", "first quantity"), DomainVariable("b", "second quantity")),
        structures=tuple(make_structure(f"{domain_id} structure {i}", relation) for i in range(5)),
    )
