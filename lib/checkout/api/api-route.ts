import "server-only";
import { errorResponse } from "@/lib/http/error-response";
import { getAppContext } from "@/lib/app-context";
import { readBodyText } from "@/lib/http/body";
import { routeHandler } from "@/lib/http/request-scope";
import { loggerFor, logError } from "@/lib/logger";
import { BODY_LIMITS } from "@/lib/security/headers/request-guard";
import type { CheckoutContext } from "../session/flow";
import { sessionsApiHeaders, type SessionsApiKind } from "./api-headers";
import {
  claimIdempotencyKey,
  claimRefusal,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  type IdempotentRequest,
  type StoredAnswer,
} from "./idempotency";
import { idempotencyKeyOf, isKeptAnswer, REPLAYED_HEADER, requestFingerprint } from "./idempotency-key";
import { ROUTE_SCOPES, type CheckoutApiRoute } from "./route-scopes";
import { authenticatePartner, type SessionsApiThrottles } from "./sessions-api";
import type { ApiScope } from "@/lib/vocabulary/api-scopes";
import { CURRENT_CHECKOUT_API_VERSION, requestedVersion, type CheckoutApiVersion } from "./versions";

/**
 * What every operation of the checkout sessions API does around its own work, in one wrapper:
 *
 *     export const POST = checkoutApiRoute("POST /api/checkout-sessions", "create", post);
 *
 * `post(request, ...)` answers a Response (`Response.json(body, { status })`) or throws an
 * AppError; the wrapper gives every answer the API's headers (sessionsApiHeaders: no-store, the
 * origin, the budget of `kind`, `Checkout-Api-Version`), answers errors in the API's format,
 * refuses a version we do not have, and on a POST honours `Idempotency-Key`
 * (lib/checkout/api/idempotency.ts) once the caller's secret holds the route's scope
 * (ROUTE_SCOPES). The route's other methods stay `otherMethods(…)`.
 */
export function checkoutApiRoute<A extends unknown[]>(
  route: CheckoutApiRoute,
  kind: SessionsApiKind,
  handler: (request: Request, ...rest: A) => Promise<Response>,
) {
  const operation = { kind, scope: ROUTE_SCOPES[route] };
  return routeHandler(route, (request: Request, ...rest: A) => answerCheckoutApi(request, operation, (r) => handler(r, ...rest)));
}

/** What the wrapper needs of an operation: the budget it counts against, and the scope it needs. */
export interface CheckoutApiOperation {
  kind: SessionsApiKind;
  scope: ApiScope;
}

/** What the wrapper is given in tests: the app's context, throttles and clock otherwise. */
export interface CheckoutApiDeps {
  context?: () => Promise<CheckoutContext>;
  throttles?: SessionsApiThrottles;
  now?: () => Date;
}

/** The wrapper's work on one request (checkoutApiRoute without the request's log scope). */
export async function answerCheckoutApi(
  request: Request,
  { kind, scope }: CheckoutApiOperation,
  run: (request: Request) => Promise<Response>,
  deps: CheckoutApiDeps = {},
): Promise<Response> {
  let version: CheckoutApiVersion = CURRENT_CHECKOUT_API_VERSION;
  let response: Response;
  try {
    const requested = requestedVersion(request.headers);
    if (!requested.ok) throw requested.error;
    version = requested.version;
    response = request.method === "POST" ? await idempotently(request, scope, run, deps) : await run(request);
  } catch (error) {
    response = errorResponse(error);
  }
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(sessionsApiHeaders(kind, version))) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * A POST: run as it is without `Idempotency-Key`; with one, once per key (per partner, method and
 * path), its answer kept and given again to the same request, a different or concurrent one
 * refused. The partner is authenticated first (the key is theirs), and its secret's scope checked (a
 * 403 `insufficient_scope` claims no key: the same key with a secret that may runs); a body over the API's limit or
 * not UTF-8 is left to the handler, which refuses it, and nothing is kept.
 */
async function idempotently(
  request: Request,
  scope: ApiScope,
  run: (request: Request) => Promise<Response>,
  deps: CheckoutApiDeps,
): Promise<Response> {
  const key = idempotencyKeyOf(request.headers);
  if (key === undefined) return run(request);
  const ctx = await (deps.context ?? getAppContext)();
  const partner = await authenticatePartner(ctx, request, scope, deps.throttles);
  // A copy: the handler reads the body itself.
  const body = await readBodyText(request.clone(), BODY_LIMITS.api);
  if (!body.ok) return run(request);
  const keyed: IdempotentRequest = {
    partnerId: partner.id,
    method: request.method,
    path: new URL(request.url).pathname,
    key,
    requestHash: requestFingerprint(body.text),
  };
  const claim = await claimIdempotencyKey(ctx.db, keyed, deps.now?.() ?? new Date());
  if (claim.kind === "replay") return replay(claim.answer);
  if (claim.kind !== "claimed") throw claimRefusal(claim);

  let response: Response;
  try {
    response = await run(request);
  } catch (error) {
    response = errorResponse(error);
  }
  const answer: StoredAnswer = { status: response.status, contentType: response.headers.get("content-type"), body: await response.text() };
  try {
    if (isKeptAnswer(answer.status, response.headers)) await completeIdempotencyKey(ctx.db, keyed, answer);
    else await releaseIdempotencyKey(ctx.db, keyed);
  } catch (error) {
    // The request was answered: say so. Its key stays claimed until the claim runs out, then runs again.
    logError(loggerFor("checkout"), "checkout API: the answer to an Idempotency-Key could not be kept", error);
  }
  return new Response(bodyOf(answer), { status: answer.status, statusText: response.statusText, headers: response.headers });
}

function replay(answer: StoredAnswer): Response {
  const headers = new Headers({ [REPLAYED_HEADER]: "true" });
  if (answer.contentType) headers.set("Content-Type", answer.contentType);
  return new Response(bodyOf(answer), { status: answer.status, headers });
}

/** The body to answer with: none for a status that has none (a Response refuses even an empty one). */
function bodyOf(answer: StoredAnswer): string | null {
  return [204, 205, 304].includes(answer.status) ? null : answer.body;
}
