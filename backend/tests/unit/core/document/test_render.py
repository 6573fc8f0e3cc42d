"""The Knowledge Document renderer: ten fixed sections, deterministic, never inventing a source."""

from __future__ import annotations

import re
from dataclasses import fields, is_dataclass, replace
from datetime import UTC, datetime
from enum import Enum
from uuid import UUID

from markdown_it import MarkdownIt

from forge.core.document.render import (
    DOCUMENT_SECTIONS,
    TITLE_LIMIT,
    DocumentInput,
    render_knowledge_document,
)
from forge.core.domain_types import (
    AnalogyId,
    ClaimConfidence,
    ClaimId,
    ClaimStatus,
    ClaimType,
    ContradictionId,
    Contributor,
    EdgeId,
    EdgeType,
    EvidenceId,
    EvidenceType,
    Phase,
    ReframingId,
    ReframingType,
    SemanticDistance,
)
from forge.core.frame.problem_frame import ProblemFrame, audit_frame
from forge.core.session.forge_state import ForgeState
from forge.core.session.records import (
    Analogy,
    Assumption,
    Claim,
    ClaimScores,
    Contradiction,
    DocumentNarrative,
    Edge,
    Evidence,
    MappingRow,
    MorphologicalParameter,
    NegativeKnowledge,
    Reframing,
    ResearchHit,
    ResearchRecord,
    StateOfArt,
)

GENERATED = datetime(2025, 6, 1, 12, 30, 45, 123456, tzinfo=UTC)
LINK = re.compile(r"\]\(([^)]+)\)")


def agent_evidence(n: int, query: str = "ER queue research") -> Evidence:
    return Evidence(
        EvidenceId(UUID(int=500 + n)),
        f"https://agent{n}.example",
        f"Agent source {n}",
        "summary",
        EvidenceType.SUPPORTING,
        Contributor.AGENT,
        query=query,
    )


def user_evidence(n: int) -> Evidence:
    return Evidence(
        EvidenceId(UUID(int=600 + n)),
        f"https://user{n}.example",
        "Provided by the user",
        "summary",
        EvidenceType.CONTEXTUAL,
        Contributor.USER,
    )


def node(n: int, text: str, **kw: object) -> Claim:
    return Claim(
        id=ClaimId(UUID(int=n)),
        text=text,
        claim_type=ClaimType.SYNTHESIS,
        round_created=0,
        phase_created=Phase.SYNTHESIZE,
        **kw,  # type: ignore[arg-type]
    )


def rich_state() -> ForgeState:
    validated = node(
        1,
        "Dynamic triage cuts waits",
        status=ClaimStatus.VALIDATED,
        confidence=ClaimConfidence.GROUNDED,
        thesis_text="triage helps",
        antithesis_text="triage adds overhead",
        falsifiability_condition="waits do not fall",
        scores=ClaimScores(0.8, 0.7, 0.9, 0.6),
        evidence=(agent_evidence(1), agent_evidence(2)),
    )
    qualified = node(
        2,
        'Fast tracks "work" at night',
        status=ClaimStatus.QUALIFIED,
        qualification="only in large hospitals",
        evidence=(agent_evidence(1),),
    )
    superseded = node(3, "Superseded idea", status=ClaimStatus.SUPERSEDED)
    user_claim = Claim(
        ClaimId(UUID(int=4)),
        "Nurses know best",
        ClaimType.USER_CONTRIBUTED,
        0,
        Phase.BUILD,
        status=ClaimStatus.VALIDATED,
        evidence=(user_evidence(1),),
    )
    return ForgeState(
        problem="How can hospitals reduce emergency room queues?",
        current_phase=Phase.CRYSTALLIZE,
        current_round=1,
        research_log=[
            ResearchRecord(
                "ER queue research",
                (ResearchHit("https://agent1.example", "a", "b"), ResearchHit("https://uncited.example", "u", "v")),
                Phase.DECOMPOSE,
                0,
                GENERATED,
                "fake",
            )
        ],
        fundamentals=["arrival rate", "service rate"],
        state_of_art=StateOfArt("Fast tracks and triage are common.", (agent_evidence(3),)),
        assumptions=[Assumption("staff is fixed", confirmed=True), Assumption("demand grows", confirmed=False)],
        reframings=[
            Reframing(ReframingId(UUID(int=20)), "Reduce perceived waiting", ReframingType.VARIABLE_CHANGE, True),
            Reframing(ReframingId(UUID(int=21)), "Unselected framing", ReframingType.SCOPE_CHANGE),
        ],
        morphological_box=[MorphologicalParameter("triage", ("nurse", "algorithm"))],
        cross_domain_analogies=[
            Analogy(
                AnalogyId(UUID(int=30)),
                "Airline boarding",
                "patient flow",
                "Boarding groups",
                SemanticDistance.MEDIUM,
                (MappingRow("gate", "ward", "maps to"),),
                "queue length",
                "priority abuse",
                starred=True,
            ),
        ],
        contradictions=[
            Contradiction(ContradictionId(UUID(int=40)), "speed", "safety", "faster is riskier", "segment", ("P1",))
        ],
        adjacent_possible=["telemedicine pre-triage"],
        current_round_claims=[node(5, "Current round idea", evidence=(agent_evidence(4),))],
        past_round_claims=[validated, qualified, superseded],
        knowledge_graph_nodes=[validated, qualified, superseded, user_claim],
        knowledge_graph_edges=[
            Edge(EdgeId(UUID(int=50)), validated.id, qualified.id, EdgeType.SUPPORTS),
            Edge(EdgeId(UUID(int=51)), qualified.id, user_claim.id, EdgeType.EXTENDS),
        ],
        negative_knowledge=[NegativeKnowledge(ClaimId(UUID(int=6)), "More beds help", "no evidence", 0)],
        gaps=["Staffing data missing"],
    )


def render(state: ForgeState, model_label: str = "claude-test (fake)") -> str:
    return render_knowledge_document(DocumentInput("session-123", state, model_label, GENERATED))


def section_titles(document: str) -> list[str]:
    return [line[3:] for line in document.splitlines() if line.startswith("## ")]


def section_body(document: str, title: str) -> str:
    start = document.index(f"## {title}\n")
    rest = document[start + len(title) + 4 :]
    end = rest.find("\n## ")
    return rest if end == -1 else rest[:end]


# ---- structure -------------------------------------------------------------------------------


def test_document_sections_are_the_ten_of_the_spec() -> None:
    assert len(DOCUMENT_SECTIONS) == 10
    assert [t.split(".")[0] for t in DOCUMENT_SECTIONS] == [str(i) for i in range(1, 11)]


def test_renders_exactly_the_ten_sections_in_order() -> None:
    assert section_titles(render(rich_state())) == list(DOCUMENT_SECTIONS)


def test_each_section_appears_once() -> None:
    document = render(rich_state())
    for title in DOCUMENT_SECTIONS:
        assert document.count(f"## {title}\n") == 1


def test_empty_state_still_renders_every_section_in_order() -> None:
    document = render(ForgeState())
    assert section_titles(document) == list(DOCUMENT_SECTIONS)
    for title in DOCUMENT_SECTIONS:
        assert section_body(document, title).strip(), f"section {title!r} is blank"


def test_empty_sections_say_so() -> None:
    document = render(ForgeState())
    for placeholder in (
        "_None selected._",
        "_Not mapped._",
        "_No analogies._",
        "_No contradictions._",
        "_No validated claims._",
        "_The graph is empty._",
        "_Nothing rejected._",
        "_No gaps recorded._",
        "_No sources._",
    ):
        assert placeholder in document


def test_rendering_is_deterministic() -> None:
    assert render(rich_state()) == render(rich_state())


def test_rendering_does_not_change_the_state() -> None:
    s = rich_state()
    render(s)
    assert s == rich_state()


def test_document_ends_with_a_single_newline() -> None:
    document = render(rich_state())
    assert document.endswith("\n")
    assert not document.endswith("\n\n")


# ---- header ----------------------------------------------------------------------------------


def test_header_names_session_model_time_and_rounds() -> None:
    document = render(rich_state(), model_label="anthropic:claude-sonnet")
    assert document.startswith("# Knowledge Document: ")
    assert "- Session: `session-123`" in document
    assert "- Model: anthropic:claude-sonnet" in document
    assert "- Generated: 2025-06-01T12:30:45+00:00" in document
    assert "- Rounds: 2" in document


def test_the_title_is_the_problem_statement_without_its_constraints() -> None:
    state = replace(ForgeState(), problem="How can an ER cut waits?\n\nConstraints:\n- no new staff")
    assert render(state).startswith("# Knowledge Document: How can an ER cut waits?\n")


def test_the_title_is_the_frame_objective_once_the_problem_is_framed() -> None:
    framed = audit_frame(ProblemFrame("Cut <b>emergency</b> wait times", "emergency department", "shorter waits"))
    state = replace(ForgeState(), problem="How can an ER cut waits?", problem_frame=framed)
    assert render(state).splitlines()[0] == "# Knowledge Document: Cut &lt;b&gt;emergency&lt;/b&gt; wait times"


def test_a_long_title_is_cut_on_one_line() -> None:
    state = replace(ForgeState(), problem="word " * 100)
    title = render(state).splitlines()[0]
    assert len(title) <= len("# Knowledge Document: ") + TITLE_LIMIT and title.endswith("…")


def test_an_empty_state_keeps_the_plain_title() -> None:
    assert render(ForgeState()).startswith("# Knowledge Document\n")


def test_the_model_label_appears_even_for_an_empty_state() -> None:
    assert "- Model: fake-model-label" in render(ForgeState(), model_label="fake-model-label")


# ---- sections' contents ----------------------------------------------------------------------


def test_framing_shows_the_problem_and_only_selected_reframings() -> None:
    body = section_body(render(rich_state()), DOCUMENT_SECTIONS[0])
    assert "> How can hospitals reduce emergency room queues?" in body
    assert "Reduce perceived waiting _(variable_change)_" in body
    assert "Unselected framing" not in body


def test_assumptions_show_their_review_status() -> None:
    body = section_body(render(rich_state()), DOCUMENT_SECTIONS[1])
    assert "- arrival rate" in body
    assert "staff is fixed _(confirmed)_" in body
    assert "demand grows _(rejected)_" in body


def test_analogies_show_star_mapping_and_distance() -> None:
    body = section_body(render(rich_state()), DOCUMENT_SECTIONS[3])
    assert "### Airline boarding ★ _(medium domain)_" in body
    assert "| gate | ward | maps to |" in body
    assert "- Observable: queue length" in body
    assert "- Failure mode: priority abuse" in body


def test_contradictions_section_includes_box_and_adjacent_possible() -> None:
    body = section_body(render(rich_state()), DOCUMENT_SECTIONS[4])
    assert "**speed vs safety**" in body
    assert "(principles: P1)" in body
    assert "| triage | nurse · algorithm |" in body
    assert "- telemedicine pre-triage" in body


def test_validated_knowledge_lists_graph_claims_except_superseded() -> None:
    body = section_body(render(rich_state()), DOCUMENT_SECTIONS[5])
    assert "### Dynamic triage cuts waits" in body
    assert "- Qualification: only in large hospitals" in body
    assert "### Nurses know best" in body
    assert "Superseded idea" not in body
    assert "Current round idea" not in body
    assert "novelty 0.80, groundedness 0.70, falsifiability 0.90, significance 0.60" in body


def test_graph_section_is_a_mermaid_diagram_of_nodes_and_edges() -> None:
    body = section_body(render(rich_state()), DOCUMENT_SECTIONS[6])
    assert "```mermaid" in body
    assert "C1 -->|supports| C2" in body
    assert "C2 -->|extends| C4" in body
    assert "C2[\"Fast tracks 'work' at night\"]" in body


def test_negative_knowledge_section_lists_rejections_with_reason_and_round() -> None:
    body = section_body(render(rich_state()), DOCUMENT_SECTIONS[7])
    assert "- More beds help — no evidence (round 1)" in body


def test_gaps_section_lists_gaps() -> None:
    assert "- Staffing data missing" in section_body(render(rich_state()), DOCUMENT_SECTIONS[8])


# ---- sources ---------------------------------------------------------------------------------


def evidence_sources(state: ForgeState) -> set[str]:
    pools = [state.state_of_art.evidence if state.state_of_art else ()]
    pools += [c.evidence for c in [*state.all_claims, *state.knowledge_graph_nodes]]
    return {e.source for pool in pools for e in pool}


def test_sources_listed_are_exactly_the_evidence_sources() -> None:
    s = rich_state()
    body = section_body(render(s), DOCUMENT_SECTIONS[9])
    assert set(LINK.findall(body)) == evidence_sources(s)


def test_sources_are_listed_once_each_sorted() -> None:
    links = LINK.findall(section_body(render(rich_state()), DOCUMENT_SECTIONS[9]))
    assert links == sorted(set(links))


def test_no_link_anywhere_points_outside_the_evidence() -> None:
    s = rich_state()
    document = render(s)
    assert set(LINK.findall(document)) <= evidence_sources(s)
    assert "https://uncited.example" not in document


def test_user_evidence_is_labelled_as_provided_by_the_user() -> None:
    body = section_body(render(rich_state()), DOCUMENT_SECTIONS[9])
    user_line = next(line for line in body.splitlines() if "https://user1.example" in line)
    assert user_line.endswith("provided by the user")
    assert "research query" not in user_line


def test_agent_evidence_names_the_research_query_that_returned_it() -> None:
    body = section_body(render(rich_state()), DOCUMENT_SECTIONS[9])
    agent_line = next(line for line in body.splitlines() if "https://agent1.example" in line)
    assert "research query: “ER queue research”" in agent_line
    assert "provided by the user" not in agent_line


def test_state_of_art_section_cites_its_evidence() -> None:
    body = section_body(render(rich_state()), DOCUMENT_SECTIONS[2])
    assert "Fast tracks and triage are common." in body
    assert "[Agent source 3](https://agent3.example)" in body


def test_the_models_narrative_comes_first_labelled_with_its_author() -> None:
    state = rich_state()
    state.document_narrative = DocumentNarrative(
        "Pooling triage queues is the strongest claim.", ("Pilot pooling for 8 weeks.",), ("Who waits longest?",), "m-1"
    )
    document = render(state)
    assert section_titles(document) == ["Summary", *DOCUMENT_SECTIONS]
    summary = section_body(document, "Summary")
    assert (
        "_Written by m-1" in summary
        and "1. Pilot pooling for 8 weeks." in summary
        and "- Who waits longest?" in summary
    )


# ---- hostile text --------------------------------------------------------------------------------

ATTACK = (
    "<script>alert(1)</script> <img src=x onerror=alert(2)> [click](javascript:alert(3)) "
    "![i](javascript:alert(4)) <javascript:alert(5)> | cell | `code`\n[ref]: javascript:alert(6)\n[ref]\n"
    '<a href="javascript:alert(7)">a</a>'
)
ATTACK_URLS = ("javascript:alert(8)", "JaVaScRiPt:alert(9)", "java\tscript:alert(10)", "data:text/html,<b>x</b>")


def poisoned(value: object, urls: list[str]) -> object:
    """`value` with every string replaced by hostile text (evidence sources by hostile URLs, in turn)."""
    if isinstance(value, Enum) or (not isinstance(value, str | list | tuple) and not is_dataclass(value)):
        return value
    if isinstance(value, str):
        return ATTACK
    if isinstance(value, list | tuple):
        return type(value)(poisoned(item, urls) for item in value)
    assert is_dataclass(value) and not isinstance(value, type)
    changes = {f.name: poisoned(getattr(value, f.name), urls) for f in fields(value)}
    if isinstance(value, Evidence):
        changes["source"] = ATTACK_URLS[len(urls) % len(ATTACK_URLS)]
        urls.append(changes["source"])
    return replace(value, **changes)


def hostile_document() -> str:
    source = rich_state()
    source.document_narrative = DocumentNarrative("summary", ("recommendation",), ("question",), "model")
    state = poisoned(source, [])
    assert isinstance(state, ForgeState)
    return render_knowledge_document(DocumentInput("session-123", state, ATTACK, GENERATED))


def test_hostile_text_in_every_field_renders_as_text_never_as_html_or_a_script_link() -> None:
    document = hostile_document()
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(document)
    assert "<script" not in html and "<img" not in html and '<a href="javascript' not in html.lower()
    assert not re.search(r"<[^>]*\son\w+\s*=", html), "no event handler attribute in any tag"
    hrefs = re.findall(r'(?:href|src)="([^"]*)"', html)
    assert all(h.startswith(("http://", "https://", "mailto:")) for h in hrefs), hrefs
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, "the text is shown, escaped, not dropped"


def test_no_raw_html_character_survives_anywhere_in_the_markdown() -> None:
    document = hostile_document()
    assert "<" not in document
    unescaped_link = re.compile(r"(?<!\\)\]\s*[(:]\s*(?:java|data)", re.IGNORECASE)
    assert not unescaped_link.search(document), "a ] that is not escaped never precedes a hostile URL"


def test_the_problem_keeps_every_line_inside_its_quote() -> None:
    state = rich_state()
    state.problem = "First line\n# Not a heading\n<b>bold</b>"
    framing = section_body(render(state), DOCUMENT_SECTIONS[0])
    assert framing.lstrip("\n").startswith("> First line\n> # Not a heading\n> &lt;b&gt;bold&lt;/b&gt;\n")


def test_a_non_web_evidence_source_is_shown_as_text_not_as_a_link() -> None:
    state = rich_state()
    assert state.state_of_art is not None
    corpus = replace(agent_evidence(9), source="corpus://queueing/littles-law", title="Little's law")
    state.state_of_art = replace(state.state_of_art, evidence=(corpus,))
    body = section_body(render(state), DOCUMENT_SECTIONS[2])
    assert "Sources: Little's law (corpus://queueing/littles-law)" in body and "](corpus" not in body
