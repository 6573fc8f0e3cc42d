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
    - The fixed words (title, headings, labels, empty-section notes) come from `doc.words`, one
      `DocumentWords` per problem language; the English words render the original bytes.
    - Every string from the state (the person's or a model's) is escaped (`markdown_safety`): no raw
      HTML, no link but http/https/mailto evidence URLs, no Markdown structure from inside a field.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from forge.core.document.markdown_safety import escape_inline, escape_markdown, markdown_link, mermaid_label
from forge.core.document.words import ENGLISH_DOCUMENT_WORDS, DocumentWords
from forge.core.domain_types import ClaimStatus, Contributor
from forge.core.frame.problem_constraints import split_constraints
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import Claim, DocumentNarrative, Evidence, TrizCell

DOCUMENT_SECTIONS: tuple[str, ...] = ENGLISH_DOCUMENT_WORDS.sections


@dataclass(frozen=True, slots=True)
class DocumentInput:
    session_id: str
    state: ForgeState
    model_label: str
    generated_at: datetime
    words: DocumentWords = ENGLISH_DOCUMENT_WORDS


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


def _framing(s: ForgeState, w: DocumentWords) -> list[str]:
    lines = [*_quote(s.problem), "", w.selected_reframings, ""]
    reframings = [f"{escape_inline(r.text)} _({w.label(r.reframing_type.value)})_" for r in s.selected_reframings]
    return lines + _bullets(reframings, w.none_selected)


def _fundamentals(s: ForgeState, w: DocumentWords) -> list[str]:
    lines = [w.fundamentals, "", *_bullets_of(s.fundamentals, w.none_recorded), "", w.assumptions, ""]
    labels = {True: w.assumption_confirmed, False: w.assumption_rejected, None: w.assumption_unreviewed}
    return lines + _bullets(
        [f"{escape_inline(a.text)} _({labels[a.confirmed]})_" for a in s.assumptions], w.none_recorded
    )


def _state_of_art(s: ForgeState, w: DocumentWords) -> list[str]:
    if s.state_of_art is None:
        return [f"_{w.not_mapped}_"]
    cites = ", ".join(markdown_link(e.title, e.source) for e in s.state_of_art.evidence)
    sources = w.sources_line.format(cites=cites) if cites else f"_{w.no_sources}_"
    return [escape_markdown(s.state_of_art.summary), "", sources]


def _analogies(s: ForgeState, w: DocumentWords) -> list[str]:
    lines: list[str] = []
    for a in s.cross_domain_analogies:
        star = " ★" if a.starred else ""
        distance = w.analogy_distance.format(distance=w.label(a.semantic_distance.value))
        lines += [f"### {escape_inline(a.source_domain)}{star} _({distance})_", "", escape_markdown(a.description), ""]
        if a.mapping:
            lines += [w.analogy_table_header, "|---|---|---|"]
            lines += [
                f"| {escape_inline(m.source_concept)} | {escape_inline(m.target_concept)} | {escape_inline(m.relation)} |"
                for m in a.mapping
            ] + [""]
        if a.observable:
            lines += [w.analogy_observable.format(text=escape_inline(a.observable))]
        if a.failure_mode:
            lines += [w.analogy_failure_mode.format(text=escape_inline(a.failure_mode))]
        lines.append("")
    return lines or [f"_{w.no_analogies}_"]


def _matrix_cell(cell: TrizCell | None, w: DocumentWords) -> str:
    if cell is None:
        return ""
    return w.matrix_cell.format(
        improving=cell.improving,
        improving_name=escape_inline(cell.improving_name),
        worsening=cell.worsening,
        worsening_name=escape_inline(cell.worsening_name),
        found=w.matrix_found_principles if cell.principles else w.matrix_found_empty,
    )


def _contradictions(s: ForgeState, w: DocumentWords) -> list[str]:
    lines = [
        "- "
        + w.contradiction_head.format(a=escape_inline(c.property_a), b=escape_inline(c.property_b))
        + f"{escape_inline(c.description)} → {escape_inline(c.resolution_direction)}"
        + (w.contradiction_principles.format(principles=escape_inline(", ".join(c.principles))) if c.principles else "")
        + _matrix_cell(c.matrix_cell, w)
        for c in s.contradictions
    ] or [f"_{w.no_contradictions}_"]
    if s.morphological_box:
        lines += ["", w.morphological_box, "", w.morphological_header, "|---|---|"]
        lines += [f"| {escape_inline(p.name)} | {escape_inline(' · '.join(p.options))} |" for p in s.morphological_box]
    if s.adjacent_possible:
        lines += ["", w.adjacent_possible, "", *_bullets_of(s.adjacent_possible, "")]
    return lines


def _claim_block(c: Claim, w: DocumentWords) -> list[str]:
    status = w.claim_status.format(
        status=w.label(c.status.value), confidence=w.label(c.confidence.value), round=c.round_created + 1
    )
    lines = [f"### {escape_inline(c.text)}", "", status]
    for label, text in (
        (w.claim_thesis, c.thesis_text),
        (w.claim_antithesis, c.antithesis_text),
        (w.claim_falsifiable_if, c.falsifiability_condition),
        (w.claim_qualification, c.qualification),
    ):
        if text:
            lines.append(w.claim_field.format(label=label, text=escape_inline(text)))
    if c.scores:
        sc = c.scores
        lines.append(
            w.claim_scores.format(
                novelty=sc.novelty,
                groundedness=sc.groundedness,
                falsifiability=sc.falsifiability,
                significance=sc.significance,
            )
        )
    if c.evidence:
        items = "; ".join(f"{markdown_link(e.title, e.source)} ({w.label(e.evidence_type.value)})" for e in c.evidence)
        lines.append(w.claim_evidence.format(items=items))
    return [*lines, ""]


def _validated(s: ForgeState, w: DocumentWords) -> list[str]:
    kept = [c for c in s.knowledge_graph_nodes if c.status != ClaimStatus.SUPERSEDED]
    return [line for c in kept for line in _claim_block(c, w)] or [f"_{w.no_validated}_"]


def _graph(s: ForgeState, w: DocumentWords) -> list[str]:
    if not s.knowledge_graph_nodes:
        return [f"_{w.graph_empty}_"]
    short = {c.id: f"C{i + 1}" for i, c in enumerate(s.knowledge_graph_nodes)}
    lines = ["```mermaid", "graph LR"]
    lines += [f'  {short[c.id]}["{mermaid_label(c.text)}"]' for c in s.knowledge_graph_nodes]
    lines += [f"  {short[e.source]} -->|{e.edge_type.value}| {short[e.target]}" for e in s.knowledge_graph_edges]
    return [*lines, "```"]


def _negative(s: ForgeState, w: DocumentWords) -> list[str]:
    return _bullets(
        [
            w.negative_item.format(claim=escape_inline(n.claim_text), reason=escape_inline(n.reason), round=n.round + 1)
            for n in s.negative_knowledge
        ],
        w.nothing_rejected,
    )


def _gaps(s: ForgeState, w: DocumentWords) -> list[str]:
    return _bullets_of(s.gaps, w.no_gaps)


def _all_evidence(s: ForgeState) -> list[Evidence]:
    found: dict[str, Evidence] = {}
    pools = [s.state_of_art.evidence if s.state_of_art else ()] + [c.evidence for c in s.all_claims]
    pools += [c.evidence for c in s.knowledge_graph_nodes]
    for pool in pools:
        for e in pool:
            found.setdefault(e.source, e)
    return sorted(found.values(), key=lambda e: e.source)


def _sources(s: ForgeState, w: DocumentWords) -> list[str]:
    rows = []
    for e in _all_evidence(s):
        if e.contributed_by == Contributor.USER:
            origin = w.source_user
        else:
            origin = w.source_query.format(query=escape_inline(e.query)) if e.query else w.source_research
        rows.append(f"- {markdown_link(e.title, e.source)} — {origin}")
    return rows or [f"_{w.no_sources}_"]


def _narrative(n: DocumentNarrative | None, w: DocumentWords) -> list[str]:
    if n is None:
        return []
    numbered = [f"{i}. {escape_inline(r)}" for i, r in enumerate(n.recommendations, 1)]
    return [
        f"## {w.summary_heading}",
        "",
        w.narrative_written_by.format(model=escape_inline(n.written_by)),
        "",
        *[escape_markdown(line) for line in n.executive_summary.splitlines()],
        "",
        w.recommendations,
        "",
        *numbered,
        "",
        w.open_questions,
        "",
        *_bullets_of(list(n.open_questions), w.none),
        "",
    ]


def _direct_answer(s: ForgeState, w: DocumentWords) -> list[str]:
    pack = s.answer_pack
    if pack is None:
        return []
    status = {
        "compliant": w.compliance_compliant,
        "unverified": w.compliance_unverified,
        "violation": w.compliance_violation,
    }[pack.compliance.status.value]
    return [
        f"## {w.direct_answer_heading}",
        "",
        *[escape_markdown(line) for line in pack.direct_answer.strip().splitlines()],
        "",
        w.compliance_line.format(status=status, model=escape_inline(pack.written_by)),
        "",
    ]


_SECTIONS = (
    _framing,
    _fundamentals,
    _state_of_art,
    _analogies,
    _contradictions,
    _validated,
    _graph,
    _negative,
    _gaps,
    _sources,
)


def render_knowledge_document(doc: DocumentInput) -> str:
    s, w = doc.state, doc.words
    title = document_title(s)
    lines = [
        "# " + (w.title_with_subject.format(subject=escape_inline(title)) if title else w.title_alone),
        "",
        w.meta_session.format(session=doc.session_id),
        w.meta_generated.format(at=doc.generated_at.isoformat(timespec="seconds")),
        w.meta_model.format(model=escape_inline(doc.model_label)),
        w.meta_rounds.format(rounds=s.current_round + 1),
        "",
        *_direct_answer(s, w),
        *_narrative(s.document_narrative, w),
    ]
    for heading, render in zip(w.sections, _SECTIONS, strict=True):
        lines += [f"## {heading}", "", *render(s, w), ""]
    return "\n".join(lines).rstrip() + "\n"
