import { getEnv } from "@/lib/config/env";
import { routeHandler } from "@/lib/http/request-scope";
import { CHECKOUT_API_DOCUMENT, referencePage, SANDBOX_API_DOCUMENT } from "@/lib/docs/reference";

export const dynamic = "force-dynamic";

/**
 * GET /docs: the API reference for integrators, rendered in the browser by Scalar (served from our
 * origin by /docs/scalar.js) from our documents: the checkout sessions API, and the partner API's
 * sandbox when this deployment serves it. A page of its own, not a React page: Scalar owns the
 * DOM it renders (React would hydrate over it), and no React or Next.js script is needed here. Its
 * scripts carry the nonce proxy.ts put in this response's policy.
 */
async function get(request: Request) {
  const nonce = request.headers.get("x-nonce");
  if (!nonce) return new Response("No nonce for this response", { status: 500 });
  const documents = [CHECKOUT_API_DOCUMENT, ...(getEnv().SANDBOX_ENABLED ? [SANDBOX_API_DOCUMENT] : [])];
  return new Response(referencePage({ nonce, documents }), {
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export const GET = routeHandler("GET /docs", get);
