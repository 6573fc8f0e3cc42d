import { describe, expect, test } from "vitest";
import { describeStatus } from "../describeSession";

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
