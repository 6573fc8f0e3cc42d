"""The model catalogue: what each model accepts, from the shipped table, a cached Models API answer,
or (on request) a fresh `GET /v1/models`.

Invariants:
    - `capabilities(model)` never makes a network call: it reads the cache file (written by the last
      refresh) over the shipped table `model_capabilities.json`. An exact id wins; an alias of the
      table maps to its dated id; an id that is a listed id plus a snapshot date gets that row; any
      other id gets conservative defaults (no thinking, no effort, forced tools) saying so.
    - `refresh` is the only network call (the free Models API, never a paid one); a failed refresh
      leaves the catalogue as it was and says why.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from forge.core.llm.capabilities import ModelCapabilities, capabilities_from_model_info, capabilities_from_row

SHIPPED_TABLE = Path(__file__).with_name("model_capabilities.json")
_SNAPSHOT_DATE = re.compile(r"-(\d{8}|\d{4}-\d{2}-\d{2})$")


@cache
def _shipped() -> Mapping[str, Any]:
    data: Mapping[str, Any] = json.loads(SHIPPED_TABLE.read_text(encoding="utf-8"))
    return data


@dataclass
class ModelCatalogue:
    """Capabilities by model id; `cache_file` holds the last Models API answer (ModelInfo dicts)."""

    cache_file: Path | None = None
    _api_rows: dict[str, Mapping[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.cache_file is not None and self.cache_file.is_file():
            try:
                rows = json.loads(self.cache_file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                rows = []
            self._api_rows = {str(r.get("id")): r for r in rows if isinstance(r, dict)}

    def _table_row(self, model: str) -> tuple[str, Mapping[str, Any]] | None:
        table, aliases = _shipped()["models"], _shipped()["aliases"]
        for candidate in (model, _SNAPSHOT_DATE.sub("", model)):
            key = aliases.get(candidate, candidate)
            if key in table:
                return key, table[key]
        return None

    def known(self, model: str) -> bool:
        return model in self._api_rows or self._table_row(model) is not None

    def capabilities(self, model: str) -> ModelCapabilities:
        found = self._table_row(model)
        table = capabilities_from_row(model, found[1], f"shipped table ({found[0]})") if found else None
        if model in self._api_rows:
            return capabilities_from_model_info(self._api_rows[model], table)
        return table or ModelCapabilities(model)

    async def refresh(self, client: Any) -> str:
        """Read every model from the Models API (an `anthropic.AsyncAnthropic`) and cache it."""
        try:
            rows = [info.to_dict(exclude_none=True) async for info in client.models.list(limit=1000)]
        except Exception as error:  # the catalogue stays as it was: a refresh is optional
            return f"Models API not read ({type(error).__name__}: {error}); using the shipped table"
        self._api_rows = {str(r.get("id")): r for r in rows}
        if self.cache_file is not None:
            self.cache_file.parent.mkdir(parents=True, exist_ok=True)
            self.cache_file.write_text(json.dumps(rows, default=str, indent=1), encoding="utf-8")
        return f"Models API: {len(rows)} models cached"


@cache
def shipped_catalogue() -> ModelCatalogue:
    """The catalogue without a cache file: the shipped table only (tests, offline use)."""
    return ModelCatalogue()
