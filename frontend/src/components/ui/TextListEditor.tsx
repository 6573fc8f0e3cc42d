import { useId, useState } from "react";
import { Button } from "./Button";

/**
 * A small editor for a list of short texts (added assumptions, constraints, domains...):
 * type, press Enter or "Add"; each item has a labelled remove button.
 */
export function TextListEditor({
  label,
  items,
  onChange,
  placeholder,
  maxItems = 10,
  maxLength = 300,
}: {
  label: string;
  items: readonly string[];
  onChange: (items: string[]) => void;
  placeholder?: string;
  maxItems?: number;
  maxLength?: number;
}) {
  const id = useId();
  const [draft, setDraft] = useState("");
  const full = items.length >= maxItems;
  const add = () => {
    const text = draft.trim();
    if (!text || full) return;
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
          maxLength={maxLength}
          disabled={full}
          placeholder={full ? `At most ${maxItems}` : placeholder}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
          className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 text-sm"
        />
        <Button variant="secondary" onClick={add} disabled={!draft.trim() || full}>
          Add
        </Button>
      </div>
      {items.length > 0 && (
        <ul className="space-y-1">
          {items.map((item, i) => (
            <li key={`${i}-${item}`} className="flex items-start justify-between gap-2 rounded-md bg-slate-50 px-2.5 py-1.5 text-sm">
              <span className="break-words">{item}</span>
              <button
                type="button"
                className="shrink-0 text-xs text-slate-500 hover:text-rose-700"
                aria-label={`Remove “${item}”`}
                onClick={() => onChange(items.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
