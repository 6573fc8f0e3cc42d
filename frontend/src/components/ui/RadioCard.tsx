/**
 * One option of a radio group drawn as a card: label, a line of help, and a reason in place of the
 * help when the option is unavailable (disabled). `srLabel` is read after the label by screen readers
 * only, to tell apart the same option in several groups ("Accept" → "Accept claim 2").
 */
export function RadioCard({
  name,
  value,
  label,
  help,
  unavailable,
  checked,
  onSelect,
  srLabel,
}: {
  name: string;
  value: string;
  label: string;
  help: string;
  unavailable: string | null;
  checked: boolean;
  onSelect: () => void;
  srLabel?: string;
}) {
  const helpId = `${name}-${value}-help`;
  const disabled = unavailable !== null;
  return (
    <label
      className={`flex items-start gap-2 rounded-lg border px-3 py-2.5 text-sm has-[:checked]:border-indigo-400 has-[:checked]:bg-indigo-50 ${
        disabled ? "cursor-not-allowed border-slate-100 bg-slate-50 text-slate-400" : "cursor-pointer border-slate-200 text-slate-800"
      }`}
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        disabled={disabled}
        aria-describedby={helpId}
        onChange={onSelect}
        className="mt-0.5 size-4 shrink-0 accent-indigo-600"
      />
      <span>
        <span className="font-medium">{label}</span>
        {srLabel && <span className="sr-only"> {srLabel}</span>}
        <span id={helpId} aria-hidden className={`block text-xs ${disabled ? "text-amber-800" : "text-slate-500"}`}>
          {unavailable ?? help}
        </span>
      </span>
    </label>
  );
}
