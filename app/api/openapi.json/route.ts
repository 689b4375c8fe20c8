import { buildCheckoutApiDocument } from "@/lib/checkout/api/openapi";
import { DEMO_PARTNER_DEFAULT_SECRET, getEnv } from "@/lib/config/env";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

/**
 * GET /api/openapi.json: the checkout sessions API as OpenAPI 3.1 (shown at /docs), with this
 * deployment's public URL as its server. Public and the same for everyone: cacheable, and
 * readable from any origin (partners' API tools fetch it from their own).
 */
async function get() {
  const env = getEnv();
  // Only the published sandbox default is named: production has no demo partner, and a changed
  // demo secret is the deployment's own.
  const published = env.financing.environment === "sandbox" && env.DEMO_PARTNER_SECRET === DEMO_PARTNER_DEFAULT_SECRET;
  const document = buildCheckoutApiDocument({
    serverUrl: `${env.APP_URL}/api`,
    environment: env.financing.environment,
    demoSecret: published ? DEMO_PARTNER_DEFAULT_SECRET : undefined,
  });
  return Response.json(document, {
    headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  });
}

export const GET = routeHandler("GET /api/openapi.json", get);

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/openapi.json", ["GET"]);
