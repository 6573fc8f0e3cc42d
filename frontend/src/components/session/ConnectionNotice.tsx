/**
 * What the page says about its link to the server (reconnecting, not found, deleted, stopped) and
 * a polite live region that announces phase changes, waiting reviews and the connection.
 */
import { Link } from "react-router";
import type { AgentStream } from "../../hooks/useAgentStream";
import { PHASE_LABELS } from "../../session/describeSession";
import { Alert } from "../ui/Alert";
import { Button } from "../ui/Button";

export function ConnectionNotice({ stream }: { stream: AgentStream }) {
  const { link } = stream;
  if (link.kind === "reconnecting")
    return (
      <Alert tone="warning" title="Connection lost — reconnecting…">
        <span data-testid="reconnecting">
          {link.reason ? `${link.reason} ` : ""}
          Everything shown here stays, and nothing recorded on the server is lost; the page picks up where it left off as soon as
          the server answers{link.attempt > 1 ? ` (attempt ${link.attempt})` : ""}.
        </span>
      </Alert>
    );
  if (link.kind === "not-found")
    return (
      <Alert title="Session not found">
        <p>
          The server no longer knows this session.{" "}
          <Link to="/" className="underline">
            Back to your sessions
          </Link>
        </p>
      </Alert>
    );
  if (stream.sessionDeleted)
    return (
      <Alert title="This session was deleted">
        <p>
          It no longer exists on the server, so there is nothing more to follow.{" "}
          <Link to="/" className="underline">
            Back to your sessions
          </Link>
        </p>
      </Alert>
    );
  if (stream.connection === "failed" && stream.streamError)
    return (
      <Alert title="The live view stopped">
        <p>{stream.streamError}</p>
        <Button variant="secondary" className="mt-2" onClick={stream.follow}>
          Try again
        </Button>
      </Alert>
    );
  if (stream.timeline.turn === "failed" && stream.connection === "idle")
    return (
      <Alert title="The agent stopped with an error">
        <p>{stream.timeline.lastError?.message ?? "See the activity for details."}</p>
        <Button variant="secondary" className="mt-2" onClick={stream.follow}>
          Resume the session
        </Button>
      </Alert>
    );
  return null;
}

/** A polite live region that says what changed: the phase, a review that waits, the connection. */
export function LiveAnnouncer({ stream }: { stream: AgentStream }) {
  const { timeline, connection } = stream;
  let message = "";
  if (connection === "reconnecting") message = "Connection lost. Reconnecting.";
  else if (timeline.document) message = "The session is crystallized. The document is ready.";
  else if (timeline.turn === "awaiting_input" && timeline.pendingReview) message = `${PHASE_LABELS[timeline.phase ?? "decompose"]} is done: your review is ready.`;
  else if (timeline.phase) message = `Phase: ${PHASE_LABELS[timeline.phase]}${timeline.round > 0 ? `, round ${timeline.round + 1}` : ""}.`;
  return (
    <p className="sr-only" role="status" aria-live="polite" data-testid="announcer">
      {message}
    </p>
  );
}
