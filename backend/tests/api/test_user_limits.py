"""Per-user limits (FORGE_AUTH=on): sessions per hour, running sessions, monthly spend — each a 429
that names its variable, counted per user; on SQLite and PostgreSQL."""

from __future__ import annotations

from uuid import UUID

from sqlalchemy import update
from support.accounts import AuthApp, Member, auth_app

from forge.core.accounts.user_limits import UserLimits
from forge.core.accounts.users import Role
from forge.db.tables import SessionRow

PROBLEM = {"problem": "How can a ferry line carry more cars in summer without new boats?"}


async def _create(forge: AuthApp, who: Member) -> tuple[int, dict[str, str], str]:
    async with forge.client(headers=who.headers) as http:
        response = await http.post("/api/v1/sessions", json=PROBLEM)
    body = response.json()
    return response.status_code, dict(response.headers), str(body.get("id") or body.get("detail"))


async def test_sessions_per_hour_is_a_429_naming_the_limit_and_counts_per_user(database_url: str) -> None:
    async with auth_app(database_url, user_limits=UserLimits(max_sessions_per_hour=2)) as forge:
        ada, bob = await forge.member("ada@example.org"), await forge.member("bob@example.org")
        assert [(await _create(forge, ada))[0] for _ in range(2)] == [201, 201]
        status, headers, detail = await _create(forge, ada)
        assert status == 429 and "FORGE_USER_SESSIONS_PER_HOUR" in detail and "2" in detail
        assert headers["x-forge-limit"] == "FORGE_USER_SESSIONS_PER_HOUR"
        assert (await _create(forge, bob))[0] == 201  # bob's hour is his own


async def test_running_sessions_limit_refuses_a_second_run_until_the_first_stops(database_url: str) -> None:
    limits = UserLimits(max_running_sessions=1)
    async with auth_app(database_url, user_limits=limits, offline_step_delay_ms=1500) as forge:
        ada = await forge.member("ada@example.org")
        first, second = (await _create(forge, ada))[2], (await _create(forge, ada))[2]
        async with forge.client(headers=ada.headers) as http:
            assert (await http.post(f"/api/v1/sessions/{first}/run")).json()["started"] is True
            refused = await http.post(f"/api/v1/sessions/{second}/run")
            assert refused.status_code == 429 and "FORGE_USER_MAX_RUNNING_SESSIONS" in refused.json()["detail"]
            again = await http.post(f"/api/v1/sessions/{first}/run")  # the running one is not counted twice
            assert again.status_code == 200 and again.json()["started"] is False
            assert (await http.post(f"/api/v1/sessions/{first}/cancel")).status_code == 200
            assert (await http.post(f"/api/v1/sessions/{second}/run")).json()["started"] is True
            assert (await http.post(f"/api/v1/sessions/{second}/cancel")).status_code == 200


async def test_monthly_spend_cap_refuses_new_sessions_and_runs_and_shows_in_usage(database_url: str) -> None:
    async with auth_app(database_url, user_limits=UserLimits(monthly_spend_usd=1.0)) as forge:
        ada, bob = await forge.member("ada@example.org"), await forge.member("bob@example.org")
        admin = await forge.member("root@example.org", Role.ADMIN)
        status, _, session_id = await _create(forge, ada)
        assert status == 201
        async with forge.container.engine.begin() as connection:  # as if its model calls had cost $1.50
            spent = update(SessionRow).where(SessionRow.id == UUID(session_id)).values(total_cost_usd=1.5)
            await connection.execute(spent)
        status, _, detail = await _create(forge, ada)
        assert status == 429 and "FORGE_USER_MONTHLY_SPEND_USD" in detail and "$1.50 of $1.00" in detail
        async with forge.client(headers=ada.headers) as http:
            run = await http.post(f"/api/v1/sessions/{session_id}/run")
            assert run.status_code == 429 and run.headers["x-forge-limit"] == "FORGE_USER_MONTHLY_SPEND_USD"
        assert (await _create(forge, bob))[0] == 201
        async with forge.client(headers=admin.headers) as http:
            usage = {row["user"]["email"]: row for row in (await http.get("/api/v1/admin/usage")).json()}
        assert usage["ada@example.org"]["spend_this_month_usd"] == 1.5
        assert usage["ada@example.org"]["sessions_total"] == 1 and usage["bob@example.org"]["sessions_total"] == 1
        assert usage["ada@example.org"]["active_tokens"] == 1
