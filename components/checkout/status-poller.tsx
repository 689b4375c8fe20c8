"use client";

import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";

/**
 * While the outcome is pending, asks `GET /checkout/{id}/status/data` every few seconds and, when
 * the state changes, re-renders the server component (router.refresh): the page itself says what
 * happened. The request is conditional (If-None-Match with the last ETag), so a 304 costs nothing.
 * Without JavaScript none of this runs: the page's "Check again" link reloads it.
 */

const POLL_INTERVAL_MS = 2500;

interface StatusData {
  state: string;
  final: boolean;
  operationStatus: string | null;
  returnUrl: string;
}

function isStatusData(value: unknown): value is StatusData {
  return (
    typeof value === "object" &&
    value !== null &&
    "state" in value &&
    typeof value.state === "string" &&
    "final" in value &&
    typeof value.final === "boolean"
  );
}

export function StatusPoller(props: StatusPollerProps) {
  // One client per page view: this page is the only one that polls.
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { retry: 2, refetchOnWindowFocus: true } } }));
  return (
    <QueryClientProvider client={client}>
      <Poller {...props} />
    </QueryClientProvider>
  );
}

interface StatusPollerProps {
  sessionId: string;
  /** The state the server rendered: a different one from the poll means the page is out of date. */
  state: string;
  final: boolean;
  text: { checking: string; checkFailed: string };
}

function Poller({ sessionId, state, final, text }: StatusPollerProps) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const etag = useRef<string | null>(null);
  const queryKey = ["checkout-status", sessionId];

  const query = useQuery({
    queryKey,
    enabled: !final,
    queryFn: async ({ signal }): Promise<StatusData> => {
      const headers: HeadersInit = etag.current ? { "If-None-Match": etag.current } : {};
      const response = await fetch(`/checkout/${encodeURIComponent(sessionId)}/status/data`, { headers, signal, cache: "no-store" });
      const previous = queryClient.getQueryData<StatusData>(queryKey);
      if (response.status === 304 && previous) return previous;
      if (!response.ok) throw new Error(`status ${response.status}`);
      const body: unknown = await response.json();
      if (!isStatusData(body)) throw new Error("unexpected status body");
      etag.current = response.headers.get("ETag");
      return body;
    },
    refetchInterval: (q) => (q.state.data?.final ? false : POLL_INTERVAL_MS),
    refetchIntervalInBackground: false,
  });

  const polledState = query.data?.state;
  useEffect(() => {
    if (polledState && polledState !== state) router.refresh();
  }, [polledState, state, router]);

  if (final) return null;
  return (
    <p role="status" className="text-sm text-muted">
      {query.isError ? text.checkFailed : text.checking}
    </p>
  );
}
