/** The hypothesis memory (seed 004) as a TanStack query over GET /api/v1/memory/hypotheses. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { retryDelayMs } from "../api/backoff";
import { api, isTransientFailure, unwrap } from "../api/client";
import { memorySearchParams } from "../memory/describeMemory";

export const MEMORY_PAGE_SIZE = 20;

export function useMemorySearch(text: string, minC: number, offset: number) {
  const query = memorySearchParams(text, minC, MEMORY_PAGE_SIZE, offset);
  return useQuery({
    queryKey: ["memory", query],
    queryFn: async () => unwrap(await api.GET("/api/v1/memory/hypotheses", { params: { query } })),
    placeholderData: keepPreviousData,
    retry: (_count: number, error: Error) => isTransientFailure(error),
    retryDelay: (count: number) => retryDelayMs(count + 1),
  });
}
