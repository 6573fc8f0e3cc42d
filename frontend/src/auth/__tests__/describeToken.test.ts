import { describe, expect, test } from "vitest";
import { describeToken, timeAgo, tokenRows, type Token } from "../describeToken";

const NOW = new Date("2026-11-23T12:00:00Z");
const token = (over: Partial<Token>): Token => ({
  id: "t1",
  name: "ci",
  prefix: "kf_abcdef",
  created_at: "2026-11-20T12:00:00Z",
  last_used_at: null,
  revoked_at: null,
  ...over,
});

describe("timeAgo", () => {
  test("says never, just now, then minutes, hours and days", () => {
    expect(timeAgo(null, NOW)).toBe("never");
    expect(timeAgo("2026-11-23T11:59:30Z", NOW)).toBe("just now");
    expect(timeAgo("2026-11-23T11:59:00Z", NOW)).toBe("1 minute ago");
    expect(timeAgo("2026-11-23T09:00:00Z", NOW)).toBe("3 hours ago");
    expect(timeAgo("2026-11-20T12:00:00Z", NOW)).toBe("3 days ago");
  });
});

describe("token rows", () => {
  test("an active token shows its prefix and last use; a revoked one says when", () => {
    expect(describeToken(token({ last_used_at: "2026-11-23T11:55:00Z" }), NOW)).toEqual({
      id: "t1",
      name: "ci",
      prefix: "kf_abcdef…",
      active: true,
      status: "active",
      lastUsed: "5 minutes ago",
    });
    expect(describeToken(token({ revoked_at: "2026-11-22T12:00:00Z" }), NOW).status).toBe("revoked 1 day ago");
  });

  test("active tokens come first, newest first", () => {
    const rows = tokenRows(
      [
        token({ id: "old", created_at: "2026-11-01T00:00:00Z" }),
        token({ id: "gone", created_at: "2026-11-22T00:00:00Z", revoked_at: "2026-11-22T01:00:00Z" }),
        token({ id: "new", created_at: "2026-11-21T00:00:00Z" }),
      ],
      NOW,
    );
    expect(rows.map((r) => r.id)).toEqual(["new", "old", "gone"]);
  });
});
