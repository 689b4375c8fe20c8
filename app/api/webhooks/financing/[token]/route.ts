import { after } from "next/server";
import { getAppContext } from "@/lib/app-context";
import { processWebhookEvent, receiveWebhook } from "@/lib/checkout/webhooks";
import { routeHandler } from "@/lib/http/request-scope";
import { loggerFor } from "@/lib/logger";
import { currentRequestId, withLogContext } from "@/lib/logging/context";
import { trackWork } from "@/lib/ops/lifecycle";
import { metrics } from "@/lib/ops/metrics";

const log = loggerFor("webhooks");

export const dynamic = "force-dynamic";

/**
 * The partner API's webhooks. Stored once per (eventId, operation) and answered at once; the status is then
 * read from the API, applied and acknowledged after the response (`after`). A wrong token is a
 * 404 (the URL does not exist for a guesser); a bad body is a 400. Neither stores anything.
 */
async function post(request: Request, { params }: { params: Promise<{ token: string }> }) {
  const ctx = await getAppContext();
  const result = await receiveWebhook(ctx, (await params).token, request);
  metrics().webhooksReceived.inc({ outcome: result.status !== 200 ? "refused" : result.duplicate ? "duplicate" : "stored" });
  if (result.status === 404) return Response.json({ error: { code: "not_found", message: "Not found" } }, { status: 404 });
  if (result.status !== 200) {
    log.info({ status: result.status }, "webhooks: a delivery was refused");
    return Response.json({ error: { code: "validation_failed", message: result.message } }, { status: result.status });
  }
  log.info({ eventId: result.eventId, duplicate: result.duplicate }, "webhooks: event received");
  if (result.process) {
    const { eventId, operationId } = result;
    // After the answer, still with this request's id (and the event's) on its lines.
    const requestId = currentRequestId();
    // Tracked, so a shutdown waits for it; while draining it is not started (the event stays due
    // for another instance, and the API redelivers it until it is acknowledged).
    after(() =>
      trackWork(() => withLogContext({ requestId, eventId: String(eventId) }, () => processWebhookEvent(ctx, { eventId, operationId }))),
    );
  }
  return Response.json({ received: true, duplicate: result.duplicate });
}

// The path holds the webhook token: the route is named by its template, never its path.
export const POST = routeHandler("POST /api/webhooks/financing/[token]", post);
