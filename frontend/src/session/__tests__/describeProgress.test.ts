import { describe, expect, test } from "vitest";
import { recordedOf } from "../../test/sessionEvents";
import { currentStep, formatElapsed } from "../describeProgress";
import type { ActivityItem } from "../sessionTimeline";

describe("currentStep", () => {
  test("names the tool that is running, in words", () => {
    const items: ActivityItem[] = [{ kind: "tool_call", id: 3, tool: "extract_assumptions", preview: "{}" }];
    expect(currentStep(items)).toBe("Running extract assumptions");
  });

  test("after a tool answered, says the agent decides what is next", () => {
    const result = recordedOf("tool_result");
    expect(currentStep([{ kind: "tool_result", id: result.id, event: result }])).toMatch(/^Finished .+; deciding the next step$/);
  });

  test("a new phase is starting; nothing yet says nothing", () => {
    expect(currentStep([{ kind: "phase", id: 1, phase: "explore", round: 0 }])).toBe("Starting the phase");
    expect(currentStep([])).toBeNull();
  });
});

describe("formatElapsed", () => {
  test("reads as seconds, then minutes, then hours", () => {
    expect(formatElapsed(8_400)).toBe("8 s");
    expect(formatElapsed(125_000)).toBe("2 min 05 s");
    expect(formatElapsed(3_780_000)).toBe("1 h 03 min");
    expect(formatElapsed(-5)).toBe("0 s");
  });
});
