import { describe, expect, test } from "vitest";
import { itemFromFrame } from "../events";
import { SseFrameParser } from "../parseSseFrames";

describe("SseFrameParser", () => {
  test("parses a complete frame with id, event and data", () => {
    const frames = new SseFrameParser().push('id: 7\nevent: tool_call\ndata: {"tool":"research"}\n\n');
    expect(frames).toEqual([{ id: "7", event: "tool_call", data: '{"tool":"research"}' }]);
  });

  test("joins frames split across chunks anywhere, including inside CRLF", () => {
    const parser = new SseFrameParser();
    const text = "id: 1\r\nevent: agent_text\r\ndata: \"hel\r\n\r\nid: 2\r\nevent: done\r\ndata: {}\r\n\r\n";
    const frames = [...text].flatMap((ch) => parser.push(ch));
    expect(frames.map((f) => [f.id, f.event])).toEqual([
      ["1", "agent_text"],
      ["2", "done"],
    ]);
  });

  test("joins multi-line data with newlines and ignores comments", () => {
    const frames = new SseFrameParser().push(": ping\nevent: x\ndata: a\ndata: b\n\n");
    expect(frames).toEqual([{ id: null, event: "x", data: "a\nb" }]);
  });

  test("drops a frame without data and defaults the event name to message", () => {
    const parser = new SseFrameParser();
    expect(parser.push("event: nothing\n\n")).toEqual([]);
    expect(parser.push("data: hi\n\n")).toEqual([{ id: null, event: "message", data: "hi" }]);
  });

  test("keeps an incomplete frame until its blank line arrives", () => {
    const parser = new SseFrameParser();
    expect(parser.push("id: 3\nevent: done\ndata: {}\n")).toEqual([]);
    expect(parser.push("\n")).toHaveLength(1);
  });

  test("a frame's id is its own id line: a frame without one has none (it does not inherit)", () => {
    const parser = new SseFrameParser();
    const frames = parser.push('id: 7\nevent: agent_text\ndata: "a"\n\nevent: agent_text_delta\ndata: {"text":"b"}\n\nid:\nevent: x\ndata: {}\n\n');
    expect(frames.map((f) => f.id)).toEqual(["7", null, null]);
  });
});

describe("itemFromFrame", () => {
  test("a frame with a numeric id is a stored event", () => {
    expect(itemFromFrame({ id: "3", event: "agent_text", data: '"Hello"' })).toEqual({
      kind: "stored",
      event: { id: 3, type: "agent_text", data: "Hello", created_at: "" },
    });
  });

  test("a live type without an id is a live event", () => {
    expect(itemFromFrame({ id: null, event: "agent_text_delta", data: '{"text":"Hel"}' })).toEqual({
      kind: "live",
      event: { type: "agent_text_delta", data: { text: "Hel" } },
    });
    expect(itemFromFrame({ id: null, event: "agent_text_discarded", data: '{"reason":"cut"}' })?.kind).toBe("live");
  });

  test("an error without an id is the server closing the stream", () => {
    const data = JSON.stringify({ code: "SERVER_SHUTDOWN", message: "The server is shutting down.", recoverable: true, severity: "warning" });
    expect(itemFromFrame({ id: null, event: "error", data })).toEqual({
      kind: "closed",
      closed: { code: "SERVER_SHUTDOWN", message: "The server is shutting down.", recoverable: true },
    });
  });

  test("anything else is ignored: unknown id-less types, inherited names, bad ids, bad JSON", () => {
    expect(itemFromFrame({ id: null, event: "tool_call", data: "{}" })).toBeNull();
    expect(itemFromFrame({ id: null, event: "toString", data: "{}" })).toBeNull();
    expect(itemFromFrame({ id: "x1", event: "tool_call", data: "{}" })).toBeNull();
    expect(itemFromFrame({ id: "1", event: "tool_call", data: "{" })).toBeNull();
  });
});
