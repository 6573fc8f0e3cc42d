import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { GraphmlDownload, graphmlUrl } from "../GraphmlDownload";

describe("GraphmlDownload", () => {
  it("links to the session's GraphML as a named download, saying what it is for", () => {
    render(<GraphmlDownload sessionId="s 1" className="x" />);
    const link = screen.getByRole("link", { name: "Download the graph (GraphML)" });
    expect(link.getAttribute("href")).toBe("/api/v1/sessions/s%201/graph.graphml");
    expect(link.getAttribute("download")).toBe("knowledge-graph-s 1.graphml");
    expect(link.getAttribute("title")).toMatch(/Gephi/);
    expect(graphmlUrl("abc")).toBe("/api/v1/sessions/abc/graph.graphml");
  });
});
