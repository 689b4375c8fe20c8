import { providerTarget } from "@/lib/checkout/session/flow";
import { SESSION_TTL_MS } from "@/lib/checkout/session/session-state";
import { checkoutSessionRoute } from "@/lib/checkout/session/route-session";
import { EMBED_RETURN_COOKIE } from "@/lib/embed/context";

export const dynamic = "force-dynamic";

/**
 * GET /embed/{sessionId}/continue: an embedded customer on their way to the provider's checkout,
 * opened at the top level (by embed.js on the frame's request, or by the frame's link with
 * target=_top). Remembers, in a first-party cookie scoped to this session's pages, that the
 * customer came from an embedded checkout, so that coming back from the provider they are sent on
 * to the partner's page (see the status page); then goes to the provider (the paymentUrl the
 * partner API gave, or the operation's financing page: providerTarget; never one from the request).
 * Nothing to go to: the status page.
 */
export const GET = checkoutSessionRoute("GET /embed/[sessionId]/continue", async (ctx, session) => {
  const target = await providerTarget(ctx, session);
  const secure = new URL(ctx.appUrl).protocol === "https:";
  const cookie = [
    `${EMBED_RETURN_COOKIE}=${session.id}`,
    `Path=/checkout/${session.id}`,
    `Max-Age=${Math.ceil(SESSION_TTL_MS / 1000)}`,
    "HttpOnly",
    // Lax: sent when the provider brings the customer back (a top-level navigation), not to frames.
    "SameSite=Lax",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
  return new Response(null, { status: 303, headers: { Location: target, "Set-Cookie": cookie, "Cache-Control": "no-store" } });
});
