import "server-only";
import { cookies } from "next/headers";
import { servedOverHttps } from "@/lib/security/headers/served-over-https";
import { EDITOR_COOKIE } from "./customer-editor";
import { SESSION_TTL_MS } from "./session-state";

/**
 * The checkout's cookies (the customer's editor token, a page's sealed form answer): httpOnly, only
 * for this session's pages. First-party: SameSite=Lax (sent when the customer comes back through the
 * link). In the embedded checkout, a third-party frame: partitioned (CHIPS, kept for the partner's
 * site only) and SameSite=None, which browsers take only with Secure, so over https only; on plain
 * http it is Lax, and a cross-site frame then cannot correct the data it sent (it says so).
 */
export function sessionCookieOptions(
  sessionId: string,
  { embedded, secure, maxAge }: { embedded: boolean; secure: boolean; maxAge: number },
) {
  const thirdParty = embedded && secure;
  return {
    path: `/checkout/${sessionId}`,
    maxAge,
    httpOnly: true,
    secure,
    sameSite: thirdParty ? ("none" as const) : ("lax" as const),
    ...(thirdParty ? { partitioned: true } : {}),
  };
}

/** Sets a cookie for this session's pages only, with the rules above; max age 0 deletes it. */
export async function setSessionCookie(name: string, sessionId: string, value: string, embedded: boolean, maxAge: number): Promise<void> {
  (await cookies()).set(name, value, sessionCookieOptions(sessionId, { embedded, secure: await servedOverHttps(), maxAge }));
}

/** The cookie binding the customer's data to this browser, for as long as the session lives. */
export async function setEditorCookie(sessionId: string, token: string, embedded: boolean): Promise<void> {
  await setSessionCookie(EDITOR_COOKIE, sessionId, token, embedded, Math.ceil(SESSION_TTL_MS / 1000));
}
