"""The read-only knowledge API: domains with structures, TRIZ principles, and every matrix cell.

Runs on both databases through the shared `client` fixture, though these endpoints read no table.
"""

from __future__ import annotations

import json

import httpx
import pytest

from forge.knowledge.load_knowledge import KNOWLEDGE_DIR

CLASSIC = json.loads((KNOWLEDGE_DIR / "triz_matrix.json").read_text(encoding="utf-8"))


@pytest.fixture
def api(client: httpx.AsyncClient) -> httpx.AsyncClient:
    return client


async def test_domains_come_with_their_structures(api: httpx.AsyncClient) -> None:
    response = await api.get("/api/v1/knowledge/domains")
    assert response.status_code == 200
    domains = response.json()["domains"]
    assert len(domains) >= 36
    assert {d["field"] for d in domains} == {"physical", "biological", "social", "formal", "engineering"}
    thermodynamics = domains[0]
    assert thermodynamics["id"] == "thermodynamics"
    assert len(thermodynamics["structures"]) >= 5
    structure = thermodynamics["structures"][0]
    assert set(structure) == {
        "name",
        "source_relation",
        "mechanism",
        "key_variables",
        "dynamics",
        "typical_observables",
        "failure_modes",
        "references",
    }


async def test_principles_are_the_forty_with_sub_principles(api: httpx.AsyncClient) -> None:
    principles = (await api.get("/api/v1/knowledge/triz/principles")).json()["principles"]
    assert [p["number"] for p in principles] == list(range(1, 41))
    assert principles[0]["name"] == "Segmentation"
    assert all(p["sub_principles"] for p in principles)
    parameters = (await api.get("/api/v1/knowledge/triz/parameters")).json()["parameters"]
    assert [p["name"] for p in parameters][:2] == ["Weight of moving object", "Weight of stationary object"]


async def test_every_off_diagonal_matrix_cell_matches_the_shipped_file(api: httpx.AsyncClient) -> None:
    names = {p["id"]: p["name"] for p in CLASSIC["principles"]}
    checked = 0
    for i in range(1, 40):
        for j in range(1, 40):
            if i == j:
                continue
            body = (await api.get(f"/api/v1/knowledge/triz/matrix/{i}/{j}")).json()
            expected = CLASSIC["matrix"][i - 1][j - 1]
            assert [p["number"] for p in body["principles"]] == expected, (i, j)
            assert [p["name"] for p in body["principles"]] == [names[n] for n in expected]
            assert body["improving"]["number"] == i and body["worsening"]["number"] == j
            checked += 1
    assert checked == 1482


async def test_an_empty_classic_cell_is_an_empty_list(api: httpx.AsyncClient) -> None:
    response = await api.get("/api/v1/knowledge/triz/matrix/1/2")
    assert response.status_code == 200
    assert response.json() == {
        "improving": {"number": 1, "name": "Weight of moving object"},
        "worsening": {"number": 2, "name": "Weight of stationary object"},
        "principles": [],
    }


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("0/5", "improving parameter must be a number from 1 to 39"),
        ("5/40", "worsening parameter"),
        ("7/7", "diagonal"),
    ],
)
async def test_out_of_range_and_diagonal_are_422_saying_what_to_send(
    api: httpx.AsyncClient, path: str, words: str
) -> None:
    response = await api.get(f"/api/v1/knowledge/triz/matrix/{path}")
    assert response.status_code == 422
    assert words in response.json()["detail"]


async def test_a_non_number_parameter_is_a_422_naming_the_field(api: httpx.AsyncClient) -> None:
    response = await api.get("/api/v1/knowledge/triz/matrix/speed/9")
    assert response.status_code == 422
    assert response.json()["errors"][0]["loc"] == ["path", "improving"]
