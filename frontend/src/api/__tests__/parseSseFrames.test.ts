import { describe, expect, test } from "vitest";
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
});
