import "server-only";
import { Webhook } from "standardwebhooks";
import { getAppContext } from "@/lib/app-context";
import { loggerFor } from "@/lib/logger";
import { openPartnerSecret } from "@/lib/partners/secrets";
import { partnerById } from "@/lib/partners/partners";
import { sameSecret } from "@/lib/security/secrets/same-secret";
import { DEMO_PARTNER_ID, demoSigningSecret } from "./seed";

/**
 * The demo partner's backend: where the checkout tells it of outcomes. It does what a partner's
 * endpoint should: verify the Standard Webhooks signature on the raw body (and the timestamp's
 * freshness), deduplicate on `webhook-id`, answer 2xx quickly. Here it only logs, and keeps what it
 * received so that a QA test can read it back (on the sandbox only). It holds the published demo
 * signing secret and, like a partner who rotated theirs in the back-office, the one stored now.
 */

export interface ReceivedNotification {
  /** The `webhook-id`. */
  id: string;
  receivedAt: string;
  type: string;
  /** A session's notification: its id and state; a test notification: `{ test: true }`. */
  data: { id?: string; state?: string; test?: boolean };
  /** How many times it came (a retry or a resend from the back-office comes with the same id). */
  deliveries: number;
}

/** How the backend is set up: the demo partner's secret (none: the backend is not there) and whether this is the sandbox. */
export interface DemoBackendSettings {
  secret: string | undefined;
  sandbox: boolean;
}

export interface DemoPartnerBackendOptions {
  /** The signing secrets the backend accepts, given the demo partner's secret. */
  signingSecrets?: (secret: string) => Promise<string[]>;
  /** How many notifications are kept, the oldest dropped first. */
  keep?: number;
  now?: () => Date;
}

/** The secrets the demo backend knows: the published one, and the demo partner's current one if it was rotated. */
async function demoSigningSecrets(secret: string): Promise<string[]> {
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

const unauthorized = (message: string) => Response.json({ error: { code: "unauthorized", message } }, { status: 401 });

/**
 * One demo backend: the notifications it received live in its own memory, bounded (a demo, not a
 * store), so each process (each instance) answers for its own.
 */
export function demoPartnerBackend(options: DemoPartnerBackendOptions = {}) {
  const signingSecrets = options.signingSecrets ?? demoSigningSecrets;
  const keep = options.keep ?? 1_000;
  const now = options.now ?? (() => new Date());
  const seen = new Map<string, ReceivedNotification>();
  /** The latest verified notifications, oldest first. */
  const received: ReceivedNotification[] = [];

  return {
    /** `POST`: a notification, verified, kept once per `webhook-id`; 204, or 401 on a bad signature. */
    async receive(request: Request, settings: DemoBackendSettings): Promise<Response> {
      if (!settings.secret) return new Response(null, { status: 404 });
      const body = await request.text();
      const event = verified(await signingSecrets(settings.secret), body, Object.fromEntries(request.headers)) as
        { type: string; data: ReceivedNotification["data"] } | undefined;
      if (!event) return unauthorized("Invalid signature");
      const id = request.headers.get("webhook-id") ?? "";
      const known = seen.get(id);
      if (known) known.deliveries++;
      else {
        const entry = { id, receivedAt: now().toISOString(), type: event.type, data: event.data, deliveries: 1 };
        seen.set(id, entry);
        loggerFor("demo-partner").info({ type: event.type, sessionId: event.data.id }, "demo partner: notification received");
        received.push(entry);
        if (received.length > keep) seen.delete(received.shift()!.id);
      }
      return new Response(null, { status: 204 });
    },

    /**
     * `GET ?session=cs_…`: what was received, for QA tests, with the demo partner's secret as a
     * bearer token (the one its backend opens sessions with). On the sandbox only.
     */
    async read(request: Request, settings: DemoBackendSettings): Promise<Response> {
      if (!settings.secret || !settings.sandbox) return new Response(null, { status: 404 });
      const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
      if (token === undefined || !sameSecret(token, settings.secret))
        return unauthorized("Send the demo partner's secret as a bearer token");
      const session = new URL(request.url).searchParams.get("session");
      return Response.json(
        { notifications: session === null ? received : received.filter((n) => n.data.id === session) },
        { headers: { "Cache-Control": "no-store" } },
      );
    },
  };
}
