import { redirect } from "next/navigation";
import { errorHeaders } from "@/lib/app-error";
import { getAppContext } from "@/lib/app-context";
import { refreshStatus } from "@/lib/checkout/session/flow";
import { sessionLocale } from "@/lib/checkout/session/session-state";
import { getSession } from "@/lib/checkout/session/sessions";
import { statusReadRefusal } from "@/lib/checkout/session/status-throttle";
import { errorPageHtml } from "@/lib/i18n/error-page";
import { routeHandler } from "@/lib/http/request-scope";
import { resolveLocale } from "@/lib/i18n/locales";

/**
 * Where the provider sends the customer back: our successRedirectUrl and errorRedirectUrl
 * (`checkoutUrls` in lib/checkout/session/flow.ts), one route each. They are folders of their own rather
 * than a `[kind]` segment so that any other word (`/return/ok`) is no route at all: the app's
 * readable 404, never a return that asks the partner API for news. The query says what happened,
 * but it is only a hint: the status is asked of the partner API and recorded, then the customer
 * sees the status page. Budgeted like the status poll (lib/checkout/session/status-throttle.ts): over it, a
 * 429 page with Retry-After that leads to the status page.
 */
export function providerReturn(kind: "success" | "error") {
  async function get(request: Request, { params }: { params: Promise<{ sessionId: string }> }): Promise<Response> {
    const { sessionId } = await params;
    const status = `/checkout/${encodeURIComponent(sessionId)}/status`;
    // An unknown session goes to the status page too, whose 404 is the readable one (a route
    // handler's notFound() answers an empty body).
    const ctx = await getAppContext();
    const session = await getSession(ctx.db, sessionId);
    if (!session) redirect(status);
    const refusal = await statusReadRefusal(ctx.db, request, sessionId);
    if (refusal) {
      const locale = resolveLocale({ sessionLocale: sessionLocale(session), acceptLanguage: request.headers.get("accept-language") });
      return new Response(errorPageHtml({ kind: "unavailable", locale, retryHref: status }), {
        status: 429,
        headers: errorHeaders(refusal, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }),
      });
    }
    await refreshStatus(ctx, session, "return");
    redirect(status);
  }
  return routeHandler(`GET /checkout/[sessionId]/return/${kind}`, get);
}
