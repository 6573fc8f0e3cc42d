"""The knowledge graph's wire shape: no layout (the browser lays it out), old logs still readable, and
the GraphML download guarded like the JSON."""

from __future__ import annotations

from uuid import uuid4

import httpx

from forge.api.schemas.review_payloads import FlowGraphResponse, GraphNode

NODE = {
    "id": "c1",
    "type": "claim",
    "label": "A claim",
    "claim_type": "synthesis",
    "status": "proposed",
    "confidence": "speculative",
    "round": 0,
    "score": None,
}


def test_a_node_has_no_position_fields() -> None:
    assert not {"x", "y"} & set(GraphNode.model_fields)


def test_a_graph_logged_with_the_old_server_layout_reads_without_it() -> None:
    logged = {"nodes": [{**NODE, "x": 340.0, "y": 0.0}], "edges": []}
    assert FlowGraphResponse.model_validate(logged).model_dump(mode="json") == {"nodes": [NODE], "edges": []}


def test_other_unknown_node_fields_are_still_refused() -> None:
    try:
        GraphNode.model_validate({**NODE, "position": {"x": 1, "y": 2}})
    except ValueError as refused:
        assert "position" in str(refused)
    else:
        raise AssertionError("an unknown field was accepted")


async def test_graphml_of_an_unknown_session_is_404(client: httpx.AsyncClient) -> None:
    response = await client.get(f"/api/v1/sessions/{uuid4()}/graph.graphml")
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/json"
