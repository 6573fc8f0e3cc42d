import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";

/** The session's hypothesis pool (best first, up to 200), fetched only while `enabled`. */
export function useHypothesisPool(sessionId: string, enabled: boolean) {
  return useQuery({
    queryKey: ["hypotheses", sessionId],
    queryFn: async () =>
      unwrap(
        await api.GET("/api/v1/sessions/{session_id}/hypotheses", {
          params: { path: { session_id: sessionId }, query: { limit: 200 } },
        }),
      ),
    enabled,
  });
}
