/**
 * Plain-words explanations of the error codes the agent's tools return (the 15 rules and more) and
 * of the codes that end a run or a live stream, in the UI's language. Typed against the generated
 * schema: a code the backend adds and the English locale lacks (`errorCode.<CODE>`) fails the type
 * check instead of showing a vague fallback; the locale test makes Chinese and Japanese follow.
 */
import type { Schemas } from "../api/client";
import { i18n } from "../i18n/i18n";
import en from "../i18n/locales/en.json";

type ToolErrorCode = Schemas["ErrorCode"];
type RunErrorCode = Exclude<Schemas["ErrorData"]["code"], ToolErrorCode>;

/** Every code has its words in each language (`errorCode.<CODE>` in the locale files). */
const EXPLAINED: Readonly<Record<ToolErrorCode | RunErrorCode, string>> = en.errorCode;

export function explainErrorCode(code: string): string {
  return Object.hasOwn(EXPLAINED, code) ? i18n.t(`errorCode.${code as ToolErrorCode | RunErrorCode}`) : i18n.t("errorCode.fallback");
}
