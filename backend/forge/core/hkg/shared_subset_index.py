"""The IS = s walk index: hyperedges over their s-member subsets, so that s-adjacency becomes sharing.

Two hyperedges share at least s members exactly when they hold a common s-member subset. So the
hypergraph whose "nodes" are the s-subsets that occur in some hyperedge, and whose hyperedges hold
their own s-subsets, has the same s-walks as the original with IS = 1 walks: the traversal runs one
algorithm (IS = 1 on this index) for every s. For s = 1 the index is the original one.

Invariants:
    - Same hyperedge positions as the original index; a hyperedge with fewer than s members holds
      no subset (it can only be a one-hyperedge path).
    - Subset positions are ascending in the subsets' sorted member tuples (deterministic).

Design decision: built once per s and kept by the store. Its size is the sum over hyperedges of
C(|e|, s): about 1.5 pairs per hyperedge at the paper's mean size 2.35, so s = 2 costs about as much
as the original index; very large hyperedges with s >= 3 make it grow fast (see docs/hkg.md).
Compared with counting shared members per candidate pair at query time, each subset is expanded at
most once per search, however many frontier hyperedges hold it (two hubs co-occurring in hundreds
of hyperedges are one subset, not hundreds of pair checks).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import numpy.typing as npt

from forge.core.hkg.incidence_index import IncidenceIndex, build_incidence_index

_INT64_KEY_LIMIT = 1 << 62


def _subset_rows(index: IncidenceIndex, s: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """(owner hyperedge, s-subset as a row of member positions) for every s-subset of every hyperedge."""
    sizes = index.edge_sizes()
    owners: list[npt.NDArray[np.int64]] = [np.zeros(0, dtype=np.int64)]
    rows: list[npt.NDArray[np.int32]] = [np.zeros((0, s), dtype=np.int32)]
    for size in (int(value) for value in np.unique(sizes[sizes >= s])):
        edges = np.flatnonzero(sizes == size)
        members = index.edge_nodes[index.edge_ptr[edges][:, None] + np.arange(size)]
        choices = np.array(list(combinations(range(size), s)), dtype=np.int64)
        owners.append(np.repeat(edges.astype(np.int64), len(choices)))
        rows.append(members[:, choices].reshape(-1, s))
    return np.concatenate(owners), np.concatenate(rows)


def _subset_ids(rows: npt.NDArray[np.int32], node_count: int) -> tuple[int, npt.NDArray[np.int64]]:
    """Dense ids of the distinct rows (ascending by row), and the id of each row."""
    s = rows.shape[1]
    if node_count**s < _INT64_KEY_LIMIT:
        weights = np.array([node_count ** (s - 1 - j) for j in range(s)], dtype=np.int64)
        distinct_keys, ids = np.unique(rows.astype(np.int64) @ weights, return_inverse=True)
        return len(distinct_keys), ids.astype(np.int64).reshape(-1)
    distinct_rows, ids = np.unique(rows, axis=0, return_inverse=True)
    return len(distinct_rows), ids.astype(np.int64).reshape(-1)


def build_shared_subset_index(index: IncidenceIndex, s: int) -> IncidenceIndex:
    """The index whose IS = 1 walks are the IS = s walks of `index` (s >= 1)."""
    if s <= 1:
        return index
    owners, rows = _subset_rows(index, s)
    subset_count, ids = _subset_ids(rows, index.node_count)
    order = np.lexsort((ids, owners))
    edge_ptr = np.zeros(index.edge_count + 1, dtype=np.int64)
    np.cumsum(np.bincount(owners, minlength=index.edge_count), out=edge_ptr[1:])
    return build_incidence_index(subset_count, edge_ptr, ids[order].astype(np.int32))
