import { getAppContext } from "@/lib/app-context";
import { receiveWebhook } from "@/lib/checkout/background/webhooks";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { routeHandler } from "@/lib/http/request-scope";
import { loggerFor } from "@/lib/logger";
import { wakeWorker } from "@/lib/ops/lifecycle";
import { metrics } from "@/lib/ops/metrics";

const log = loggerFor("webhooks");

export const dynamic = "force-dynamic";

/**
 * The partner API's webhooks. The request path is: check the token and the body, store the
 * delivery (one prepared statement: an insert, or for a duplicate a count), answer. Processing (the
 * status read from the API, applied, acknowledged) is the background worker's, woken at once
 * (lib/checkout/background/worker.ts), so the API's delivery never waits for our call back to it. A wrong
 * token is a 404 (the URL does not exist for a guesser); a bad body is a 400. Neither stores anything.
 */
async function post(request: Request, { params }: { params: Promise<{ token: string }> }) {
  const ctx = await getAppContext();
  // Stored through the intake pool (lib/db/connection.ts): its commits do not wait for the disk.
  const result = await receiveWebhook({ ...ctx, db: ctx.webhookIntakeDb }, (await params).token, request);
  metrics().webhooksReceived.inc({ outcome: result.status !== 200 ? "refused" : result.duplicate ? "duplicate" : "stored" });
  if (result.status === 404) return Response.json({ error: { code: "not_found", message: "Not found" } }, { status: 404 });
  if (result.status !== 200) {
    log.info({ status: result.status }, "webhooks: a delivery was refused");
    return Response.json({ error: { code: result.code, message: result.message, fields: result.fields } }, { status: result.status });
  }
  log.info({ eventId: result.eventId, duplicate: result.duplicate }, "webhooks: event received");
  // While draining, the worker takes nothing new: the event stays due for another instance.
  if (result.process) wakeWorker();
  return Response.json({ received: true, duplicate: result.duplicate });
}

// The path holds the webhook token: the route is named by its template, never its path.
export const POST = routeHandler("POST /api/webhooks/financing/[token]", post);

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/webhooks/financing/[token]", ["POST"]);
