/**
 * Checks the login, token and new-user forms make before sending, with the same bounds as the
 * server (core/accounts.py), so a person sees what to fix at once; the server checks again.
 */
export const MIN_PASSWORD_CHARS = 10;
export const MAX_TOKEN_NAME_CHARS = 100;
const EMAIL = /^[^@\s]+@[^@\s]+$/;

export function emailProblem(email: string): string | null {
  const trimmed = email.trim();
  if (!trimmed) return "Enter your email address.";
  return EMAIL.test(trimmed) ? null : "The email address must look like name@example.org.";
}

export function loginProblems(email: string, password: string): string[] {
  const problems: string[] = [];
  const emailIssue = emailProblem(email);
  if (emailIssue) problems.push(emailIssue);
  if (!password) problems.push("Enter your password.");
  return problems;
}

export function tokenNameProblem(name: string): string | null {
  if (!name.trim()) return "Name the token after what will use it (e.g. “nightly import”).";
  return name.length > MAX_TOKEN_NAME_CHARS ? `The name can have at most ${MAX_TOKEN_NAME_CHARS} characters.` : null;
}

/** A new user's password is optional (the server generates one); a given one needs the minimum length. */
export function newPasswordProblem(password: string): string | null {
  if (!password) return null;
  return password.length < MIN_PASSWORD_CHARS ? `A password needs at least ${MIN_PASSWORD_CHARS} characters.` : null;
}
