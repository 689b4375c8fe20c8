import { getEnv } from "@/lib/config/env";
import { demoPartnerBackend, type DemoBackendSettings } from "@/lib/demo/partner-backend";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

/**
 * The demo partner's backend (lib/demo/partner-backend.ts): POST receives the checkout's
 * notifications, GET reads them back for QA tests (sandbox only). This process's notifications
 * only: with several instances, ask each.
 */
const backend = demoPartnerBackend();

function settings(): DemoBackendSettings {
  const env = getEnv();
  return { secret: env.DEMO_PARTNER_SECRET, sandbox: env.financing.environment === "sandbox" };
}

export const POST = routeHandler("POST /api/demo/notifications", (request: Request) => backend.receive(request, settings()));
export const GET = routeHandler("GET /api/demo/notifications", (request: Request) => backend.read(request, settings()));

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/demo/notifications", ["GET", "POST"]);
