import { describe, expect, test } from "vitest";
import { emailProblem, loginProblems, newPasswordProblem, tokenNameProblem } from "../validateAccountForms";

describe("account form checks", () => {
  test("a login needs an email that looks like one and a password", () => {
    expect(loginProblems("", "")).toEqual(["Enter your email address.", "Enter your password."]);
    expect(loginProblems("ada", "x")).toEqual(["The email address must look like name@example.org."]);
    expect(loginProblems("  ada@example.org ", "secret")).toEqual([]);
    expect(emailProblem("a b@example.org")).not.toBeNull();
  });

  test("a token needs a name of at most 100 characters", () => {
    expect(tokenNameProblem("   ")).toMatch(/Name the token/);
    expect(tokenNameProblem("x".repeat(101))).toMatch(/at most 100/);
    expect(tokenNameProblem("nightly import")).toBeNull();
  });

  test("a new user's password may be left empty (generated) or must be 10 characters", () => {
    expect(newPasswordProblem("")).toBeNull();
    expect(newPasswordProblem("short")).toMatch(/at least 10/);
    expect(newPasswordProblem("long enough!")).toBeNull();
  });
});
