"use client";

import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";

/**
 * While the outcome is pending, asks `GET /checkout/{id}/status/data` every few seconds and, when
 * the state changes, re-renders the server component (router.refresh): the page itself says what
 * happened. The request is conditional (If-None-Match with the last ETag), so a 304 costs nothing.
 * Without JavaScript none of this runs: the page's "Check again" link reloads it. Over the server's
 * budget (429) it waits what `Retry-After` says before the next poll, and does not retry sooner.
 */

const POLL_INTERVAL_MS = 2500;
/** The longest wait a `Retry-After` may impose between two polls (a broken header must not stop them). */
const MAX_BACKOFF_MS = 60_000;

/** The server said to wait: the next poll comes after `waitMs`. */
export class PollBackoff extends Error {
  constructor(readonly waitMs: number) {
    super("status polls over budget");
  }
}

/** The wait a 429's `Retry-After` (seconds, or an HTTP date) asks for; at least one interval, at most a minute. */
export function backoffFrom(retryAfter: string | null, now = Date.now()): number {
  const seconds = retryAfter && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter.trim()) * 1000 : undefined;
  const date = retryAfter && seconds === undefined ? Date.parse(retryAfter) - now : undefined;
  const wait = seconds ?? (date !== undefined && Number.isFinite(date) ? date : POLL_INTERVAL_MS * 4);
  return Math.min(MAX_BACKOFF_MS, Math.max(POLL_INTERVAL_MS, wait));
}

/** When the next poll is due: the server's wait after a 429, else the usual interval (none once final). */
export function nextPollIn(data: { final: boolean } | undefined, error: unknown): number | false {
  if (data?.final) return false;
  return error instanceof PollBackoff ? error.waitMs : POLL_INTERVAL_MS;
}

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
  // A 429 is not retried at once: the next poll waits what the server asked (nextPollIn).
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { retry: (count, error) => !(error instanceof PollBackoff) && count < 2, refetchOnWindowFocus: true } },
      }),
  );
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
      if (response.status === 429) throw new PollBackoff(backoffFrom(response.headers.get("Retry-After")));
      if (!response.ok) throw new Error(`status ${response.status}`);
      const body: unknown = await response.json();
      if (!isStatusData(body)) throw new Error("unexpected status body");
      etag.current = response.headers.get("ETag");
      return body;
    },
    refetchInterval: (q) => nextPollIn(q.state.data, q.state.error),
    // Nor sooner when the customer comes back to the tab.
    refetchOnWindowFocus: (q) => !(q.state.error instanceof PollBackoff),
    refetchIntervalInBackground: false,
  });

  const polledState = query.data?.state;
  useEffect(() => {
    if (polledState && polledState !== state) router.refresh();
  }, [polledState, state, router]);

  if (final) return null;
  return (
    <p role="status" className="text-sm text-muted">
      {query.isError && !(query.error instanceof PollBackoff) ? text.checkFailed : text.checking}
    </p>
  );
}
