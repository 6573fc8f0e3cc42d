/**
 * What the page says about its link to the server (reconnecting, not found, deleted, stopped) and
 * a polite live region that announces phase changes, waiting reviews and the connection.
 */
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { AgentStream } from "../../hooks/useAgentStream";
import { PHASE_LABELS } from "../../session/describeSession";
import { Alert } from "../ui/Alert";
import { Button } from "../ui/Button";

export function ConnectionNotice({ stream }: { stream: AgentStream }) {
  const { t } = useTranslation();
  const { link } = stream;
  if (link.kind === "reconnecting")
    return (
      <Alert tone="warning" title={t("connection.reconnectingTitle")}>
        <span data-testid="reconnecting">
          {link.reason ? `${link.reason} ` : ""}
          {t("connection.reconnectingBody")}
          {link.attempt > 1 ? ` ${t("connection.attempt", { attempt: link.attempt })}` : ""}
        </span>
      </Alert>
    );
  if (link.kind === "not-found")
    return (
      <Alert title={t("connection.notFoundTitle")}>
        <p>
          {t("connection.notFoundBody")}{" "}
          <Link to="/" className="underline">
            {t("connection.back")}
          </Link>
        </p>
      </Alert>
    );
  if (stream.sessionDeleted)
    return (
      <Alert title={t("connection.deletedTitle")}>
        <p>
          {t("connection.deletedBody")}{" "}
          <Link to="/" className="underline">
            {t("connection.back")}
          </Link>
        </p>
      </Alert>
    );
  if (stream.connection === "failed" && stream.streamError)
    return (
      <Alert title={t("connection.stoppedTitle")}>
        <p>{stream.streamError}</p>
        <Button variant="secondary" className="mt-2" onClick={stream.follow}>
          {t("connection.tryAgain")}
        </Button>
      </Alert>
    );
  if (stream.timeline.turn === "failed" && stream.connection === "idle")
    return (
      <Alert title={t("connection.errorTitle")}>
        <p>{stream.timeline.lastError?.message ?? t("connection.seeActivity")}</p>
        <Button variant="secondary" className="mt-2" onClick={stream.follow}>
          {t("connection.resume")}
        </Button>
      </Alert>
    );
  return null;
}

/** A polite live region that says what changed: the phase, a review that waits, the connection. */
export function LiveAnnouncer({ stream }: { stream: AgentStream }) {
  const { t } = useTranslation();
  const { timeline, connection } = stream;
  let message = "";
  if (connection === "reconnecting") message = t("connection.announceReconnecting");
  else if (timeline.document) message = t("connection.announceDocument");
  else if (timeline.turn === "awaiting_input" && timeline.pendingReview) message = t("connection.announceReview", { phase: PHASE_LABELS[timeline.phase ?? "decompose"] });
  else if (timeline.phase)
    message =
      timeline.round > 0
        ? t("connection.announcePhaseRound", { phase: PHASE_LABELS[timeline.phase], round: timeline.round + 1 })
        : t("connection.announcePhase", { phase: PHASE_LABELS[timeline.phase] });
  return (
    <p className="sr-only" role="status" aria-live="polite" data-testid="announcer">
      {message}
    </p>
  );
}
