import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { PayloadOf } from "../../../api/events";
import { ContextMeter } from "../ContextMeter";

const USAGE: PayloadOf<"context_usage"> = {
  tokens_used: 4_000,
  tokens_limit: 200_000,
  tokens_remaining: 196_000,
  usage_percentage: 2,
  model: "m",
  cost_usd: 0,
  phase: "explore",
  phase_cost_usd: 0,
  phase_tokens: 4_000,
  session_cost_usd: 0,
  session_tokens: 9_000,
  cache_read_tokens: 0,
  cache_creation_tokens: 0,
  price_known: true,
};

const CURATION = {
  tokens_available: 12_345,
  tokens_sent: 4_000,
  must_keep_tokens: 3_000,
  optional_tokens: 1_000,
  budget_tokens: 60_000,
  carry_budget_tokens: 1_000,
  stop_rule_triggered: true,
  fell_back: false,
  units_full: 4,
  units_digest: 1,
  units_dropped: 2,
  units: [],
};

describe("ContextMeter", () => {
  it("shows the curated tokens sent of those available and how many exchanges were left out", () => {
    render(<ContextMeter usage={{ ...USAGE, curation: CURATION }} model="m" />);
    const line = screen.getByTestId("context-curation");
    expect(line).toHaveTextContent("curated: 4,000 of 12,345 tokens sent");
    expect(line).toHaveTextContent("3 exchanges left out (recallable)");
  });

  it("says nothing about curation for a call that was not curated", () => {
    render(<ContextMeter usage={USAGE} model="m" />);
    expect(screen.queryByTestId("context-curation")).toBeNull();
    expect(screen.getByTestId("context-meter")).toHaveTextContent("4,000 / 200,000 tokens");
  });

  it("warns that the cost is unknown, not $0, for a model with no known price", () => {
    render(<ContextMeter usage={{ ...USAGE, model: "private-finetune-7", price_known: false }} model="m" />);
    expect(screen.getByTestId("price-unknown")).toHaveTextContent("No price is known for private-finetune-7");
  });

  it("gives no price warning for a priced model", () => {
    render(<ContextMeter usage={USAGE} model="m" />);
    expect(screen.queryByTestId("price-unknown")).toBeNull();
  });
});
