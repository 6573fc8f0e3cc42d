import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Badge } from "../ui/Badge";
import { RadioCard } from "../ui/RadioCard";
import { ReviewSection } from "./ReviewForm";
import type { BuildPayload } from "./reviewTypes";

export type CuriosityItemView = NonNullable<BuildPayload["curiosity"]>[number];

/**
 * The thin regions the path navigator found (relevant to the problem, barely connected), offered as
 * the next round's direction: none, or one of them. A direction only applies to a new round.
 */
export function CuriosityPicker({
  items,
  selected,
  onSelect,
  appliesToDecision,
  disabled,
}: {
  items: readonly CuriosityItemView[];
  selected: string;
  onSelect: (id: string) => void;
  appliesToDecision: boolean;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const name = useId();
  if (items.length === 0) {
    return (
      <ReviewSection title={t("build.curiosityTitle")}>
        <p className="text-sm text-slate-500">{t("build.noCuriosity")}</p>
      </ReviewSection>
    );
  }
  const unavailable = disabled ? t("build.curiosityLastRound") : null;
  return (
    <ReviewSection title={t("build.curiosityTitle")} description={t("build.curiosityDescription")}>
      <fieldset className="min-w-0 space-y-2" data-testid="curiosity-picker">
        <legend className="sr-only">{t("build.curiosityLegend")}</legend>
        <RadioCard
          name={name}
          value="none"
          label={t("build.curiosityNone")}
          help=""
          unavailable={null}
          checked={selected === ""}
          onSelect={() => onSelect("")}
        />
        {items.map((item) => (
          <div key={item.id} className="space-y-1">
            <RadioCard
              name={name}
              value={item.id}
              label={item.question}
              help={item.node_text}
              unavailable={unavailable}
              checked={selected === item.id}
              onSelect={() => onSelect(item.id)}
            />
            <div className="flex gap-2 pl-7">
              <Badge tone="slate">{t(`build.curiositySource_${item.source}`)}</Badge>
              <Badge tone="slate">{t("build.curiosityLinks", { count: item.neighbours })}</Badge>
            </div>
          </div>
        ))}
        {selected !== "" && !appliesToDecision && <p className="text-sm text-amber-700">{t("build.curiosityOnlyNewRound")}</p>}
      </fieldset>
    </ReviewSection>
  );
}
