"""The report's plot as SVG text: left, each arm's mean score with its 95% bootstrap interval; right,
each item's cost against its score, one colour per arm.

Invariants:
    - Pure and deterministic (text out, no fonts or libraries); every number is escaped-free (floats).
    - An offline run's plot carries the offline notice (`PLOT_OFFLINE_NOTICE`, short enough to fit) as its subtitle.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from forge.core.evaluation.records import Arm, ItemResult
from forge.core.evaluation.summary import ArmSummary

WIDTH, HEIGHT = 760, 340
PANEL = (60, 60, 300, 220)  # left, top, width, height of each panel
COLOURS = {Arm.ENGINE: "#1f6feb", Arm.DIRECT: "#d97706"}


def _y(score: float, scale: tuple[float, float]) -> float:
    low, high = scale
    _, top, _, height = PANEL
    return top + height - (score - low) / ((high - low) or 1.0) * height


def _axes(x0: float, label_x: str, label_y: str) -> list[str]:
    _, top, width, height = PANEL
    return [
        f'<rect x="{x0}" y="{top}" width="{width}" height="{height}" fill="none" stroke="#888"/>',
        f'<text x="{x0 + width / 2}" y="{top + height + 36}" text-anchor="middle">{escape(label_x)}</text>',
        f'<text x="{x0 - 40}" y="{top + height / 2}" text-anchor="middle" transform="rotate(-90 {x0 - 40} {top + height / 2})">{escape(label_y)}</text>',
    ]


def _score_panel(summaries: Sequence[ArmSummary], scale: tuple[float, float]) -> list[str]:
    left, top, width, height = PANEL
    parts = _axes(left, "arm", "score (mean, 95% interval)")
    parts += [f'<text x="{left - 6}" y="{_y(v, scale) + 4:.1f}" text-anchor="end">{v:g}</text>' for v in scale]
    step = width / (len(summaries) + 1)
    for n, s in enumerate(summaries, start=1):
        x, colour = left + n * step, COLOURS.get(s.arm, "#555")
        parts += [
            f'<line x1="{x:.1f}" y1="{_y(s.low, scale):.1f}" x2="{x:.1f}" y2="{_y(s.high, scale):.1f}" stroke="{colour}" stroke-width="2"/>',
            f'<circle cx="{x:.1f}" cy="{_y(s.mean, scale):.1f}" r="5" fill="{colour}"/>',
            f'<text x="{x:.1f}" y="{top + height + 16}" text-anchor="middle">{escape(s.arm.value)} (n={s.n})</text>',
        ]
    return parts


def _cost_panel(results: Sequence[ItemResult], scale: tuple[float, float]) -> list[str]:
    left = PANEL[0] + PANEL[2] + 80
    _, top, width, height = PANEL
    parts = _axes(left, "cost per item (USD)", "score")
    parts += [f'<text x="{left - 6}" y="{_y(v, scale) + 4:.1f}" text-anchor="end">{v:g}</text>' for v in scale]
    spent = max((r.cost_usd for r in results), default=0.0)
    most = spent or 1.0
    right_label = f"{spent:.4g}" if spent else "every item cost $0"
    parts.append(f'<text x="{left}" y="{top + height + 16}">0</text>')
    parts.append(f'<text x="{left + width}" y="{top + height + 16}" text-anchor="end">{right_label}</text>')
    for n, arm in enumerate(COLOURS):
        key_x = left + 10 + n * 80
        parts.append(f'<circle cx="{key_x}" cy="{top + 12}" r="4" fill="{COLOURS[arm]}"/>')
        parts.append(f'<text x="{key_x + 8}" y="{top + 16}">{arm.value}</text>')
    for r in results:
        x = left + r.cost_usd / most * width
        y = _y(r.score if r.score is not None else scale[0], scale)
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{COLOURS.get(r.arm, "#555")}" fill-opacity="0.6"/>'
        )
    return parts


def render_plot_svg(
    title: str, summaries: Sequence[ArmSummary], results: Sequence[ItemResult], scale: tuple[float, float], notice: str
) -> str:
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
        f'<text x="20" y="22" font-size="15" font-weight="bold">{escape(title)}</text>',
    ]
    if notice:
        parts.append(f'<text x="20" y="40" fill="#b91c1c">{escape(notice)}</text>')
    parts += _score_panel(summaries, scale) + _cost_panel(results, scale) + ["</svg>"]
    return "\n".join(parts) + "\n"
