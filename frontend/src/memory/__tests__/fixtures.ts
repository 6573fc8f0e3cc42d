/** A remembered hypothesis as GET /api/v1/memory/hypotheses lists it: supported twice, in two sessions. */
import type { RememberedHypothesis } from "../describeMemory";

export function rememberedTriage(overrides: Partial<RememberedHypothesis> = {}): RememberedHypothesis {
  return {
    id: "e1",
    text: "Triage by urgency at the emergency door cuts waits for the sickest",
    confidence: 0.433,
    score: 0.433,
    similarity: 1,
    support_count: 2,
    contradiction_count: 0,
    origin_question: "How can a hospital cut emergency waits?",
    origin_session_id: "s1",
    parent_ids: [],
    created_at: "2026-11-20T10:00:00Z",
    episode_type: "hypothesis",
    rationale: "",
    usage_history: [
      { at: "2026-11-20T10:00:00Z", session_id: "s1", context: "How can a hospital cut emergency waits?", outcome: "supported", c_before: 0.3, c_after: 0.37, rule: "§2.2 support" },
      { at: "2026-11-21T10:00:00Z", session_id: "s2", context: "How can a clinic cut patient waits?", outcome: "supported", c_before: 0.37, c_after: 0.433, rule: "§2.2 support" },
    ],
    ...overrides,
  };
}
