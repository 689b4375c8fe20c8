import { Webhook } from "standardwebhooks";
import { demoSigningSecret } from "@/lib/demo/seed";
import { getEnv } from "@/lib/env";
import { loggerFor } from "@/lib/logger";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

/**
 * The demo partner's backend: where the checkout tells it of outcomes. It does what a partner's
 * endpoint should: verify the Standard Webhooks signature on the raw body (and the timestamp's
 * freshness), deduplicate on `webhook-id`, answer 2xx quickly. Here it only logs.
 */
const seen = new Set<string>();

async function post(request: Request) {
  const secret = getEnv().DEMO_PARTNER_SECRET;
  if (!secret) return new Response(null, { status: 404 });
  const body = await request.text();
  let event: { type: string; data: { id: string; state: string } };
  try {
    event = new Webhook(demoSigningSecret(secret)).verify(body, Object.fromEntries(request.headers)) as typeof event;
  } catch {
    return Response.json({ error: { code: "unauthorized", message: "Invalid signature" } }, { status: 401 });
  }
  const id = request.headers.get("webhook-id") ?? "";
  if (!seen.has(id)) {
    seen.add(id);
    loggerFor("demo-partner").info({ type: event.type, sessionId: event.data.id }, "demo partner: notification received");
  }
  return new Response(null, { status: 204 });
}

export const POST = routeHandler("POST /api/demo/notifications", post);
