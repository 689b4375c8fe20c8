import { redirect } from "next/navigation";
import { getAppContext } from "@/lib/app-context";
import { refreshStatus } from "@/lib/checkout/flow";
import { getSession } from "@/lib/checkout/sessions";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

/**
 * Where the provider sends the customer back (our successRedirectUrl and errorRedirectUrl). The
 * query says what happened, but it is only a hint: the status is asked of the partner API and
 * recorded, then the customer sees the status page.
 */
async function get(_request: Request, { params }: { params: Promise<{ sessionId: string; kind: string }> }): Promise<Response> {
  const { sessionId, kind } = await params;
  const status = `/checkout/${encodeURIComponent(sessionId)}/status`;
  // An unknown session or return kind goes to the status page too, whose 404 is the readable one
  // (a route handler's notFound() answers an empty body).
  if (kind !== "success" && kind !== "error") redirect(status);
  const ctx = await getAppContext();
  if (!(await getSession(ctx.db, sessionId))) redirect(status);
  await refreshStatus(ctx, sessionId, "return");
  redirect(status);
}

export const GET = routeHandler("GET /checkout/[sessionId]/return/[kind]", get);
