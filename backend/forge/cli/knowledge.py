"""`forge knowledge domains | triz I W`: the shipped knowledge from the terminal.

Invariants:
    - Reads through the one loader (`forge.knowledge.load_knowledge`); prints plain text.
    - Exit codes: 0 success; 2 bad input (a parameter outside 1..39, the diagonal, or a malformed
      knowledge file), with the reason on stderr in one line.
"""

from __future__ import annotations

import sys
from textwrap import indent

from forge.core.explore.library_records import MatrixLookupError, SourceDomain, TrizKnowledge
from forge.knowledge.load_knowledge import KnowledgeFileError, load_source_domains, load_triz

EXIT_OK, EXIT_BAD_INPUT = 0, 2


def render_domain(domain: SourceDomain, *, with_structures: bool) -> str:
    head = f"{domain.id:<26} {domain.name} ({domain.field.value}, {len(domain.structures)} structures)"
    if not with_structures:
        return head
    lines = [f"- {s.name}: {s.source_relation}" for s in domain.structures]
    return head + "\n" + indent("\n".join(lines), "    ")


def render_cell(triz: TrizKnowledge, improving: int, worsening: int) -> str | MatrixLookupError:
    cell = triz.matrix.lookup(improving, worsening)
    if isinstance(cell, MatrixLookupError):
        return cell
    lines = [
        f"improving {improving}: {triz.parameters[improving - 1].name}",
        f"worsening {worsening}: {triz.parameters[worsening - 1].name}",
    ]
    if not cell:
        return "\n".join([*lines, "the classic matrix has no principles for this pair"])
    for number in cell:
        principle = triz.principles[number - 1]
        lines.append(f"  {principle.label}")
        lines += [f"      - {sub}" for sub in principle.sub_principles]
    return "\n".join(lines)


def run_domains(with_structures: bool) -> int:
    try:
        domains = load_source_domains()
    except KnowledgeFileError as error:
        print(f"forge knowledge: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print("\n".join(render_domain(d, with_structures=with_structures) for d in domains))
    print(f"{len(domains)} domains, {sum(len(d.structures) for d in domains)} structures")
    return EXIT_OK


def run_triz(improving: int, worsening: int) -> int:
    try:
        rendered = render_cell(load_triz(), improving, worsening)
    except KnowledgeFileError as error:
        rendered = MatrixLookupError(str(error))
    if isinstance(rendered, MatrixLookupError):
        print(f"forge knowledge: {rendered.message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(rendered)
    return EXIT_OK
