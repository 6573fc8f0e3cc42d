import { useId, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { i18n } from "../../i18n/i18n";
import { api, unwrap, type Schemas } from "../../api/client";
import { frontPath, heatCells, heatFill, heatTextColor, placePoints, ticks } from "../../graph/selectionPlot";

type Plot = Schemas["SelectionPlotOut"];
type Point = Schemas["PlotPointOut"];
type HypothesisOut = Schemas["HypothesisOut"];

const BOX = { width: 360, height: 260, margin: 36 };
const CELL = { width: 70, height: 26, left: 92, top: 24 };

function useSelection(sessionId: string) {
  return useQuery({
    queryKey: ["selection", sessionId],
    queryFn: async () => unwrap(await api.GET("/api/v1/sessions/{session_id}/selection", { params: { path: { session_id: sessionId } } })),
  });
}

function useHypotheses(sessionId: string) {
  return useQuery({
    queryKey: ["hypotheses", sessionId],
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/sessions/{session_id}/hypotheses", { params: { path: { session_id: sessionId }, query: { limit: 200 } } })),
  });
}

function pointLabel(p: Point): string {
  const where = p.rank === 0 ? i18n.t("plots.onFront") : i18n.t("plots.frontN", { n: p.rank + 1 });
  const label = i18n.t("plots.pointLabel", { title: p.title, novelty: p.novelty.toFixed(2), feasibility: p.feasibility.toFixed(2), where });
  return p.seed ? i18n.t("plots.pointSeed", { label }) : label;
}

/** Novelty × feasibility scatter; front points filled, the front drawn as a staircase; points are buttons. */
function ParetoScatter({ plot, onOpen, openId }: { plot: Plot; onOpen: (id: string) => void; openId: string | null }) {
  const titleId = useId();
  const placed = placePoints(plot.points, BOX);
  const inner = BOX.width - 2 * BOX.margin;
  const innerH = BOX.height - 2 * BOX.margin;
  const { t } = useTranslation();
  return (
    <figure className="space-y-1">
      <figcaption id={titleId} className="text-xs font-semibold uppercase tracking-wide text-slate-500">
        {t("plots.paretoTitle", { front: plot.points.filter((p) => p.rank === 0).length, total: plot.points.length })}
      </figcaption>
      <svg viewBox={`0 0 ${BOX.width} ${BOX.height}`} className="w-full max-w-md" role="group" aria-labelledby={titleId} data-testid="pareto-plot">
        <rect x={BOX.margin} y={BOX.margin} width={inner} height={innerH} fill="#f8fafc" stroke="#cbd5e1" />
        {ticks(BOX.margin, inner).map((t) => (
          <text key={`x${t.value}`} x={t.at} y={BOX.height - BOX.margin + 14} fontSize="10" textAnchor="middle" fill="#475569">
            {t.value}
          </text>
        ))}
        {ticks(BOX.margin, innerH, true).map((t) => (
          <text key={`y${t.value}`} x={BOX.margin - 6} y={t.at + 3} fontSize="10" textAnchor="end" fill="#475569">
            {t.value}
          </text>
        ))}
        <text x={BOX.width / 2} y={BOX.height - 4} fontSize="11" textAnchor="middle" fill="#334155">
          {t("plots.noveltyAxis")}
        </text>
        <text x={10} y={BOX.height / 2} fontSize="11" textAnchor="middle" fill="#334155" transform={`rotate(-90 10 ${BOX.height / 2})`}>
          {t("plots.feasibilityAxis")}
        </text>
        <path d={frontPath(placed)} fill="none" stroke="#4f46e5" strokeWidth="1.5" strokeDasharray="4 3" />
        {placed.map(({ point, x, y, onFront }) => (
          <circle
            key={point.id}
            cx={x}
            cy={y}
            r={point.id === openId ? 7 : 5}
            tabIndex={0}
            role="button"
            aria-label={pointLabel(point)}
            aria-pressed={point.id === openId}
            className="cursor-pointer outline-none focus-visible:stroke-amber-500"
            fill={onFront ? "#4f46e5" : "#ffffff"}
            stroke={point.seed ? "#b45309" : onFront ? "#312e81" : "#64748b"}
            strokeWidth={point.seed ? 2.5 : 1.5}
            onClick={() => onOpen(point.id)}
            onKeyDown={(e) => {
              if (e.key === "Enter" || e.key === " ") {
                e.preventDefault();
                onOpen(point.id);
              }
            }}
          >
            <title>{pointLabel(point)}</title>
          </circle>
        ))}
      </svg>
      <p className="text-xs text-slate-600">{t("plots.paretoLegend", { pruned: plot.pruned })}</p>
    </figure>
  );
}

/** The MOME grid: one cell per mechanism family × data granularity, shaded by how many landed there. */
function MomeHeatMap({ plot }: { plot: Plot }) {
  const titleId = useId();
  const cells = heatCells(plot.cells, plot.mechanism_families, plot.data_granularities);
  const width = CELL.left + CELL.width * plot.data_granularities.length + 4;
  const height = CELL.top + CELL.height * plot.mechanism_families.length + 4;
  const { t } = useTranslation();
  return (
    <figure className="space-y-1">
      <figcaption id={titleId} className="text-xs font-semibold uppercase tracking-wide text-slate-500">
        {t("plots.momeTitle", { percent: Math.round(plot.coverage_ratio * 100), cells: plot.cells.length })}
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} className="w-full max-w-md" role="img" aria-labelledby={titleId} data-testid="mome-heatmap">
        {plot.data_granularities.map((g, column) => (
          <text key={g} x={CELL.left + CELL.width * (column + 0.5)} y={CELL.top - 8} fontSize="10" textAnchor="middle" fill="#334155">
            {g}
          </text>
        ))}
        {plot.mechanism_families.map((f, row) => (
          <text key={f} x={CELL.left - 6} y={CELL.top + CELL.height * (row + 0.5) + 3} fontSize="10" textAnchor="end" fill="#334155">
            {f}
          </text>
        ))}
        {cells.map(({ cell, row, column, intensity }) => (
          <g key={`${cell.mechanism_family}-${cell.data_granularity}`}>
            <rect x={CELL.left + CELL.width * column} y={CELL.top + CELL.height * row} width={CELL.width - 2} height={CELL.height - 2} rx="3" fill={heatFill(intensity)}>
              <title>{t("plots.cellTitle", { family: cell.mechanism_family, granularity: cell.data_granularity, explored: cell.explored, kept: cell.kept })}</title>
            </rect>
            {cell.explored > 0 && (
              <text x={CELL.left + CELL.width * (column + 0.5) - 1} y={CELL.top + CELL.height * (row + 0.5) + 3} fontSize="10" textAnchor="middle" fill={heatTextColor(intensity)}>
                {cell.kept}/{cell.explored}
              </text>
            )}
          </g>
        ))}
      </svg>
      <p className="text-xs text-slate-600">{t("plots.momeLegend", { capacity: plot.capacity })}</p>
    </figure>
  );
}

function HypothesisDetail({ id, hypotheses, onClose }: { id: string; hypotheses: readonly HypothesisOut[] | undefined; onClose: () => void }) {
  const h = hypotheses?.find((x) => x.id === id);
  const { t } = useTranslation();
  return (
    <section aria-label={t("plots.selected")} className="space-y-1 rounded-lg border border-indigo-200 bg-indigo-50/50 p-3 text-sm" data-testid="hypothesis-detail">
      {h ? (
        <>
          <h4 className="font-semibold text-slate-900">{h.title}</h4>
          <p className="text-xs text-slate-600">
            {h.domain_name} · {h.operator}
            {h.parents.length > 0 && t("plots.ofParents", { parents: h.parents.join(", ") })}
          </p>
          <p className="text-slate-800">{h.statement}</p>
          <p className="text-slate-700">
            <span className="font-medium">{t("explore.poolObservable")}</span>{h.observable}
          </p>
        </>
      ) : (
        <p className="text-slate-600">{t("plots.loadingHypothesis")}</p>
      )}
      <button type="button" onClick={onClose} className="text-xs font-medium text-indigo-700 underline">
        {t("plots.close")}
      </button>
    </section>
  );
}

/** The claims review's view of selection: the Pareto scatter and the MOME heat map side by side. */
export function SelectionPlots({ sessionId }: { sessionId: string }) {
  const selection = useSelection(sessionId);
  const hypotheses = useHypotheses(sessionId);
  const [openId, setOpenId] = useState<string | null>(null);
  const { t } = useTranslation();
  if (selection.isError) return <p className="text-sm text-rose-700">{t("plots.loadFailed", { message: selection.error.message })}</p>;
  if (!selection.data) return <p className="text-sm text-slate-500">{t("plots.loading")}</p>;
  if (selection.data.points.length === 0) return null;
  return (
    <section aria-labelledby="selection-plots-title" className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="selection-plots">
      <h3 id="selection-plots-title" className="text-base font-semibold text-slate-900">
        {t("plots.title")}
      </h3>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <ParetoScatter plot={selection.data} onOpen={setOpenId} openId={openId} />
        <MomeHeatMap plot={selection.data} />
      </div>
      {openId && <HypothesisDetail id={openId} hypotheses={hypotheses.data?.items} onClose={() => setOpenId(null)} />}
    </section>
  );
}
