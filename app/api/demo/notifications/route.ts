import { createHash, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { getAppContext } from "@/lib/app-context";
import { DEMO_PARTNER_ID, demoSigningSecret } from "@/lib/demo/seed";
import { getEnv } from "@/lib/config/env";
import { partnerById } from "@/lib/partners/partners";
import { openPartnerSecret } from "@/lib/partners/secrets";
import { loggerFor } from "@/lib/logger";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

/**
 * The demo partner's backend: where the checkout tells it of outcomes. It does what a partner's
 * endpoint should: verify the Standard Webhooks signature on the raw body (and the timestamp's
 * freshness), deduplicate on `webhook-id`, answer 2xx quickly. Here it only logs, and keeps what it
 * received so that a QA test can read it back (GET, on the sandbox only). It holds the published
 * demo signing secret and, like a partner who rotated theirs in the back-office, the one stored now.
 */
const seen = new Map<string, ReceivedNotification>();

interface ReceivedNotification {
  /** The `webhook-id`. */
  id: string;
  receivedAt: string;
  type: string;
  /** A session's notification: its id and state; a test notification: `{ test: true }`. */
  data: { id?: string; state?: string; test?: boolean };
  /** How many times it came (a retry or a resend from the back-office comes with the same id). */
  deliveries: number;
}

/** The secrets the demo backend knows: the published one, and the demo partner's current one if it was rotated. */
async function demoSecrets(secret: string): Promise<string[]> {
  const published = demoSigningSecret(secret);
  const partner = await partnerById((await getAppContext()).db, DEMO_PARTNER_ID);
  const current = partner ? openPartnerSecret(partner, "signingSecret") : null;
  return current === null || current === published ? [published] : [published, current];
}

function verified(secrets: readonly string[], body: string, headers: Record<string, string>): unknown {
  for (const key of secrets) {
    try {
      return new Webhook(key).verify(body, headers);
    } catch {
      // The next secret.
    }
  }
  return undefined;
}

/** The latest verified notifications, oldest first: in this process's memory, bounded (a demo, not a store). */
const received: ReceivedNotification[] = [];
const KEEP = 1_000;

async function post(request: Request) {
  const secret = getEnv().DEMO_PARTNER_SECRET;
  if (!secret) return new Response(null, { status: 404 });
  const body = await request.text();
  const event = verified(await demoSecrets(secret), body, Object.fromEntries(request.headers)) as
    { type: string; data: ReceivedNotification["data"] } | undefined;
  if (!event) return Response.json({ error: { code: "unauthorized", message: "Invalid signature" } }, { status: 401 });
  const id = request.headers.get("webhook-id") ?? "";
  const known = seen.get(id);
  if (known) known.deliveries++;
  else {
    const entry = { id, receivedAt: new Date().toISOString(), type: event.type, data: event.data, deliveries: 1 };
    seen.set(id, entry);
    loggerFor("demo-partner").info({ type: event.type, sessionId: event.data.id }, "demo partner: notification received");
    received.push(entry);
    if (received.length > KEEP) seen.delete(received.shift()!.id);
  }
  return new Response(null, { status: 204 });
}

function sameSecret(given: string, expected: string): boolean {
  // Hashed first: timingSafeEqual needs equal lengths, and the length must not leak either.
  return timingSafeEqual(createHash("sha256").update(given).digest(), createHash("sha256").update(expected).digest());
}

/**
 * What the demo partner's backend received, for QA tests: `GET /api/demo/notifications?session=cs_…`
 * with the demo partner's secret as a bearer token (the one its backend opens sessions with). On the
 * sandbox only; this process's notifications only (with several instances, ask each).
 */
async function get(request: Request): Promise<Response> {
  const env = getEnv();
  const secret = env.DEMO_PARTNER_SECRET;
  if (!secret || env.financing.environment !== "sandbox") return new Response(null, { status: 404 });
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (token === undefined || !sameSecret(token, secret)) {
    return Response.json({ error: { code: "unauthorized", message: "Send the demo partner's secret as a bearer token" } }, { status: 401 });
  }
  const session = new URL(request.url).searchParams.get("session");
  return Response.json(
    { notifications: session === null ? received : received.filter((n) => n.data.id === session) },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const POST = routeHandler("POST /api/demo/notifications", post);
export const GET = routeHandler("GET /api/demo/notifications", get);

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/demo/notifications", ["GET", "POST"]);
