/**
 * The home form's checks before a session is created, in the words the form shows (the UI's
 * language, numbers in its format). The limits are the API's (`SessionCreate`, read from the
 * generated `REQUEST_LIMITS`) so the person learns what to fix before a round trip; the API still
 * checks everything itself.
 */
import { REQUEST_LIMITS } from "../../api/requestLimits";
import { currentLanguage, i18n } from "../../i18n/i18n";

export const MIN_CHARS = REQUEST_LIMITS.SessionCreate.problem.minLength;
/** The API's limit (`MAX_PROBLEM_CHARS`); nothing is cut — a count shows near it and submit explains. */
export const MAX_CHARS = REQUEST_LIMITS.SessionCreate.problem.maxLength;
export const MAX_CONSTRAINTS = REQUEST_LIMITS.SessionCreate.constraints.maxItems;
/** Checked after trimming by the server's own validator, so not a schema keyword: the API's
 * `MAX_CONSTRAINT_CHARS` (backend/forge/api/schemas/sessions.py); backend/tests/api/test_request_limits_file.py
 * holds this literal to it. */
export const MAX_CONSTRAINT_CHARS = 300;
/** What keeps the form from being sent, in the words shown to the person (empty: it can be sent). */
export function problemsOf(problem: string, constraints: readonly string[], pendingConstraint: string): string[] {
  const problems: string[] = [];
  const n = (value: number) => value.toLocaleString(currentLanguage());
  const length = problem.trim().length;
  if (length < MIN_CHARS) problems.push(i18n.t("problem.tooShort", { min: MIN_CHARS }));
  if (length > MAX_CHARS)
    problems.push(i18n.t("problem.tooLong", { length: n(length), max: n(MAX_CHARS), over: n(length - MAX_CHARS) }));
  const pending = pendingConstraint.trim();
  if (pending && constraints.length >= MAX_CONSTRAINTS)
    problems.push(i18n.t("problem.constraintListFull", { max: MAX_CONSTRAINTS }));
  if (pending.length > MAX_CONSTRAINT_CHARS)
    problems.push(i18n.t("problem.constraintTooLong", { length: pending.length, max: MAX_CONSTRAINT_CHARS }));
  return problems;
}
