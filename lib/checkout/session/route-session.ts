import "server-only";
import { getAppContext, type AppContext } from "@/lib/app-context";
import { isCheckoutSessionId } from "@/lib/http/checkout-session-id";
import { routeHandler } from "@/lib/http/request-scope";
import type { CheckoutSession } from "./session-state";
import { getSession } from "./sessions";

type SessionParams = { params: Promise<{ sessionId: string }> };

/**
 * A GET route handler of one checkout session (`/checkout/{id}/provider`, `/embed/{id}/continue`):
 * `handle` gets the session; none (a made-up id, or a malformed one, not looked up) is a 404 with a
 * line of text. Named by its template in logs and metrics (routeHandler).
 */
export function checkoutSessionRoute(route: string, handle: (ctx: AppContext, session: CheckoutSession) => Promise<Response>) {
  return routeHandler(route, async (_request: Request, { params }: SessionParams) => {
    const { sessionId } = await params;
    const ctx = await getAppContext();
    const session = isCheckoutSessionId(sessionId) ? await getSession(ctx.db, sessionId) : undefined;
    if (!session) {
      return new Response("This checkout does not exist.", {
        status: 404,
        headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
      });
    }
    return handle(ctx, session);
  });
}
