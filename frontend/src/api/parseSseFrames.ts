/**
 * An incremental Server-Sent Events parser (WHATWG rules): feed it text chunks as they arrive,
 * get back complete frames. Chunks may split anywhere, even inside a line or a CRLF pair.
 * Comment lines (`:`) are ignored; a frame without data is dropped, as browsers do.
 *
 * Unlike EventSource's `lastEventId` (which an id-less frame inherits), a frame's `id` here is the
 * `id:` line of THAT frame, or null: the server sends live events without one, and they must not
 * be mistaken for the stored event before them nor move the resume cursor.
 */
export interface SseFrame {
  /** This frame's own `id:` field; null when the frame has none (or an empty one). */
  readonly id: string | null;
  readonly event: string;
  readonly data: string;
}

export class SseFrameParser {
  private buffer = "";
  private event = "";
  private data: string[] = [];
  private id: string | null = null;

  push(chunk: string): SseFrame[] {
    this.buffer += chunk;
    const frames: SseFrame[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A lone CR at the very end may be the first half of CRLF: wait for the next chunk.
      if (match[0] === "\r" && match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const frame = this.line(line);
      if (frame) frames.push(frame);
    }
    return frames;
  }

  private line(line: string): SseFrame | null {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    else if (field === "id" && !value.includes("\0")) this.id = value;
    return null;
  }

  private dispatch(): SseFrame | null {
    const frame = this.data.length ? { id: this.id || null, event: this.event || "message", data: this.data.join("\n") } : null;
    this.event = "";
    this.data = [];
    this.id = null;
    return frame;
  }
}
