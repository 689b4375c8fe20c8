import "server-only";
import { getAppContext, type AppContext } from "@/lib/app-context";
import { cachedPartnerById } from "@/lib/partners/cache";
import type { Partner } from "@/lib/partners/partners";
import type { CheckoutSession } from "./session-state";
import { getSession } from "./sessions";

/** A checkout page's session, as every part of the page reads it (load-checkout.ts). */
export interface SessionRead {
  ctx: AppContext;
  session: CheckoutSession | undefined;
  partner: Partner | undefined;
}

/** The session with its partner (from the short-lived partner cache). */
export async function readSession(sessionId: string, context: () => Promise<AppContext> = getAppContext): Promise<SessionRead> {
  const ctx = await context();
  const session = await getSession(ctx.db, sessionId);
  const partner = session ? await cachedPartnerById(ctx.db, session.partnerId) : undefined;
  return { ctx, session, partner };
}
