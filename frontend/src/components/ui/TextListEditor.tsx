import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "./Button";

/**
 * A small editor for a list of short texts (added assumptions, constraints, domains...):
 * type, press Enter or "Add"; each item has a labelled remove button.
 *
 * The text typed but not yet added can be owned by the caller (`pending` + `onPendingChange`),
 * so a form's submit can add it or say why not instead of silently dropping it. Nothing is cut:
 * a count appears near `maxLength` and "Add" explains when the text is too long.
 */
export function TextListEditor({
  label,
  items,
  onChange,
  placeholder,
  maxItems,
  maxLength,
  pending,
  onPendingChange,
}: {
  label: string;
  items: readonly string[];
  onChange: (items: string[]) => void;
  placeholder?: string;
  /** The server's limits for this list (from `REQUEST_LIMITS`): no default, so none is copied here. */
  maxItems: number;
  maxLength: number;
  /** The text typed but not added yet, when the caller keeps it (controlled). */
  pending?: string;
  onPendingChange?: (text: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [ownDraft, setOwnDraft] = useState("");
  const draft = pending ?? ownDraft;
  const setDraft = onPendingChange ?? setOwnDraft;
  const full = items.length >= maxItems;
  const tooLong = draft.trim().length > maxLength;
  const nearLimit = draft.trim().length >= maxLength * 0.8;
  const add = () => {
    const text = draft.trim();
    if (!text || full || tooLong) return;
    onChange([...items, text]);
    setDraft("");
  };
  return (
    <div className="space-y-2">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          value={draft}
          aria-describedby={nearLimit ? `${id}-count` : undefined}
          aria-invalid={tooLong || undefined}
          disabled={full && !draft}
          placeholder={full ? t("list.atMost", { max: maxItems }) : placeholder}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
          className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 text-sm"
        />
        <Button variant="secondary" onClick={add} disabled={!draft.trim() || full || tooLong}>
          {t("list.add")}
        </Button>
      </div>
      {nearLimit && (
        <p id={`${id}-count`} className={`text-right text-xs ${tooLong ? "font-medium text-rose-700" : "text-slate-600"}`}>
          {draft.trim().length} / {maxLength}
          {tooLong ? t("list.shortenBy", { over: draft.trim().length - maxLength }) : ""}
        </p>
      )}
      {items.length > 0 && (
        <ul className="space-y-1">
          {items.map((item, i) => (
            <li key={`${i}-${item}`} className="flex items-start justify-between gap-2 rounded-md bg-slate-50 px-2.5 py-1.5 text-sm">
              <span className="break-words">{item}</span>
              <button
                type="button"
                className="shrink-0 text-xs text-slate-500 hover:text-rose-700"
                aria-label={t("list.removeLabel", { item })}
                onClick={() => onChange(items.filter((_, j) => j !== i))}
              >
                {t("list.remove")}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
