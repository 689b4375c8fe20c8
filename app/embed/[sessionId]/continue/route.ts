import { getAppContext } from "@/lib/app-context";
import { getSession, SESSION_TTL_MS, sessionState } from "@/lib/checkout/sessions";
import { EMBED_RETURN_COOKIE } from "@/lib/embed/context";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

/**
 * GET /embed/{sessionId}/continue: an embedded customer on their way to the provider's checkout,
 * opened at the top level (by embed.js on the frame's request, or by the frame's link with
 * target=_top). Remembers, in a first-party cookie scoped to this session's pages, that the
 * customer came from an embedded checkout, so that coming back from the provider they are sent on
 * to the partner's page (see the status page); then goes to the provider (the paymentUrl the
 * partner API gave, never one from the request). Nothing to go to: the status page.
 */
async function get(_request: Request, { params }: { params: Promise<{ sessionId: string }> }) {
  const { sessionId } = await params;
  const ctx = await getAppContext();
  const session = /^cs_[\w-]{10,64}$/.test(sessionId) ? await getSession(ctx.db, sessionId) : undefined;
  if (!session)
    return new Response("This checkout does not exist.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });

  const atProvider = sessionState(session) === "pending" && session.financingStatus === "REQUESTED" && session.paymentUrl;
  const target = atProvider ? session.paymentUrl! : `/checkout/${session.id}/status`;
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
}

export const GET = routeHandler("GET /embed/[sessionId]/continue", get);
