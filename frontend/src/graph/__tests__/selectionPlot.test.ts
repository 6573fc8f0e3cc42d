import { describe, expect, test } from "vitest";
import { frontPath, heatCells, heatFill, heatTextColor, placePoints, ticks } from "../selectionPlot";

const BOX = { width: 220, height: 120, margin: 10 };
const point = (id: string, novelty: number, feasibility: number, rank: number) => ({ id, novelty, feasibility, rank });

describe("placePoints", () => {
  test("novelty runs left to right and feasibility bottom to top inside the margins", () => {
    const placed = placePoints([point("a", 0, 0, 1), point("b", 1, 1, 0)], BOX);
    expect(placed.map((p) => [p.x, p.y, p.onFront])).toEqual([
      [10, 110, false],
      [210, 10, true],
    ]);
  });

  test("values outside 0..1 are clamped to the box", () => {
    expect(placePoints([point("a", 1.4, -0.2, 0)], BOX).map((p) => [p.x, p.y])).toEqual([[210, 110]]);
  });
});

describe("frontPath", () => {
  test("joins front points by novelty with a staircase and ignores the rest", () => {
    const placed = placePoints([point("c", 0.5, 0.5, 0), point("a", 0, 1, 0), point("x", 0.9, 0.9, 1), point("b", 1, 0, 0)], BOX);
    expect(frontPath(placed)).toBe("M10.0,10.0 H110.0 V60.0 H210.0 V110.0");
  });

  test("is empty without a front", () => {
    expect(frontPath(placePoints([point("x", 0.2, 0.2, 2)], BOX))).toBe("");
  });
});

test("ticks sit at quarters, reversed for a vertical axis", () => {
  expect(ticks(10, 100).map((t) => t.at)).toEqual([10, 35, 60, 85, 110]);
  expect(ticks(10, 100, true)[0]).toEqual({ value: 0, at: 110 });
});

describe("heatCells", () => {
  const cells = [
    { mechanism_family: "flow", data_granularity: "event", explored: 4, kept: 3 },
    { mechanism_family: "flow", data_granularity: "group", explored: 0, kept: 0 },
    { mechanism_family: "network", data_granularity: "event", explored: 1, kept: 1 },
    { mechanism_family: "unknown", data_granularity: "event", explored: 9, kept: 3 },
  ];

  test("places cells on the axes and scales intensity by the fullest cell; empty cells are 0", () => {
    const placed = heatCells(cells, ["flow", "network"], ["event", "group"]);
    expect(placed.map((c) => [c.row, c.column, c.intensity])).toEqual([
      [0, 0, 1],
      [0, 1, 0],
      [1, 0, 0.4375],
    ]);
  });

  test("an empty cell is light and labels stay readable on dark cells", () => {
    expect(heatFill(0)).toBe("rgb(241 245 249)");
    expect(heatFill(1)).toBe("rgba(79, 70, 229, 1.00)");
    expect(heatTextColor(1)).toBe("#ffffff");
    expect(heatTextColor(0.3)).toBe("#0f172a");
  });
});
