"""The two-objective non-dominated sort we wrote before switching to moocore, kept to measure both.

numpy collapses identical points (one sort of the pairs as complex numbers, which order
lexicographically), then the distinct points, novelty falling, are placed by patience sorting:
front m's most recent point dominates the next point p exactly when its feasibility ≥ p's, and
those last feasibilities rise across fronts, so p's front is one `bisect_right` (one Python
iteration per distinct point — the cost that kept it at ~2.4× moocore at N = 1,000).
Same ranks as `forge.core.selection.pareto.front_ranks`; bench_selection.py checks that.
"""

from __future__ import annotations

import math
from bisect import bisect_right

import numpy as np
import numpy.typing as npt


def python_front_ranks(points: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    complex_points = np.empty(len(points), dtype=np.complex128)
    complex_points.real = points[:, 0]
    complex_points.imag = points[:, 1]
    distinct, back = np.unique(complex_points, return_inverse=True)
    keys = (-distinct.imag[::-1]).tolist()
    last_keys = [math.inf]
    fronts: list[int] = []
    record, count = fronts.append, 0
    for key in keys:
        front = bisect_right(last_keys, key)
        last_keys[front] = key
        if front == count:
            last_keys.append(math.inf)
            count += 1
        record(front)
    fronts.reverse()
    return np.fromiter(fronts, dtype=np.int64, count=len(fronts))[back.reshape(-1)]
