import { useTranslation } from "react-i18next";
import type { PayloadOf } from "../../api/events";

/**
 * How much of the model's context the conversation uses, and what the session has cost. When the call's
 * context was curated, how many tokens were sent of those available, and how many earlier exchanges
 * were left out (the model can recall them). A model with no known price is a warning: its cost is
 * unknown, not $0.
 */
export function ContextMeter({ usage, model }: { usage: PayloadOf<"context_usage"> | null; model: string }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => value.toLocaleString(i18n.language);
  const pct = usage ? Math.min(100, Math.max(0, usage.usage_percentage)) : 0;
  const tone = pct > 85 ? "bg-rose-500" : pct > 60 ? "bg-amber-500" : "bg-indigo-500";
  return (
    <div className="space-y-1.5 text-xs text-slate-600" data-testid="context-meter">
      <div className="flex justify-between gap-2">
        <span className="truncate" title={model}>
          {model}
        </span>
        <span>{usage ? t("context.percent", { percent: pct.toFixed(1) }) : t("context.noCall")}</span>
      </div>
      <div
        role="meter"
        aria-label={t("context.meterLabel")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(pct)}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className={`h-full ${tone} transition-all`} style={{ width: `${pct}%` }} />
      </div>
      {usage && (
        <div className="flex flex-wrap justify-between gap-x-3">
          <span>{t("context.tokens", { used: n(usage.tokens_used), limit: n(usage.tokens_limit) })}</span>
          <span>{t("context.session", { tokens: n(usage.session_tokens), cost: usage.session_cost_usd.toFixed(4) })}</span>
        </div>
      )}
      {usage?.price_known === false && (
        <p role="alert" className="text-amber-700" data-testid="price-unknown">
          {t("context.priceUnknown", { model: usage.model })}
        </p>
      )}
      {usage?.curation && (
        <div className="flex flex-wrap justify-between gap-x-3" data-testid="context-curation">
          <span>{t("context.curated", { sent: n(usage.curation.tokens_sent), available: n(usage.curation.tokens_available) })}</span>
          {usage.curation.units_dropped + usage.curation.units_digest > 0 && (
            <span>{t("context.leftOut", { count: usage.curation.units_dropped + usage.curation.units_digest })}</span>
          )}
        </div>
      )}
    </div>
  );
}
