import { providerTarget } from "@/lib/checkout/session/flow";
import { checkoutSessionRoute } from "@/lib/checkout/session/route-session";

export const dynamic = "force-dynamic";

/**
 * GET /checkout/{sessionId}/provider: on to sign at the provider, when the status page has no
 * paymentUrl to link to (lib/checkout/session/flow.ts, providerTarget): 303 to the operation's financing
 * page, or back to the status page. The embedded checkout goes through /embed/{id}/continue.
 */
export const GET = checkoutSessionRoute("GET /checkout/[sessionId]/provider", async (ctx, session) => {
  const target = await providerTarget(ctx, session);
  return new Response(null, { status: 303, headers: { Location: target, "Cache-Control": "no-store" } });
});
