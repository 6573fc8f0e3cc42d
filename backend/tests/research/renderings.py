"""A structured model that renders research queries in English from a table a test writes (the model's
role in cross-language research), keeping the queries it was asked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.core.llm.messages import Usage
from forge.ports import StructuredFailure, StructuredRequest, StructuredResult
from forge.research.cross_language import QueryRenderingOutput


class TableRenderings:
    def __init__(self, table: Mapping[str, str], label: str = "table renderings") -> None:
        self._table = dict(table)
        self._label = label
        self.asked: list[str] = []
        self.last_usage = Usage()

    @property
    def label(self) -> str:
        return self._label

    async def generate(self, request: StructuredRequest[Any]) -> StructuredResult[Any] | StructuredFailure:
        assert request.output is QueryRenderingOutput, request.name
        query = request.input.removeprefix("Query: ")
        self.asked.append(query)
        if query not in self._table:
            return StructuredFailure(f"no rendering scripted for {query!r}", Usage(), 1)
        self.last_usage = Usage(40, 8)
        return StructuredResult(QueryRenderingOutput(english=self._table[query]), self.last_usage, 1)
