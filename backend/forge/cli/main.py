"""The `forge` command: serve, worker (runs queued sessions), answer (autopilot in the terminal), eval (the engine
against a plain model), migrate, hkg (the hypergraph), knowledge,
users / tokens / admin (accounts).

Invariants:
    - Every command builds its container from Settings through bootstrap; nothing at import time.
    - `answer` drives the same service and agent loop as the API, with an AutopilotPolicy answering
      the reviews, and prints progress per phase.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from dataclasses import replace
from pathlib import Path

from forge.cli.evaluation import add_eval_parser
from forge.config import Settings, auto_run_processes, environment_with_dotenv
from forge.core.accounts.auth_mode import AuthRefusal, auth_enabled
from forge.observability.logging_setup import check_log_format, configure_logging

# How long an idle keep-alive connection stays open. uvicorn's default (5 s) is shorter than clients
# keep pooled connections for, so a client that reused one just as the server closed it got a reset
# (seen in a clean-clone test run: Playwright's API client, "socket hang up" on a GET sent 5.1 s after
# the one before). Longer than the 60 s idle timeout of common load balancers, so they close first.
KEEP_ALIVE_SECONDS = 75


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="forge", description="Knowledge Forge: validated, traceable knowledge.")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="migrate the database and serve the API (and app) on HOST:PORT")
    serve.add_argument("--host", default=None)
    serve.add_argument("--port", type=int, default=None)
    worker = sub.add_parser("worker", help="run queued sessions (PostgreSQL, FORGE_RUNNER=workers); migrates first")
    worker.add_argument("--alive-file", type=Path, default=None, help="touch this file every heartbeat (healthchecks)")
    sub.add_parser("migrate", help="upgrade the database to the latest schema")
    doctor = sub.add_parser("doctor", help="show each role's provider and model, keys, database; no paid call")
    doctor.add_argument("--refresh-models", action="store_true", help="read the Models API (free) into the catalogue")
    answer = sub.add_parser("answer", help="run all six phases in autopilot and write the document")
    answer.add_argument("problem", help="the problem, in quotes")
    answer.add_argument("--rounds", type=int, default=1, help="synthesis rounds before resolving (1-5)")
    answer.add_argument("--accept-threshold", type=float, default=0.6, help="mean score needed to accept a claim")
    answer.add_argument("--out", type=Path, default=Path("out"), help="folder for the document and the JSON")
    answer.add_argument("--quiet", action="store_true", help="print only the paths written")
    _add_hkg_parser(sub)
    _add_knowledge_parser(sub)
    add_eval_parser(sub)
    _add_account_parsers(sub)
    return parser


def _add_account_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    users = sub.add_parser("users", help="accounts (FORGE_AUTH=on): add a user, list users")
    users_sub = users.add_subparsers(dest="users_command", required=True)
    add = users_sub.add_parser("add", help="add a user; password from stdin, a prompt, or generated and printed once")
    add.add_argument("email")
    add.add_argument("--admin", action="store_true", help="may manage users and see everyone's usage")
    users_sub.add_parser("list", help="every user with role and state")
    tokens = sub.add_parser("tokens", help="personal API tokens (Authorization: Bearer ...)")
    tokens_sub = tokens.add_subparsers(dest="tokens_command", required=True)
    create = tokens_sub.add_parser("create", help="create a token for EMAIL and print it once")
    create.add_argument("email")
    create.add_argument("--name", default="cli", help="what the token is for (default: cli)")
    revoke = tokens_sub.add_parser("revoke", help="revoke the token with this id")
    revoke.add_argument("id")
    admin = sub.add_parser("admin", help="operator reports")
    admin_sub = admin.add_subparsers(dest="admin_command", required=True)
    admin_sub.add_parser("usage", help="per user: sessions, running, spend (month, total), tokens")


def _accounts(settings: Settings, args: argparse.Namespace) -> int:
    from forge.bootstrap.account_tools import build_account_tools
    from forge.cli import accounts as run

    password = run.read_password(sys.stdin) if args.command == "users" and args.users_command == "add" else None
    _migrate(settings)

    async def dispatch() -> int:
        tools = build_account_tools(settings)
        try:
            if args.command == "users":
                if args.users_command == "add":
                    return await run.add_user(tools, args.email, args.admin, password)
                return await run.list_users(tools)
            if args.command == "tokens":
                if args.tokens_command == "create":
                    return await run.create_token(tools, args.email, args.name)
                return await run.revoke_token(tools, args.id)
            return await run.admin_usage(tools)
        finally:
            await tools.close()

    return asyncio.run(dispatch())


def _add_knowledge_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    knowledge = sub.add_parser("knowledge", help="the shipped source domains and the classic TRIZ matrix")
    knowledge_sub = knowledge.add_subparsers(dest="knowledge_command", required=True)
    domains = knowledge_sub.add_parser("domains", help="list the source domains (with --structures, their structures)")
    domains.add_argument("--structures", action="store_true", help="also list each domain's structures")
    triz = knowledge_sub.add_parser("triz", help="the matrix cell for improving parameter I against worsening W")
    triz.add_argument("improving", type=int, help="parameter to improve, 1..39")
    triz.add_argument("worsening", type=int, help="parameter that gets worse, 1..39")


def _add_hkg_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    hkg = sub.add_parser("hkg", help="the knowledge hypergraph: ingest a file, show stats, find hyperpaths")
    hkg_sub = hkg.add_subparsers(dest="hkg_command", required=True)
    ingest = hkg_sub.add_parser("ingest", help="validate FILE (JSONL, or .graphml) and make it the hypergraph")
    ingest.add_argument("file", type=Path)
    hkg_sub.add_parser("stats", help="sizes of the hypergraph in use (the demo when nothing was ingested)")
    traverse = hkg_sub.add_parser("traverse", help="the k shortest hyperpaths between two sets of terms")
    traverse.add_argument("--from", dest="start", required=True, help='start terms, comma-separated: "heat, flow"')
    traverse.add_argument("--to", dest="end", required=True, help="end terms, comma-separated")
    traverse.add_argument("--k", type=int, default=3, help="how many paths (default 3)")
    traverse.add_argument(
        "--is", dest="intersection_size", type=int, default=1, help="nodes consecutive hyperedges share"
    )
    traverse.add_argument("--max-len", type=int, default=6, help="most hyperedges in a path (default 6)")


def _hkg(settings: Settings, args: argparse.Namespace) -> int:
    from forge.cli.hkg import TraverseOptions, run_ingest, run_stats, run_traverse, split_terms

    if args.hkg_command == "ingest":
        return run_ingest(settings, args.file)
    if args.hkg_command == "stats":
        return run_stats(settings)
    options = TraverseOptions(
        split_terms(args.start), split_terms(args.end), args.k, args.intersection_size, args.max_len
    )
    return run_traverse(settings, options)


def _migrate(settings: Settings) -> None:
    from forge.db.migrate import upgrade_database_sync

    upgrade_database_sync(settings.database_url)


def _serve(settings: Settings, host: str | None, port: int | None) -> None:
    import uvicorn

    from forge.api.app import create_app
    from forge.api.serve_app import ForgeServer
    from forge.bootstrap.build_container import build_container

    settings = replace(settings, host=host or settings.host, port=port or settings.port)  # hosts follow the bind
    if settings.run_processes is None:  # FORGE_RUN_PROCESSES unset or "auto"
        settings = replace(settings, run_processes=auto_run_processes(_usable_cores(), settings.runner))
    refused = auth_enabled(settings.auth, settings.host)
    if isinstance(refused, AuthRefusal):
        raise ValueError(refused.message)  # before anything is opened or migrated
    check_log_format(settings.log_format)
    json_logs = settings.log_format == "json"
    if json_logs:
        configure_logging("json", settings.log_level)
    _migrate(settings)
    container = build_container(settings)
    container.warm_on_start = True  # the first run must not load the tokenizer on the event loop
    app = create_app(container)
    mode = "auth on" if refused else "auth off: local user"
    runs_in = f"{settings.run_processes} run processes" if settings.run_processes else "runs in this process"
    print(
        f"Knowledge Forge on http://{settings.host}:{settings.port}  "
        f"(database: {settings.database_kind}; {mode}; {runs_in})",
        flush=True,
    )
    # JSON logs: uvicorn keeps our handlers (log_config=None) and our access lines replace its own.
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        log_config=None if json_logs else uvicorn.config.LOGGING_CONFIG,
        access_log=not json_logs,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
    )
    ForgeServer(config, before_shutdown=container.broadcaster.close).run()


def _usable_cores() -> int | None:
    """The cores this process may run on (its CPU affinity, e.g. `taskset`), else the machine's."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count()


def _worker(settings: Settings, alive_file: Path | None) -> int:
    from forge.cli.worker import run_worker

    check_log_format(settings.log_format)
    configure_logging(settings.log_format, settings.log_level)
    if settings.database_kind != "postgresql":
        raise ValueError(
            "forge worker needs PostgreSQL (DATABASE_URL=postgresql+asyncpg://...) with FORGE_RUNNER=workers"
        )
    _migrate(settings)
    return asyncio.run(run_worker(settings, alive_file))


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    settings = Settings.from_env(environment_with_dotenv())
    try:
        if args.command == "migrate":
            _migrate(settings)
            print(f"database at head ({settings.database_kind})")
        elif args.command == "doctor":
            from forge.cli.doctor import diagnose, render

            findings = asyncio.run(diagnose(settings, refresh=args.refresh_models))
            print(render(findings))
            return 0 if all(f.ok for f in findings) else 1
        elif args.command == "serve":
            _serve(settings, args.host, args.port)
        elif args.command == "worker":
            return _worker(settings, args.alive_file)
        elif args.command in ("users", "tokens", "admin"):
            return _accounts(settings, args)
        elif args.command == "hkg":
            return _hkg(settings, args)
        elif args.command == "eval":
            from forge.cli.evaluation import run_eval_command

            return asyncio.run(run_eval_command(settings, args))
        elif args.command == "knowledge":
            from forge.cli.knowledge import run_domains, run_triz

            if args.knowledge_command == "domains":
                return run_domains(args.structures)
            return run_triz(args.improving, args.worsening)
        else:
            from forge.cli.autopilot import AutopilotOptions, run_autopilot

            options = AutopilotOptions(args.problem, args.rounds, args.accept_threshold, args.out, args.quiet)
            _migrate(settings)
            return asyncio.run(run_autopilot(settings, options))
    except ValueError as error:
        print(f"forge: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
