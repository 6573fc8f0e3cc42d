/**
 * Plot math for the claims review's selection plots, framework-free: the Pareto scatter (novelty ×
 * feasibility, both 0..1) laid out in an SVG box, the front as a staircase line, and the MOME grid
 * as heat-map cells. Pure functions, tested with Vitest; the components only draw what these return.
 */

export interface PlotBox {
  readonly width: number;
  readonly height: number;
  readonly margin: number;
}

export interface PlotInputPoint {
  readonly id: string;
  readonly novelty: number;
  readonly feasibility: number;
  readonly rank: number;
}

export interface PlacedPoint<P extends PlotInputPoint> {
  readonly point: P;
  readonly x: number;
  readonly y: number;
  readonly onFront: boolean;
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** Novelty on x (left → right), feasibility on y (bottom → top), inside the margins. */
export function placePoints<P extends PlotInputPoint>(points: readonly P[], box: PlotBox): PlacedPoint<P>[] {
  const w = box.width - 2 * box.margin;
  const h = box.height - 2 * box.margin;
  return points.map((point) => ({
    point,
    x: box.margin + clamp01(point.novelty) * w,
    y: box.margin + (1 - clamp01(point.feasibility)) * h,
    onFront: point.rank === 0,
  }));
}

/**
 * The front as an SVG path: front points by novelty ascending joined by a staircase (each step
 * holds the better feasibility until novelty reaches the next point), "" when there is no front.
 */
export function frontPath(placed: readonly PlacedPoint<PlotInputPoint>[]): string {
  const front = placed.filter((p) => p.onFront).sort((a, b) => a.x - b.x || a.y - b.y);
  const [first, ...rest] = front;
  if (first === undefined) return "";
  let d = `M${first.x.toFixed(1)},${first.y.toFixed(1)}`;
  for (const p of rest) d += ` H${p.x.toFixed(1)} V${p.y.toFixed(1)}`;
  return d;
}

/** Tick positions for an axis of 0..1 (0, .25, .5, .75, 1) in pixels along `length` from `start`. */
export function ticks(start: number, length: number, reverse = false): { value: number; at: number }[] {
  return [0, 0.25, 0.5, 0.75, 1].map((value) => ({ value, at: start + (reverse ? 1 - value : value) * length }));
}

export interface GridInputCell {
  readonly mechanism_family: string;
  readonly data_granularity: string;
  readonly explored: number;
  readonly kept: number;
}

export interface HeatCell<C extends GridInputCell> {
  readonly cell: C;
  readonly row: number;
  readonly column: number;
  /** 0 for an empty cell, else 0.25..1 by explored count relative to the fullest cell. */
  readonly intensity: number;
}

/** Cells on rows (mechanism families) × columns (granularities) in the axes' order, with intensity. */
export function heatCells<C extends GridInputCell>(cells: readonly C[], families: readonly string[], granularities: readonly string[]): HeatCell<C>[] {
  const onAxes = cells
    .map((cell) => ({ cell, row: families.indexOf(cell.mechanism_family), column: granularities.indexOf(cell.data_granularity) }))
    .filter((c) => c.row >= 0 && c.column >= 0);
  const most = Math.max(0, ...onAxes.map((c) => c.cell.explored));
  return onAxes.map((c) => ({ ...c, intensity: c.cell.explored === 0 || most === 0 ? 0 : 0.25 + 0.75 * (c.cell.explored / most) }));
}

/** A fill for an intensity: slate for empty, indigo rising in opacity with the count. */
export function heatFill(intensity: number): string {
  return intensity === 0 ? "rgb(241 245 249)" : `rgba(79, 70, 229, ${intensity.toFixed(2)})`;
}

/** Text on a cell must stay readable: white on dark cells, dark on light ones. */
export function heatTextColor(intensity: number): string {
  return intensity > 0.55 ? "#ffffff" : "#0f172a";
}
