"""`forge users add|list`, `forge tokens create|revoke`, `forge admin usage`: accounts from the terminal.

Invariants:
    - The terminal is the operator: these commands act with admin rights on the configured database
      (migrated first), without a login.
    - A password comes from standard input when it is not a terminal (`echo ... | forge users add`),
      from a hidden prompt at a terminal, and is generated when none is given; a generated password
      and a new token are printed exactly once, on stdout, and never stored in clear.
    - Exit codes: 0 success; 2 bad input or a conflict, with the reason on stderr in one line.
"""

from __future__ import annotations

import getpass
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TextIO
from uuid import UUID

from forge.bootstrap.account_tools import AccountTools
from forge.core.accounts.users import ApiTokenId, Role, local_user
from forge.services.service_results import ServiceFailure
from forge.services.user_usage import UserUsage

EXIT_OK, EXIT_BAD_INPUT = 0, 2


def read_password(stdin: TextIO) -> str | None:
    """The password to set, or None to generate one."""
    if stdin.isatty():
        typed = getpass.getpass("Password (empty: generate one): ")
        return typed or None
    line = stdin.readline().rstrip("\r\n")
    return line or None


def _fail(message: str) -> int:
    print(f"forge: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


async def add_user(tools: AccountTools, email: str, admin: bool, password: str | None) -> int:
    created = await tools.accounts.add_user(email, Role.ADMIN if admin else Role.MEMBER, password)
    if isinstance(created, ServiceFailure):
        return _fail(created.message)
    print(f"added {created.user.role.value} {created.user.email} ({created.user.id})")
    if created.generated_password is not None:
        print(f"password (shown once): {created.generated_password}")
    return EXIT_OK


async def list_users(tools: AccountTools) -> int:
    for user in await tools.accounts.users():
        state = "disabled" if user.disabled else "active"
        note = "  (built-in local user: FORGE_AUTH=off)" if user.is_local else ""
        print(f"{user.id}  {user.role.value:<6}  {state:<8}  {user.email}{note}")
    return EXIT_OK


async def create_token(tools: AccountTools, email: str, name: str) -> int:
    user = await tools.accounts.user_by_email(email)
    if user is None or user.is_local:
        return _fail(f"no user with the email {email!r}; add one with `forge users add EMAIL`.")
    created = await tools.accounts.create_token(user, name)
    if isinstance(created, ServiceFailure):
        return _fail(created.message)
    print(f"token {created.token.id} ({created.token.name}) for {user.email}")
    print(f"token (shown once): {created.secret}")
    return EXIT_OK


async def revoke_token(tools: AccountTools, raw_id: str) -> int:
    try:
        token_id = ApiTokenId(UUID(raw_id))
    except ValueError:
        return _fail(f"{raw_id!r} is not a token id; `forge tokens create` printed it.")
    operator = local_user(datetime.now(UTC))  # the terminal acts as an admin
    revoked = await tools.accounts.revoke_token(operator, token_id)
    if isinstance(revoked, ServiceFailure):
        return _fail(revoked.message)
    print(f"revoked token {revoked.id} ({revoked.name})")
    return EXIT_OK


def render_usage(rows: Sequence[UserUsage]) -> str:
    head = f"{'email':<32} {'role':<6} {'sessions':>8} {'running':>7} {'last hr':>7} {'month $':>10} {'total $':>10} {'tokens':>6}"
    lines = [head]
    for u in rows:
        lines.append(
            f"{u.user.email:<32} {u.user.role.value:<6} {u.sessions_total:>8} {u.sessions_running:>7} "
            f"{u.sessions_last_hour:>7} {u.spend_this_month_usd:>10.4f} {u.spend_total_usd:>10.4f} {u.active_tokens:>6}"
        )
    return "\n".join(lines)


async def admin_usage(tools: AccountTools) -> int:
    print(render_usage(await tools.usage.report()))
    return EXIT_OK
