/** Account queries and mutations: the caller (`me`), login/logout, tokens, users (TanStack Query). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, setCsrfToken, unwrap, type Schemas } from "../api/client";
import type { Me } from "../auth/authView";

export const ME_KEY = ["auth", "me"] as const;

/** Everything cached but the caller: nothing of one login is shown to the next. */
const notMe = (query: { queryKey: readonly unknown[] }) => !(query.queryKey[0] === "auth" && query.queryKey[1] === "me");

export function useMe() {
  return useQuery({
    queryKey: ME_KEY,
    queryFn: async (): Promise<Me> => {
      const me = unwrap(await api.GET("/api/v1/auth/me"));
      setCsrfToken(me.csrf_token ?? null);
      return me;
    },
    retry: false,
    staleTime: Infinity,
  });
}

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: Schemas["LoginRequest"]): Promise<Me> =>
      unwrap(await api.POST("/api/v1/auth/login", { body: { email: input.email.trim(), password: input.password } })),
    onSuccess: (me) => {
      setCsrfToken(me.csrf_token ?? null);
      client.removeQueries({ predicate: notMe });
      client.setQueryData(ME_KEY, me);
    },
  });
}

export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const result = await api.POST("/api/v1/auth/logout");
      if (!result.response.ok && result.response.status !== 401) unwrap(result);
    },
    onSettled: () => {
      setCsrfToken(null);
      client.removeQueries({ predicate: notMe });
      void client.resetQueries({ queryKey: ME_KEY }); // asks again: 401, so the login page
    },
  });
}

export function useTokens() {
  return useQuery({
    queryKey: ["auth", "tokens"],
    queryFn: async () => unwrap(await api.GET("/api/v1/auth/tokens")),
  });
}

export function useCreateToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => unwrap(await api.POST("/api/v1/auth/tokens", { body: { name: name.trim() } })),
    onSuccess: () => client.invalidateQueries({ queryKey: ["auth", "tokens"] }),
  });
}

export function useRevokeToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (tokenId: string) => {
      const result = await api.DELETE("/api/v1/auth/tokens/{token_id}", { params: { path: { token_id: tokenId } } });
      if (!result.response.ok) unwrap(result);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ["auth", "tokens"] }),
  });
}

export function useUsage() {
  return useQuery({
    queryKey: ["admin", "usage"],
    queryFn: async () => unwrap(await api.GET("/api/v1/admin/usage")),
    refetchInterval: 15_000,
  });
}

export function useAddUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: Schemas["UserCreate"]) => unwrap(await api.POST("/api/v1/admin/users", { body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ["admin"] }),
  });
}

export function useUpdateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ userId, ...body }: { userId: string } & Schemas["UserUpdate"]) =>
      unwrap(await api.PATCH("/api/v1/admin/users/{user_id}", { params: { path: { user_id: userId } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ["admin"] }),
  });
}
