import { describe, expect, test } from "vitest";
import { engineProgressText } from "../engineProgressText";

describe("engineProgressText", () => {
  test("names a known stage and counts calls, failures only when there are some", () => {
    expect(engineProgressText({ stage: "biso", done: 7, total: 18, failed: 0 })).toEqual({
      label: "Transferring ideas from distant domains",
      count: "7 of 18 model calls",
    });
    expect(engineProgressText({ stage: "biso", done: 18, total: 18, failed: 2 }).count).toBe("18 of 18 model calls, 2 failed");
    expect(engineProgressText({ stage: "solve", done: 3, total: 19, failed: 0 }).label).toMatch(/^Solving/);
  });

  test("an unknown stage is still shown, by its name", () => {
    expect(engineProgressText({ stage: "gleaning", done: 0, total: 4, failed: 0 }).label).toBe("Engine: gleaning");
  });
});
