"""SAGA's pattern-grouping rule written plainly (each sighting joins the first group whose leader is
the same pattern): the oracle `group_patterns` is tested against, and what bench_saga_patterns times
it against."""

from __future__ import annotations

from collections.abc import Sequence

from forge.core.saga.patterns import PatternSighting, same_pattern


def plain_groups(history: Sequence[PatternSighting]) -> list[list[PatternSighting]]:
    groups: list[list[PatternSighting]] = []
    for sighting in history:
        group = next((g for g in groups if same_pattern(g[0].hash, sighting.hash)), None)
        if group is None:
            groups.append([sighting])
        else:
            group.append(sighting)
    return groups
