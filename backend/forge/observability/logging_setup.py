"""Log lines for people (default) or for a log collector (`FORGE_LOG_FORMAT=json`), with request and session ids.

Invariants:
    - The request id and the session id live in context variables: set by the API's request-context
      middleware per request, and by a run for its own task (`bind_session`). asyncio copies the
      context into tasks, so a run started by a request keeps that request's id in its lines.
    - Every record gets `request_id` and `session_id` attributes (None when unknown), whatever the
      format, so any handler can use them.
    - JSON format: one object per line with `time` (UTC, ISO 8601), `level`, `logger`, `message`,
      `request_id`, `session_id`, the extra fields a caller passed, and `exception` when there is one.
    - Nothing happens at import time; `configure_logging` is called once, by `forge serve`.
"""

from __future__ import annotations

import json
import logging
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import IO, Any
from uuid import UUID

REQUEST_ID: ContextVar[str | None] = ContextVar("forge_request_id", default=None)
SESSION_ID: ContextVar[str | None] = ContextVar("forge_session_id", default=None)
LOG_FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# LogRecord's own attributes: anything else on a record was passed by the caller as `extra`.
_RECORD_FIELDS = frozenset(vars(logging.makeLogRecord({}))) | {
    "message",
    "asctime",
    "request_id",
    "session_id",
    "color_message",  # uvicorn's copy of the message with terminal colours
}


def bind_session(session_id: UUID | str) -> None:
    """The current task's log lines name this session (a run calls it at its start)."""
    SESSION_ID.set(str(session_id))


class ContextFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        record.session_id = SESSION_ID.get()
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
            "session_id": getattr(record, "session_id", None),
        }
        line |= {key: value for key, value in vars(record).items() if key not in _RECORD_FIELDS}
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def check_log_format(log_format: str) -> None:
    if log_format not in LOG_FORMATS:
        raise ValueError(f"FORGE_LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}; got {log_format!r}")


def log_handler(log_format: str, stream: IO[str] | None = None) -> logging.Handler:
    """A handler (stderr by default) with the context filter and the format's formatter."""
    check_log_format(log_format)
    handler = logging.StreamHandler(stream)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    return handler


def configure_logging(log_format: str, level: str) -> None:
    """The root logger writes `log_format` lines at `level`; uvicorn's loggers go through it too."""
    root = logging.getLogger()
    for existing in list(root.handlers):
        root.removeHandler(existing)
    root.addHandler(log_handler(log_format))
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
