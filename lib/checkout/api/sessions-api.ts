import "server-only";
import { AppError } from "@/lib/app-error";
import { getAppContext } from "@/lib/app-context";
import { apiCallerBySecret, type ApiCaller } from "@/lib/partners/api-secrets";
import { allows, type ApiScope } from "@/lib/vocabulary/api-scopes";
import "./error-codes";
import { isAllowedReturnUrl, type Partner } from "@/lib/partners/partners";
import { bodyProblemMessage, readJsonBody } from "@/lib/http/body";
import type { CheckoutSessionResource } from "./api-schemas";
import { createSessionSchema, type CreateSessionInput } from "../session/booking";
import { checkoutUrls, type CheckoutContext } from "../session/flow";
import { partnerSessionView, type CheckoutSession } from "../session/session-state";
import { createSession, getSession } from "../session/sessions";
import { getEnv } from "@/lib/config/env";
import { loggerFor } from "@/lib/logger";
import { clientIpFrom } from "@/lib/security/network/client-ip";
import { createTokenBuckets, takeAll, type Take, type TokenBuckets } from "@/lib/security/limits/token-bucket";
import { customerDataErasedAt } from "../session/customer-store";

/**
 * The checkout sessions API (`/api/checkout-sessions`), our own API for partners' backends (not the
 * partner API, which is the financing API we call): the partner's backend authenticates with its
 * own secret as a bearer token, never with the financing key.
 */

const MAX_BODY_BYTES = 64 * 1024;

/**
 * The API's throttles (token buckets, per instance; SESSIONS_API_* in lib/config/env.ts): sessions opened
 * per partner and per client IP, and wrong (or missing) secrets per client IP. A client IP out of
 * wrong-secret tokens is refused before its secret is even looked at, right or wrong: guessing
 * goes no faster by mixing in a known secret.
 */
export interface SessionsApiThrottles {
  createPerPartner: TokenBuckets;
  createPerIp: TokenBuckets;
  wrongSecretsPerIp: TokenBuckets;
  /** Sessions read per partner (GET): reads touch the database too. Optional for tests of the others. */
  readsPerPartner?: TokenBuckets;
  /** Cancels and refunds asked per partner: each calls the partner API. Optional for tests of the others. */
  actionsPerPartner?: TokenBuckets;
  trustedProxyHops: number;
}

let defaultThrottles: SessionsApiThrottles | undefined;

/** The throttles of this process, from the configuration (shared by every handler of the API). */
export function sessionsApiThrottles(): SessionsApiThrottles {
  if (!defaultThrottles) {
    const env = getEnv();
    const budget = env.sessionsApiBudget;
    const buckets = (perMinute: number) => createTokenBuckets({ capacity: perMinute, perMinute });
    defaultThrottles = {
      createPerPartner: buckets(budget.createPerPartnerPerMinute),
      createPerIp: buckets(budget.createPerIpPerMinute),
      wrongSecretsPerIp: buckets(budget.wrongSecretsPerIpPerMinute),
      readsPerPartner: buckets(budget.readsPerPartnerPerMinute),
      actionsPerPartner: buckets(budget.actionsPerPartnerPerMinute),
      trustedProxyHops: env.TRUSTED_PROXY_HOPS,
    };
  }
  return defaultThrottles;
}

function rateLimited(take: Take, message: string): AppError | undefined {
  if (take.ok) return undefined;
  return new AppError("rate_limited", message, { retryAfterS: Math.max(1, Math.ceil(take.retryAfterMs / 1000)) });
}

/**
 * The partner a request was authenticated as: a request with an `Idempotency-Key` is
 * authenticated by the API's wrapper first (its key is the partner's), and its handler asks again.
 */
const authenticated = new WeakMap<Request, ApiCaller>();

/** The partner whose secret the request carries, if that secret holds `scope` (else 403). */
export async function authenticatePartner(
  ctx: CheckoutContext,
  request: Request,
  scope: ApiScope,
  throttles: SessionsApiThrottles = sessionsApiThrottles(),
): Promise<Partner> {
  return (await authenticateCaller(ctx, request, scope, throttles)).partner;
}

/**
 * The partner and the secret it called with (an action's audit names the secret): a wrong or
 * missing secret is a 401; a secret without `scope` a 403 `insufficient_scope` naming it, before
 * anything of the request is read or done.
 */
export async function authenticateCaller(
  ctx: CheckoutContext,
  request: Request,
  scope: ApiScope,
  throttles: SessionsApiThrottles = sessionsApiThrottles(),
): Promise<ApiCaller> {
  const caller = await callerOf(ctx, request, throttles);
  if (!allows(caller.secret.scopes, scope)) {
    loggerFor("checkout").info(
      { partnerId: caller.partner.id, secretId: caller.secret.id, scope },
      "checkout API: a secret without the scope, answered 403",
    );
    throw new AppError("insufficient_scope", `This secret may not do this: it needs the scope ${scope}`, { requiredScope: scope });
  }
  return caller;
}

async function callerOf(ctx: CheckoutContext, request: Request, throttles: SessionsApiThrottles): Promise<ApiCaller> {
  const known = authenticated.get(request);
  if (known) return known;
  const ip = clientIpFrom(request.headers, throttles.trustedProxyHops);
  const blocked = rateLimited(throttles.wrongSecretsPerIp.check(ip), "Too many requests with a wrong secret from your address");
  if (blocked) {
    loggerFor("checkout").warn({ retryAfter: blocked.details.retryAfterS }, "checkout API: wrong secrets over budget, answered 429");
    throw blocked;
  }
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  const caller = match ? await apiCallerBySecret(ctx.db, match[1]!) : undefined;
  if (!caller) {
    throttles.wrongSecretsPerIp.take(ip);
    throw new AppError("unauthorized", "Send the partner secret as `Authorization: Bearer <secret>`");
  }
  authenticated.set(request, caller);
  return caller;
}

/**
 * Takes one request of the partner's budget of a kind (reads, actions): a 429 `rate_limited` with
 * Retry-After past it. No budget given (a test of something else): nothing taken.
 */
export function takeBudget(buckets: TokenBuckets | undefined, partnerId: string, what: "reads" | "cancels, refunds and erasures"): void {
  const refusal = buckets && rateLimited(buckets.take(partnerId), `Too many ${what}: retry after Retry-After seconds`);
  if (!refusal) return;
  loggerFor("checkout").warn({ partnerId, retryAfter: refusal.details.retryAfterS }, `checkout API: ${what} over budget, answered 429`);
  throw refusal;
}

/**
 * The JSON body, read no further than MAX_BODY_BYTES (a declared length over it: nothing is read).
 * `empty`: what an empty body stands for, where the call allows one (else it is refused).
 */
export async function readJson(request: Request, options: { empty?: unknown } = {}): Promise<unknown> {
  const body = await readJsonBody(request, MAX_BODY_BYTES);
  if (body.ok) return body.value;
  if (body.problem === "empty" && "empty" in options) return options.empty;
  const message = bodyProblemMessage(body);
  const code = body.problem === "too_large" ? "payload_too_large" : "validation_failed";
  throw new AppError(code, `The body ${message}`, { fields: [{ field: "(body)", message }] });
}

/**
 * What the partner sees of a session: its state, never the customer's data. The state and the
 * operation are partnerSessionView's, which the notifications are written from too.
 */
/** The session as its partner reads it, with when its customer data was erased (customerDataErasedAt). */
export async function readSessionResource(ctx: CheckoutContext, session: CheckoutSession): Promise<CheckoutSessionResource> {
  return sessionResource(ctx, session, (await customerDataErasedAt(ctx.db, [session.id])).get(session.id) ?? null);
}

export function sessionResource(ctx: CheckoutContext, session: CheckoutSession, erasedAt: Date | null): CheckoutSessionResource {
  const { id, bookingReference, state, final, operation } = partnerSessionView(session);
  return {
    id,
    url: checkoutUrls(ctx, id).page,
    bookingReference,
    state,
    final,
    operation,
    expiresAt: session.expiresAt.toISOString(),
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
    customerDataErasedAt: erasedAt?.toISOString() ?? null,
  };
}

export async function handleCreateSession(
  request: Request,
  throttles: SessionsApiThrottles = sessionsApiThrottles(),
  context: () => Promise<CheckoutContext> = getAppContext,
): Promise<{ status: 200 | 201; body: CheckoutSessionResource }> {
  const ctx = await context();
  const partner = await authenticatePartner(ctx, request, "sessions:open", throttles);
  const ip = clientIpFrom(request.headers, throttles.trustedProxyHops);
  const refusal = rateLimited(
    takeAll([
      [throttles.createPerPartner, partner.id],
      [throttles.createPerIp, ip],
    ]),
    "Too many checkout sessions opened: retry after Retry-After seconds",
  );
  if (refusal) {
    loggerFor("checkout").warn(
      { partnerId: partner.id, retryAfter: refusal.details.retryAfterS },
      "checkout API: sessions over budget, answered 429",
    );
    throw refusal;
  }
  const input = validSessionInput(await readJson(request), partner);
  const { session, created } = await createSession(ctx.db, partner, input);
  loggerFor("checkout").info({ partnerId: partner.id, sessionId: session.id, created }, "checkout session opened");
  return { status: created ? 201 : 200, body: created ? sessionResource(ctx, session, null) : await readSessionResource(ctx, session) };
}

const RETURN_URL_OFF_ORIGINS = "must be on one of the partner's allowed origins";

/**
 * The body as a session to open, or a 400 naming every bad field at once: the schema's problems
 * and a return URL off the partner's origins together (that rule needs the partner, so it is not
 * the schema's; checked after it, it was reported only once the booking was right).
 */
function validSessionInput(body: unknown, partner: Partner): CreateSessionInput {
  const parsed = createSessionSchema.safeParse(body);
  const fields = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({ field: issue.path.map(String).join(".") || "(body)", message: issue.message }));
  // The return URL as sent, when the schema found nothing wrong with it.
  const returnUrl = parsed.success ? parsed.data.returnUrl : wellFormedReturnUrl(body);
  if (returnUrl !== undefined && !fields.some((f) => f.field === "returnUrl") && !isAllowedReturnUrl(partner, returnUrl)) {
    fields.push({ field: "returnUrl", message: RETURN_URL_OFF_ORIGINS });
  }
  if (!parsed.success || fields.length > 0) {
    throw new AppError("validation_failed", `Invalid checkout session: ${fields.map((f) => `${f.field} ${f.message}`).join("; ")}`, {
      fields,
    });
  }
  return parsed.data;
}

function wellFormedReturnUrl(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || !("returnUrl" in body)) return undefined;
  const checked = createSessionSchema.shape.returnUrl.safeParse(body.returnUrl);
  return checked.success ? checked.data : undefined;
}

/**
 * One read of the partner's budget (a session, a page of sessions or events, a refund's breakdown:
 * each touches the database), or a 429 when it is spent.
 */
export function takeRead(throttles: SessionsApiThrottles, partner: Pick<Partner, "id">): void {
  takeBudget(throttles.readsPerPartner, partner.id, "reads");
}

export async function handleGetSession(
  request: Request,
  id: string,
  throttles: SessionsApiThrottles = sessionsApiThrottles(),
  context: () => Promise<CheckoutContext> = getAppContext,
): Promise<CheckoutSessionResource> {
  const ctx = await context();
  const partner = await authenticatePartner(ctx, request, "sessions:read", throttles);
  takeRead(throttles, partner);
  return readSessionResource(ctx, await partnersSession(ctx, partner, id));
}

/** The partner's own session: another partner's is "not found", its existence nobody else's business. */
export async function partnersSession(ctx: CheckoutContext, partner: Partner, id: string): Promise<CheckoutSession> {
  const session = await getSession(ctx.db, id);
  if (!session || session.partnerId !== partner.id) throw new AppError("not_found", "No checkout session with this id");
  return session;
}
