import { useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../api/client";

/** The session's AnswerPack (GET /answer.json); asked for only once the session is finished. */
export function useAnswer(sessionId: string, enabled: boolean) {
  return useQuery({
    queryKey: ["answer", sessionId],
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/sessions/{session_id}/answer.json", { params: { path: { session_id: sessionId } } })),
    enabled,
    retry: false,
  });
}
