import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";

/** The supervisor's findings, directives and checkpoints; `version` (supervisor events seen) re-reads it. */
export function useSupervisor(sessionId: string, version: number) {
  return useQuery({
    queryKey: ["supervisor", sessionId, version],
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/sessions/{session_id}/supervisor", { params: { path: { session_id: sessionId } } })),
    placeholderData: (previous) => previous,
  });
}
