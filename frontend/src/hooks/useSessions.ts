/** Session queries and mutations (TanStack Query over the generated client). */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { retryDelayMs } from "../api/backoff";
import { api, isTransientFailure, unwrap, type Session } from "../api/client";

/** Reads retry while the server cannot be reached (an outage, a restart) and stop at its 4xx answer. */
const RETRY_WHILE_UNREACHABLE = {
  retry: (_count: number, error: Error) => isTransientFailure(error),
  retryDelay: (count: number) => retryDelayMs(count + 1),
} as const;

export const PAGE_SIZE = 10;

export function useSessionList(offset: number) {
  return useQuery({
    queryKey: ["sessions", offset],
    queryFn: async () => unwrap(await api.GET("/api/v1/sessions", { params: { query: { limit: PAGE_SIZE, offset } } })),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
    ...RETRY_WHILE_UNREACHABLE,
  });
}

export function useSession(sessionId: string) {
  return useQuery({
    queryKey: ["session", sessionId],
    queryFn: async () =>
      unwrap(await api.GET("/api/v1/sessions/{session_id}", { params: { path: { session_id: sessionId } } })),
    ...RETRY_WHILE_UNREACHABLE,
  });
}

export interface NewSession {
  readonly problem: string;
  readonly constraints: readonly string[];
}

export function useCreateSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: NewSession): Promise<Session> =>
      unwrap(await api.POST("/api/v1/sessions", { body: { problem: input.problem, constraints: [...input.constraints] } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ["sessions"] }),
  });
}

export function useDeleteSession() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (sessionId: string) => {
      const result = await api.DELETE("/api/v1/sessions/{session_id}", { params: { path: { session_id: sessionId } } });
      if (!result.response.ok) unwrap(result);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ["sessions"] }),
  });
}

export function useCancelSession(sessionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      unwrap(await api.POST("/api/v1/sessions/{session_id}/cancel", { params: { path: { session_id: sessionId } } })),
    onSuccess: (session) => {
      client.setQueryData(["session", sessionId], session);
      void client.invalidateQueries({ queryKey: ["sessions"] });
    },
  });
}
