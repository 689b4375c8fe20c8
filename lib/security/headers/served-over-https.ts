import "server-only";
import { headers } from "next/headers";
import { getEnv } from "@/lib/config/env";

/**
 * Whether this request reached us over https: APP_URL says so, or the request's own protocol (a
 * proxy's `X-Forwarded-Proto`). Every cookie we set is `Secure` exactly then: over https a cookie
 * without it would also be sent over plain http to this host; on plain http (local runs, the e2e
 * tests) a browser would not send a `Secure` one back.
 */
export async function servedOverHttps(): Promise<boolean> {
  if (getEnv().APP_URL.startsWith("https:")) return true;
  return (await headers()).get("x-forwarded-proto") === "https";
}
