import { describe, expect, test } from "vitest";
import { ApiError } from "../../api/client";
import { accountLinks, authView, type Me } from "../authView";

const user = { id: "u1", email: "ada@example.org", role: "member" as const, disabled: false, created_at: "2026-11-23T00:00:00Z" };
const local: Me = { auth_enabled: false, user: { ...user, email: "local@localhost", role: "admin" }, csrf_token: null };
const member: Me = { auth_enabled: true, user, csrf_token: "c".repeat(64) };

describe("authView", () => {
  test("auth off shows the app without the account menu", () => {
    expect(authView({ me: local, error: null, pending: false })).toEqual({ kind: "app", me: local, showAccount: false });
  });

  test("a logged-in user gets the account menu", () => {
    expect(authView({ me: member, error: null, pending: false })).toMatchObject({ kind: "app", showAccount: true });
  });

  test("a 401 shows the login page; other failures say what happened; a pending query waits", () => {
    expect(authView({ me: undefined, error: new ApiError(401, "Authentication required"), pending: false })).toEqual({ kind: "login" });
    expect(authView({ me: undefined, error: new ApiError(0, "The server could not be reached."), pending: false })).toEqual({
      kind: "error",
      message: "The server could not be reached.",
    });
    expect(authView({ me: undefined, error: null, pending: true })).toEqual({ kind: "loading" });
  });

  test("a 401 on refetch shows the login even though the old answer is still cached", () => {
    expect(authView({ me: member, error: new ApiError(401, "Your login has expired"), pending: false })).toEqual({ kind: "login" });
    expect(authView({ me: member, error: new ApiError(0, "unreachable"), pending: false })).toMatchObject({ kind: "app" });
  });
});

describe("accountLinks", () => {
  test("members get their tokens; admins also the users page", () => {
    expect(accountLinks(member).map((l) => l.to)).toEqual(["/account/tokens"]);
    const admin: Me = { ...member, user: { ...user, role: "admin" } };
    expect(accountLinks(admin).map((l) => l.to)).toEqual(["/account/tokens", "/admin/users"]);
  });
});
