import { describe, expect, test } from "vitest";
import { decodeMermaidText, parseMermaidFlowchart } from "../parseMermaidFlowchart";

describe("parseMermaidFlowchart", () => {
  test("reads the document's knowledge graph: labelled nodes and typed edges", () => {
    const chart = parseMermaidFlowchart(['graph LR', '  C1["Queue by acuity #lt;5 min#gt;"]', '  C2["Open a fast track"]', "  C1 -->|supports| C2"].join("\n"));
    expect(chart).toEqual({
      direction: "LR",
      nodes: [
        { id: "C1", label: "Queue by acuity <5 min>" },
        { id: "C2", label: "Open a fast track" },
      ],
      edges: [{ source: "C1", target: "C2", label: "supports", dashed: false }],
    });
  });

  test("reads inline nodes, chains, other arrows and TD as top-to-bottom", () => {
    const chart = parseMermaidFlowchart('flowchart TD\nA[Start] --> B("Middle") -.-> C{End}\nA -- depends on --> C\n%% a comment\nD');
    expect(chart?.direction).toBe("TB");
    expect(chart?.nodes.map((n) => n.label)).toEqual(["Start", "Middle", "End", "D"]);
    expect(chart?.edges).toEqual([
      { source: "A", target: "B", label: "", dashed: false },
      { source: "B", target: "C", label: "", dashed: true },
      { source: "A", target: "C", label: "depends on", dashed: false },
    ]);
  });

  test("anything it does not know is left to be shown as source", () => {
    expect(parseMermaidFlowchart("sequenceDiagram\nA->>B: hi")).toBeNull();
    expect(parseMermaidFlowchart("graph LR\nA --> ")).toBeNull();
    expect(parseMermaidFlowchart("graph LR\nclick A callback")).toBeNull();
    expect(parseMermaidFlowchart("")).toBeNull();
  });

  test("decodes Mermaid's entity codes and leaves unknown ones", () => {
    expect(decodeMermaidText("a #quot;b#quot; #35;1 #nope;")).toBe('a "b" #1 #nope;');
  });
});

describe("layoutFlowchart", () => {
  test("places every node apart, inside the picture, with the edge label on its own box", async () => {
    const { layoutFlowchart } = await import("../layoutFlowchart");
    const chart = parseMermaidFlowchart('graph LR\nC1["A long first claim about queues and the people waiting in them"]\nC2["Second"]\nC3["Third"]\nC1 -->|supports| C2\nC1 -->|extends| C3')!;
    const layout = layoutFlowchart(chart);
    expect(layout.nodes).toHaveLength(3);
    for (const n of layout.nodes) {
      expect(n.x).toBeGreaterThanOrEqual(0);
      expect(n.y + n.height).toBeLessThanOrEqual(layout.height);
    }
    const [a, b, c] = layout.nodes;
    expect(a!.lines.length).toBeGreaterThan(1);
    expect(b!.x).toBeGreaterThan(a!.x + a!.width); // left to right
    expect(Math.abs(b!.y - c!.y)).toBeGreaterThanOrEqual(Math.min(b!.height, c!.height)); // not on top of each other
    expect(layout.edges.every((e) => e.labelBox !== null && e.points.length >= 2)).toBe(true);
  });

  test("wraps Chinese text by width, counting each character double", async () => {
    const { wrapLabel, textUnits } = await import("../layoutFlowchart");
    const lines = wrapLabel("医院如何在不增加人手的情况下缩短急诊等候时间", 10);
    expect(lines.every((line) => textUnits(line) <= 10)).toBe(true);
    expect(lines.join("")).toBe("医院如何在不增加人手的情况下缩短急诊等候时间");
  });
});
