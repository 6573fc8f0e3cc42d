/**
 * Checks the login, token and new-user forms make before sending, with the same bounds as the
 * server (core/accounts/users.py), so a person sees what to fix at once; the server checks again.
 */
import { REQUEST_LIMITS } from "../api/requestLimits";
import { i18n } from "../i18n/i18n";

/** The accounts core's rule, not a schema keyword; backend/tests/api/test_request_limits_file.py holds it to it. */
export const MIN_PASSWORD_CHARS = 10;
export const MAX_TOKEN_NAME_CHARS = REQUEST_LIMITS.TokenCreate.name.maxLength;
const EMAIL = /^[^@\s]+@[^@\s]+$/;

export function emailProblem(email: string): string | null {
  const trimmed = email.trim();
  if (!trimmed) return i18n.t("login.enterEmail");
  return EMAIL.test(trimmed) ? null : i18n.t("login.emailShape");
}

export function loginProblems(email: string, password: string): string[] {
  const problems: string[] = [];
  const emailIssue = emailProblem(email);
  if (emailIssue) problems.push(emailIssue);
  if (!password) problems.push(i18n.t("login.enterPassword"));
  return problems;
}

export function tokenNameProblem(name: string): string | null {
  if (!name.trim()) return i18n.t("tokens.nameMissing");
  return name.length > MAX_TOKEN_NAME_CHARS ? i18n.t("tokens.nameTooLong", { max: MAX_TOKEN_NAME_CHARS }) : null;
}

/** A new user's password is optional (the server generates one); a given one needs the minimum length. */
export function newPasswordProblem(password: string): string | null {
  if (!password) return null;
  return password.length < MIN_PASSWORD_CHARS ? i18n.t("users.passwordTooShort", { min: MIN_PASSWORD_CHARS }) : null;
}
