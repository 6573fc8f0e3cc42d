"""POST /sessions with `constraints`: stored after the problem as a list the model reads (the offline
model's frame picks them up), validated per item, and bounded with the problem by MAX_PROBLEM_CHARS."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from support.sse_client import read_stream, run_and_stream

from forge.core.session.record import MAX_PROBLEM_CHARS

PROBLEM = "How can a hospital cut emergency wait times?"


async def test_constraints_are_stored_with_the_problem_and_shape_the_decomposition(client: httpx.AsyncClient) -> None:
    created = await client.post(
        "/api/v1/sessions",
        json={"problem": f"  {PROBLEM} ", "constraints": [" without more staff ", "GDPR compliance"]},
    )
    assert created.status_code == 201, created.text
    session = created.json()
    assert session["problem"] == f"{PROBLEM}\n\nConstraints:\n- without more staff\n- GDPR compliance"
    assert (session["statement"], session["constraints"]) == (PROBLEM, ["without more staff", "GDPR compliance"])
    listed = (await client.get("/api/v1/sessions")).json()["items"][0]
    assert (listed["statement"], listed["constraints"]) == (PROBLEM, ["without more staff", "GDPR compliance"])
    events = await run_and_stream(client, session["id"])
    review = next(e for e in events if e.type == "review_decompose").data
    fundamentals = review["fundamentals"]
    assert any(f.startswith("A binding constraint: without more staff") for f in fundamentals), fundamentals
    assert any(f.startswith("A binding constraint: GDPR compliance") for f in fundamentals), fundamentals
    assert review["assumptions"][0]["text"].startswith("That 'without more staff' is absolute"), review["assumptions"]
    assert not any("Constraints" in f for f in fundamentals)
    for _ in range(6):  # the rest of the session still runs to its document
        streamed = await read_stream(client, "POST", f"/api/v1/sessions/{session['id']}/autopilot")
        document = next((e.data["markdown"] for e in streamed if e.type == "knowledge_document"), None)
        if document is not None:
            break
    assert document is not None and "> - without more staff\n> - GDPR compliance" in document  # quoted, line by line


async def test_without_constraints_the_problem_is_unchanged(client: httpx.AsyncClient) -> None:
    created = await client.post("/api/v1/sessions", json={"problem": PROBLEM, "constraints": []})
    assert created.status_code == 201
    assert (created.json()["problem"], created.json()["statement"], created.json()["constraints"]) == (
        PROBLEM,
        PROBLEM,
        [],
    )


@pytest.mark.parametrize(
    ("constraints", "says"),
    [
        (["without more staff", "   "], "constraints.1: a constraint must not be blank"),
        ([""], "constraints.0: a constraint must not be blank"),
        (["x" * 301], "constraints.0: a constraint must be at most 300 characters after trimming; this one has 301"),
        ([f"limit {i}" for i in range(11)], "constraints: List should have at most 10 items"),
        ("without more staff", "constraints"),
        ([42], "constraints.0"),
    ],
)
async def test_bad_constraints_are_refused_naming_the_field(
    client: httpx.AsyncClient, constraints: Any, says: str
) -> None:
    response = await client.post("/api/v1/sessions", json={"problem": PROBLEM, "constraints": constraints})
    assert response.status_code == 422, response.text
    assert says in response.json()["detail"]
    assert (await client.get("/api/v1/sessions")).json()["total"] == 0


async def test_problem_and_constraints_over_the_limit_say_how_much_to_cut(client: httpx.AsyncClient) -> None:
    problem = "How can we " + "y" * (MAX_PROBLEM_CHARS - 11)
    assert len(problem) == MAX_PROBLEM_CHARS
    response = await client.post("/api/v1/sessions", json={"problem": problem, "constraints": ["without more staff"]})
    assert response.status_code == 422
    overflow = len("\n\nConstraints:\n- without more staff")
    assert f"cut {overflow} characters" in response.json()["detail"]
    assert (await client.get("/api/v1/sessions")).json()["total"] == 0
