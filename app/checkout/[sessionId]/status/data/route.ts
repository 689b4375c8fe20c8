import { errorResponse } from "@/lib/http/error-response";
import { getAppContext } from "@/lib/app-context";
import { pollStatus } from "@/lib/checkout/session/flow";
import { statusReadRefusal } from "@/lib/checkout/session/status-throttle";
import { contentEtag, ifNoneMatches } from "@/lib/http/etag";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

/**
 * What the status page polls while the outcome is open. It asks the partner API conditionally
 * (If-None-Match upstream) and answers with an ETag of its own, so an unchanged status costs a 304
 * at both ends. Budgeted per session and per client, by every instance together (429 with Retry-After, which the page's poll
 * waits out), and a read of the same session within a few seconds is reused (lib/app-context.ts).
 */
async function get(request: Request, { params }: { params: Promise<{ sessionId: string }> }) {
  try {
    const { sessionId } = await params;
    const ctx = await getAppContext();
    const refusal = await statusReadRefusal(ctx.db, request, sessionId);
    if (refusal) throw refusal;
    const view = await pollStatus(ctx, sessionId);
    const etag = contentEtag(view);
    // Private and revalidated every time: the answer is about one customer's checkout.
    const headers = { ETag: etag, "Cache-Control": "private, no-cache" };
    // Weak comparison over a list (RFC 9110): a proxy may weaken the tag, a cache may send several.
    if (ifNoneMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
    return Response.json(view, { headers });
  } catch (error) {
    return errorResponse(error, { "Cache-Control": "no-store" });
  }
}

export const GET = routeHandler("GET /checkout/[sessionId]/status/data", get);
