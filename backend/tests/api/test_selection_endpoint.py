"""GET /sessions/{id}/selection: after EXPLORE the pool's gated hypotheses on the Pareto plane, the
front marked, every MOME cell with its counts and the coverage; 404 for an unknown session."""

from __future__ import annotations

import httpx
from support.reviews import review_for
from support.sse_client import read_stream, run_and_stream

PROBLEM = "How can a hospital cut emergency wait times without more staff?"


async def test_the_plot_shows_every_gated_hypothesis_its_front_and_the_grid(client: httpx.AsyncClient) -> None:
    sid = str((await client.post("/api/v1/sessions", json={"problem": PROBLEM})).json()["id"])
    decompose = await run_and_stream(client, sid)
    explore = await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=review_for(decompose[-2]))
    await read_stream(client, "POST", f"/api/v1/sessions/{sid}/user-input", json=review_for(explore[-2]))
    plot = (await client.get(f"/api/v1/sessions/{sid}/selection")).json()
    pool = (await client.get(f"/api/v1/sessions/{sid}/hypotheses", params={"limit": 200})).json()
    assert len(plot["points"]) + plot["pruned"] == pool["total"]
    front = [p for p in plot["points"] if p["rank"] == 0]
    assert front and all(0 <= p["novelty"] <= 1 and 0 <= p["feasibility"] <= 1 for p in plot["points"])
    for p in front:  # nothing dominates a front point
        assert not any(
            q["novelty"] >= p["novelty"]
            and q["feasibility"] >= p["feasibility"]
            and q != p
            and (q["novelty"] > p["novelty"] or q["feasibility"] > p["feasibility"])
            for q in plot["points"]
        )
    assert sum(p["seed"] for p in plot["points"]) == 3  # the interactive SEARCH round's seeds
    cells = plot["cells"]
    assert len(cells) == len(plot["mechanism_families"]) * len(plot["data_granularities"])
    assert sum(c["explored"] for c in cells) == len(plot["points"])
    assert plot["coverage_ratio"] == round(sum(c["explored"] > 0 for c in cells) / len(cells), 4)


async def test_an_unknown_session_is_404(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/v1/sessions/00000000-0000-0000-0000-000000000000/selection")
    assert response.status_code == 404
