/**
 * Plain-words explanations of the error codes the agent's tools return (the 15 rules and more) and
 * of the codes that end a run or a live stream. Typed against the generated schema: a code the backend adds and this
 * table lacks fails the type check instead of showing a vague fallback.
 */
import type { Schemas } from "../api/client";

type ToolErrorCode = Schemas["ErrorCode"];
type RunErrorCode = Exclude<Schemas["ErrorData"]["code"], ToolErrorCode>;

const EXPLANATIONS: Record<ToolErrorCode | RunErrorCode, string> = {
  DECOMPOSE_INCOMPLETE: "Decomposition is not finished: exploring needs the fundamentals, a researched state of the art, at least 3 assumptions, at least 3 reframings and one reframing you selected.",
  EXPLORE_INCOMPLETE: "Exploration is not finished: synthesis needs a morphological box, at least 2 cross-domain searches, a contradiction and one analogy you starred.",
  ANTITHESIS_MISSING: "A synthesis was attempted before its antithesis: every claim needs its strongest counter-argument first.",
  SYNTHESIS_INCOMPLETE: "Not every claim has an antithesis yet, so validation cannot start.",
  FALSIFICATION_MISSING: "A claim was scored before anyone tried to falsify it: say what observation would prove it wrong first.",
  NOVELTY_UNCHECKED: "A claim was scored before its novelty was checked against what is already known.",
  UNGROUNDED_CLAIM: "A claim has no external evidence behind it.",
  CLAIM_LIMIT_EXCEEDED: "Too many claims in this round: at most three per round keep the review focused.",
  NOT_CUMULATIVE: "From round two on, a new claim must build on an earlier claim.",
  NEGATIVE_KNOWLEDGE_MISSING: "From round two on, the model must read what was rejected before (negative knowledge) before synthesising.",
  MAX_ROUNDS_EXCEEDED: "The session reached its maximum of 5 rounds: resolve it now.",
  STATE_OF_ART_NOT_RESEARCHED: "The state of the art was summarised without research: search first.",
  CROSS_DOMAIN_NOT_SEARCHED: "An analogy was proposed without searching its source domain first.",
  ANTITHESIS_NOT_SEARCHED: "An antithesis was stated without searching for counter-evidence first.",
  FALSIFICATION_NOT_SEARCHED: "A falsification attempt was made without searching for disproof first.",
  UNKNOWN_TOOL: "The model asked for a tool that does not exist; it was told which tools it has.",
  TOOL_NOT_IN_PHASE: "The model used a tool that belongs to another phase; it was told which tools this phase offers.",
  INVALID_INPUT: "The model sent a tool input with missing or malformed fields; it was told what to fix.",
  CLAIM_NOT_FOUND: "The model referred to a claim that does not exist.",
  GRAPH_CYCLE: "That link would make the knowledge graph circular (a claim supporting itself), so it was refused.",
  TOOL_FAILED: "A tool failed while running; the model was told and can try again.",
  PHASE_WORK_INCOMPLETE: "The model tried to end the phase early; it was told what work is still missing.",
  BUDGET_EXHAUSTED: "The session's token or cost budget is used up; raise the budget to go on.",
  CANCELLED: "The run was cancelled; the session keeps everything done so far and can be resumed.",
  RUN_FAILED: "The run stopped on an unexpected error; the session keeps everything done so far and can be resumed.",
  RUN_INCOMPLETE: "The run stopped before reaching a review or the document; resume the session to let it finish the phase.",
  MAX_ITERATIONS: "The phase took more model turns than allowed without finishing; resume to give it another try.",
  CONTEXT_OVERFLOW: "The conversation grew past the model's context window even after compaction.",
  MODEL_ERROR: "The language model could not be reached or answered with an error; check the provider settings and resume.",
  SERVER_SHUTDOWN: "The server is shutting down; the live view reconnects by itself once it is back, and the run resumes where it stopped.",
  SESSION_DELETED: "This session was deleted; there is nothing left to follow.",
  EVENTS_UNAVAILABLE: "The server could not read the session's events for a moment; the live view reconnects by itself.",
  RUN_NOT_RUNNING: "Nothing was running this session (its server stopped); the live view starts it again by itself.",
};

export function explainErrorCode(code: string): string {
  return (EXPLANATIONS as Record<string, string>)[code] ?? "The tool refused this call; the model was told why and can correct it.";
}
