import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";

/** The session's graph; `version` (the last event id at a pause) refetches it when the session moved on. */
export function useKnowledgeGraph(sessionId: string, version: number) {
  return useQuery({
    queryKey: ["graph", sessionId, version],
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/sessions/{session_id}/graph", { params: { path: { session_id: sessionId } } })),
    placeholderData: (previous) => previous,
  });
}
