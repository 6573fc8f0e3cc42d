"""The Knowledge Document: a pure Markdown rendering of a session in ten fixed sections.

Invariants:
    - Pure function of (DocumentInput); the same input always renders the same bytes.
    - Exactly the ten sections of `DOCUMENT_SECTIONS`, in order, each present even when empty
      (an empty section says so rather than disappearing).
    - The title (the first heading) names the subject: "Knowledge Document: " and the problem
      frame's objective when the session was framed, else the problem statement (without its
      constraints list), on one line of at most TITLE_LIMIT characters.
    - When Solve produced an AnswerPack, its direct answer (with its compliance status) opens the
      document, right after the title.
    - When the model wrote a narrative (executive summary, recommendations, open questions), it comes
      first, under "Summary", labelled with the model that wrote it; the ten sections follow.
    - Sources listed are only those carried by evidence (research results or user-supplied, and
      labelled as such); the renderer never invents a citation.
    - Every string from the state (the person's or a model's) is escaped (`markdown_safety`): no raw
      HTML, no link but http/https/mailto evidence URLs, no Markdown structure from inside a field.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from forge.core.domain_types import ClaimStatus, Contributor
from forge.core.forge_state import ForgeState
from forge.core.markdown_safety import escape_inline, escape_markdown, markdown_link, mermaid_label
from forge.core.problem_constraints import split_constraints
from forge.core.records import Claim, DocumentNarrative, Evidence, TrizCell

DOCUMENT_SECTIONS: tuple[str, ...] = (
    "1. Problem and Framing",
    "2. Fundamentals and Assumptions",
    "3. State of the Art",
    "4. Cross-Domain Analogies",
    "5. Contradictions and Solution Space",
    "6. Validated Knowledge",
    "7. Knowledge Graph",
    "8. Negative Knowledge",
    "9. Gaps and Open Questions",
    "10. Evidence and Sources",
)


@dataclass(frozen=True, slots=True)
class DocumentInput:
    session_id: str
    state: ForgeState
    model_label: str
    generated_at: datetime


TITLE_LIMIT = 120


def document_title(s: ForgeState) -> str:
    """What the document is about: the frame's objective, else the problem's statement; one line."""
    objective = s.problem_frame.frame.objective if s.problem_frame else ""
    text = " ".join((objective or split_constraints(s.problem).statement).split())
    return text if len(text) <= TITLE_LIMIT else text[: TITLE_LIMIT - 1].rstrip() + "…"


def _bullets(items: list[str], empty: str) -> list[str]:
    """Bullets of already-escaped items (`_bullets_of` escapes raw text)."""
    return [f"- {item}" for item in items] if items else [f"_{empty}_"]


def _bullets_of(texts: list[str], empty: str) -> list[str]:
    return _bullets([escape_inline(t) for t in texts], empty)


def _quote(text: str) -> list[str]:
    return [f"> {escape_markdown(line)}".rstrip() for line in text.strip().splitlines()] or [">"]


def _framing(s: ForgeState) -> list[str]:
    lines = [*_quote(s.problem), "", "**Selected reframings**", ""]
    reframings = [f"{escape_inline(r.text)} _({r.reframing_type.value})_" for r in s.selected_reframings]
    return lines + _bullets(reframings, "None selected.")


def _fundamentals(s: ForgeState) -> list[str]:
    lines = ["**Fundamentals**", "", *_bullets_of(s.fundamentals, "None recorded."), "", "**Assumptions**", ""]
    labels = {True: "confirmed", False: "rejected", None: "unreviewed"}
    return lines + _bullets(
        [f"{escape_inline(a.text)} _({labels[a.confirmed]})_" for a in s.assumptions], "None recorded."
    )


def _state_of_art(s: ForgeState) -> list[str]:
    if s.state_of_art is None:
        return ["_Not mapped._"]
    cites = ", ".join(markdown_link(e.title, e.source) for e in s.state_of_art.evidence)
    return [escape_markdown(s.state_of_art.summary), "", f"Sources: {cites}" if cites else "_No sources._"]


def _analogies(s: ForgeState) -> list[str]:
    lines: list[str] = []
    for a in s.cross_domain_analogies:
        star = " ★" if a.starred else ""
        heading = f"### {escape_inline(a.source_domain)}{star} _({a.semantic_distance.value} domain)_"
        lines += [heading, "", escape_markdown(a.description), ""]
        if a.mapping:
            lines += ["| Source | Target | Relation |", "|---|---|---|"]
            lines += [
                f"| {escape_inline(m.source_concept)} | {escape_inline(m.target_concept)} | {escape_inline(m.relation)} |"
                for m in a.mapping
            ] + [""]
        if a.observable:
            lines += [f"- Observable: {escape_inline(a.observable)}"]
        if a.failure_mode:
            lines += [f"- Failure mode: {escape_inline(a.failure_mode)}"]
        lines.append("")
    return lines or ["_No analogies._"]


def _matrix_cell(cell: TrizCell | None) -> str:
    if cell is None:
        return ""
    found = "its principles" if cell.principles else "an empty cell"
    return (
        f" TRIZ matrix cell: improving #{cell.improving} {escape_inline(cell.improving_name)} against worsening "
        f"#{cell.worsening} {escape_inline(cell.worsening_name)} ({found})."
    )


def _contradictions(s: ForgeState) -> list[str]:
    lines = [
        f"- **{escape_inline(c.property_a)} vs {escape_inline(c.property_b)}**: {escape_inline(c.description)} → "
        f"{escape_inline(c.resolution_direction)}"
        + (f" (principles: {escape_inline(', '.join(c.principles))})" if c.principles else "")
        + _matrix_cell(c.matrix_cell)
        for c in s.contradictions
    ] or ["_No contradictions._"]
    if s.morphological_box:
        lines += ["", "**Morphological box**", "", "| Parameter | Options |", "|---|---|"]
        lines += [f"| {escape_inline(p.name)} | {escape_inline(' · '.join(p.options))} |" for p in s.morphological_box]
    if s.adjacent_possible:
        lines += ["", "**Adjacent possible**", "", *_bullets_of(s.adjacent_possible, "")]
    return lines


def _claim_block(c: Claim) -> list[str]:
    lines = [
        f"### {escape_inline(c.text)}",
        "",
        f"- Status: {c.status.value}; confidence: {c.confidence.value}; round {c.round_created + 1}",
    ]
    for label, text in (
        ("Thesis", c.thesis_text),
        ("Antithesis", c.antithesis_text),
        ("Falsifiable if", c.falsifiability_condition),
        ("Qualification", c.qualification),
    ):
        if text:
            lines.append(f"- {label}: {escape_inline(text)}")
    if c.scores:
        sc = c.scores
        lines.append(
            f"- Scores: novelty {sc.novelty:.2f}, groundedness {sc.groundedness:.2f}, "
            f"falsifiability {sc.falsifiability:.2f}, significance {sc.significance:.2f}"
        )
    if c.evidence:
        lines.append(
            "- Evidence: "
            + "; ".join(f"{markdown_link(e.title, e.source)} ({e.evidence_type.value})" for e in c.evidence)
        )
    return [*lines, ""]


def _validated(s: ForgeState) -> list[str]:
    kept = [c for c in s.knowledge_graph_nodes if c.status != ClaimStatus.SUPERSEDED]
    return [line for c in kept for line in _claim_block(c)] or ["_No validated claims._"]


def _graph(s: ForgeState) -> list[str]:
    if not s.knowledge_graph_nodes:
        return ["_The graph is empty._"]
    short = {c.id: f"C{i + 1}" for i, c in enumerate(s.knowledge_graph_nodes)}
    lines = ["```mermaid", "graph LR"]
    lines += [f'  {short[c.id]}["{mermaid_label(c.text)}"]' for c in s.knowledge_graph_nodes]
    lines += [f"  {short[e.source]} -->|{e.edge_type.value}| {short[e.target]}" for e in s.knowledge_graph_edges]
    return [*lines, "```"]


def _negative(s: ForgeState) -> list[str]:
    return _bullets(
        [
            f"{escape_inline(n.claim_text)} — {escape_inline(n.reason)} (round {n.round + 1})"
            for n in s.negative_knowledge
        ],
        "Nothing rejected.",
    )


def _all_evidence(s: ForgeState) -> list[Evidence]:
    found: dict[str, Evidence] = {}
    pools = [s.state_of_art.evidence if s.state_of_art else ()] + [c.evidence for c in s.all_claims]
    pools += [c.evidence for c in s.knowledge_graph_nodes]
    for pool in pools:
        for e in pool:
            found.setdefault(e.source, e)
    return sorted(found.values(), key=lambda e: e.source)


def _sources(s: ForgeState) -> list[str]:
    rows = []
    for e in _all_evidence(s):
        if e.contributed_by == Contributor.USER:
            origin = "provided by the user"
        else:
            origin = f"research query: “{escape_inline(e.query)}”" if e.query else "research"
        rows.append(f"- {markdown_link(e.title, e.source)} — {origin}")
    return rows or ["_No sources._"]


def _narrative(n: DocumentNarrative | None) -> list[str]:
    if n is None:
        return []
    numbered = [f"{i}. {escape_inline(r)}" for i, r in enumerate(n.recommendations, 1)]
    return [
        "## Summary",
        "",
        f"_Written by {escape_inline(n.written_by)} from the session's recorded work._",
        "",
        *[escape_markdown(line) for line in n.executive_summary.splitlines()],
        "",
        "**Recommendations**",
        "",
        *numbered,
        "",
        "**Open questions**",
        "",
        *_bullets_of(list(n.open_questions), "None."),
        "",
    ]


def _direct_answer(s: ForgeState) -> list[str]:
    pack = s.answer_pack
    if pack is None:
        return []
    status = {
        "compliant": "every hard constraint passed the audit",
        "unverified": "no hard constraint is violated; some could not be checked",
        "violation": "**it still violates a hard constraint** — see the AnswerPack's compliance table",
    }[pack.compliance.status.value]
    return [
        "## Direct Answer",
        "",
        *[escape_markdown(line) for line in pack.direct_answer.strip().splitlines()],
        "",
        f"_Constraint compliance: {status}. Written by {escape_inline(pack.written_by)}._",
        "",
    ]


def render_knowledge_document(doc: DocumentInput) -> str:
    s = doc.state
    sections = [
        _framing,
        _fundamentals,
        _state_of_art,
        _analogies,
        _contradictions,
        _validated,
        _graph,
        _negative,
        lambda st: _bullets_of(st.gaps, "No gaps recorded."),
        _sources,
    ]
    lines = [
        f"# Knowledge Document: {escape_inline(document_title(s))}" if document_title(s) else "# Knowledge Document",
        "",
        f"- Session: `{doc.session_id}`",
        f"- Generated: {doc.generated_at.isoformat(timespec='seconds')}",
        f"- Model: {escape_inline(doc.model_label)}",
        f"- Rounds: {s.current_round + 1}",
        "",
        *_direct_answer(s),
        *_narrative(s.document_narrative),
    ]
    for title, render in zip(DOCUMENT_SECTIONS, sections, strict=True):
        lines += [f"## {title}", "", *render(s), ""]
    return "\n".join(lines).rstrip() + "\n"
