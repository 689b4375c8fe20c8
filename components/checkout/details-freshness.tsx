"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/*
 * Back from the plans, the client router shows the details page as it was first rendered: before
 * the customer sent their data (the partner's prefill only, no correction notice). The offers page
 * notes, in this tab's sessionStorage, when it was rendered; a details page rendered before that
 * is such a stale copy, and asks the server for the correction form instead (`?edit=1`: the data
 * as sent, and what a change does). Times are the server's, so the browser's clock plays no part.
 * Without JavaScript there is no such copy: the browser loads the page again.
 */

const key = (sessionId: string) => `tfc:details-sent:${sessionId}`;

function readSent(sessionId: string): number {
  try {
    return Number(window.sessionStorage.getItem(key(sessionId)) ?? 0) || 0;
  } catch {
    // Storage refused (a sandboxed frame, a privacy setting): the page stays as it is.
    return 0;
  }
}

/** On the offers page: the customer's data has been sent (by the time `renderedAt`, server time). */
export function MarkDetailsSent({ sessionId, renderedAt }: { sessionId: string; renderedAt: number }) {
  useEffect(() => {
    if (renderedAt <= readSent(sessionId)) return;
    try {
      window.sessionStorage.setItem(key(sessionId), String(renderedAt));
    } catch {
      // As above: nothing to note.
    }
  }, [sessionId, renderedAt]);
  return null;
}

/** On the details form: a copy rendered before the data was sent is replaced by the correction form. */
export function useFreshDetails(sessionId: string, renderedAt: number, correctionHref: string): void {
  const router = useRouter();
  useEffect(() => {
    if (readSent(sessionId) > renderedAt) router.replace(correctionHref);
  }, [router, sessionId, renderedAt, correctionHref]);
}
