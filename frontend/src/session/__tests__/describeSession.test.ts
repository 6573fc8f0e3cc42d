import { describe, expect, test } from "vitest";
import { describeStatus, type LiveFacts } from "../describeSession";

const session = (status: string, running = false, awaiting_input_type: string | null = null) => ({ status, running, awaiting_input_type });

describe("describeStatus", () => {
  test("trusts the server's running flag and the review it waits for", () => {
    expect(describeStatus(session("exploring", true)).label).toBe("Working");
    expect(describeStatus(session("exploring", false, "explore_review")).label).toBe("Needs your review");
    expect(describeStatus(session("exploring")).label).toBe("Paused");
  });

  test("crystallizing is its own state: paused before the document, or writing it", () => {
    expect(describeStatus(session("crystallizing"))).toEqual({ label: "Crystallizing · paused", tone: "violet" });
    expect(describeStatus(session("crystallizing", true))).toEqual({ label: "Writing the document", tone: "sky" });
  });

  test("crystallized and cancelled win over anything else", () => {
    expect(describeStatus(session("crystallized", true)).label).toBe("Crystallized");
    expect(describeStatus(session("cancelled", false, "verdicts")).label).toBe("Cancelled");
  });

  test("an unknown status reads as paused rather than breaking the page", () => {
    expect(describeStatus(session("something_new")).label).toBe("Paused");
  });
});

describe("describeStatus with the live stream", () => {
  const live = (over: Partial<LiveFacts> = {}): LiveFacts => ({ turn: "running", reviewWaiting: false, connection: "live", hasDocument: false, ...over });

  test("a review the server awaits wins over a run lease that has not been released yet", () => {
    expect(describeStatus(session("exploring", true, "explore_review")).label).toBe("Needs your review");
  });

  test("a review delivered by the stream waits even when the fetched session still says running", () => {
    expect(describeStatus(session("exploring", true), live({ turn: "awaiting_input", reviewWaiting: true, connection: "idle" })).label).toBe("Needs your review");
  });

  test("a turn the stream follows is working even when the fetched session still names the answered review", () => {
    expect(describeStatus(session("exploring", false, "decompose_review"), live({ connection: "live" })).label).toBe("Working");
    expect(describeStatus(session("crystallizing", false, null), live({ connection: "connecting" })).label).toBe("Writing the document");
  });

  test("a lost stream says so instead of guessing", () => {
    expect(describeStatus(session("exploring", true), live({ connection: "reconnecting" }))).toEqual({ label: "Reconnecting…", tone: "slate" });
  });

  test("a turn that ended in an error says it stopped", () => {
    expect(describeStatus(session("validating"), live({ turn: "failed", connection: "idle" })).label).toBe("Stopped by an error");
  });

  test("the document delivered by the stream means crystallized before the session is re-fetched", () => {
    expect(describeStatus(session("crystallizing", true), live({ hasDocument: true })).label).toBe("Crystallized");
  });

  test("with the stream at rest the server's fields decide, as on the home list", () => {
    for (const fields of [session("exploring", true), session("exploring", false, "explore_review"), session("exploring")]) {
      expect(describeStatus(fields, live({ turn: "idle", connection: "idle" }))).toEqual(describeStatus(fields));
    }
  });
});
