import { redirect } from "next/navigation";
import { getAppContext } from "@/lib/app-context";
import { refreshStatus } from "@/lib/checkout/flow";
import { getSession } from "@/lib/checkout/sessions";
import { routeHandler } from "@/lib/http/request-scope";

/**
 * Where the provider sends the customer back: our successRedirectUrl and errorRedirectUrl
 * (`checkoutUrls` in lib/checkout/flow.ts), one route each. They are folders of their own rather
 * than a `[kind]` segment so that any other word (`/return/ok`) is no route at all: the app's
 * readable 404, never a return that asks the partner API for news. The query says what happened,
 * but it is only a hint: the status is asked of the partner API and recorded, then the customer
 * sees the status page.
 */
export function providerReturn(kind: "success" | "error") {
  async function get(_request: Request, { params }: { params: Promise<{ sessionId: string }> }): Promise<Response> {
    const { sessionId } = await params;
    const status = `/checkout/${encodeURIComponent(sessionId)}/status`;
    // An unknown session goes to the status page too, whose 404 is the readable one (a route
    // handler's notFound() answers an empty body).
    const ctx = await getAppContext();
    if (!(await getSession(ctx.db, sessionId))) redirect(status);
    await refreshStatus(ctx, sessionId, "return");
    redirect(status);
  }
  return routeHandler(`GET /checkout/[sessionId]/return/${kind}`, get);
}
