/**
 * The home form's checks before a session is created, in the words the form shows. The limits
 * mirror the API's (`MIN_PROBLEM_CHARS`, `MAX_PROBLEM_CHARS`, the constraint list's) so the
 * person learns what to fix before a round trip; the API still checks everything itself.
 */
export const MIN_CHARS = 10;
/** The API's limit (`MAX_PROBLEM_CHARS`); nothing is cut — a count shows near it and submit explains. */
export const MAX_CHARS = 20_000;
export const MAX_CONSTRAINTS = 10;
export const MAX_CONSTRAINT_CHARS = 300;
/** What keeps the form from being sent, in the words shown to the person (empty: it can be sent). */
export function problemsOf(problem: string, constraints: readonly string[], pendingConstraint: string): string[] {
  const problems: string[] = [];
  const length = problem.trim().length;
  if (length < MIN_CHARS) problems.push(`Describe the problem in at least ${MIN_CHARS} characters — what should change, and what limits you.`);
  if (length > MAX_CHARS)
    problems.push(`The problem is ${length.toLocaleString()} characters; the limit is ${MAX_CHARS.toLocaleString()}. Shorten it by ${(length - MAX_CHARS).toLocaleString()} — nothing is cut for you.`);
  const pending = pendingConstraint.trim();
  if (pending && constraints.length >= MAX_CONSTRAINTS)
    problems.push(`You typed a constraint but the list is full (${MAX_CONSTRAINTS}): remove one or clear the field.`);
  if (pending.length > MAX_CONSTRAINT_CHARS)
    problems.push(`The constraint you typed is ${pending.length} characters; the limit is ${MAX_CONSTRAINT_CHARS}. Shorten it or clear the field.`);
  return problems;
}
