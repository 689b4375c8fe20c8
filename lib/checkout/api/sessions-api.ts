import "server-only";
import { AppError } from "@/lib/app-error";
import { getAppContext } from "@/lib/app-context";
import { apiCallerBySecret, type ApiCaller } from "@/lib/partners/api-secrets";
import { allows, type ApiScope } from "@/lib/vocabulary/api-scopes";
import "./error-codes";
import { isAllowedReturnUrl, returnUrlOffOrigins, type Partner } from "@/lib/partners/partners";
import { bodyProblemMessage, readJsonBody } from "@/lib/http/body";
import type { CheckoutSessionResource } from "./api-schemas";
import { createSessionSchema, type CreateSessionInput } from "../session/booking";
import { checkoutUrls, type CheckoutContext } from "../session/flow";
import { partnerSessionView, type CheckoutSession } from "../session/session-state";
import { createSession, getSession } from "../session/sessions";
import { getEnv, type AppEnv } from "@/lib/config/env";
import { loggerFor } from "@/lib/logger";
import { clientIpFrom } from "@/lib/security/network/client-ip";
import { addressBucket } from "@/lib/security/limits/address-bucket";
import { sharedBuckets, spendTokens, type SharedBuckets, type Spend } from "@/lib/security/limits/shared-token-bucket";
import { customerDataErasedAt, sessionWithErasure } from "../session/customer-store";
import { isCheckoutSessionId } from "@/lib/http/checkout-session-id";
import { fieldErrorsOf, parseForApi } from "./validation";

/**
 * The checkout sessions API (`/api/checkout-sessions`), our own API for partners' backends (not the
 * partner API, which is the financing API we call): the partner's backend authenticates with its
 * own secret as a bearer token, never with the financing key.
 */

const MAX_BODY_BYTES = 64 * 1024;

/**
 * The API's throttles (token buckets in the database, shared by every instance; SESSIONS_API_* in
 * lib/config/env.ts): sessions opened per partner and per client address, and wrong (or missing)
 * secrets per client address, an IPv6 address counted by its /64 (addressBucket). A client address
 * out of wrong-secret tokens is refused whether its secret is right or wrong: guessing goes no
 * faster by mixing in a known secret, and the answer (429) tells nothing of the secret. The check,
 * the wrong secret's token and the partner's budget are one statement (spendTokens): one round trip.
 */
export interface SessionsApiThrottles {
  createPerPartner: SharedBuckets;
  createPerIp: SharedBuckets;
  wrongSecretsPerIp: SharedBuckets;
  /** Sessions read per partner (GET): reads touch the database too. Optional for tests of the others. */
  readsPerPartner?: SharedBuckets;
  /** Cancels and refunds asked per partner: each calls the partner API. Optional for tests of the others. */
  actionsPerPartner?: SharedBuckets;
  trustedProxyHops: number;
}

let defaultThrottles: SessionsApiThrottles | undefined;

/** The throttles of this process, from the configuration (shared by every handler of the API). */
export function sessionsApiThrottles(): SessionsApiThrottles {
  if (!defaultThrottles) {
    const env = getEnv();
    defaultThrottles = throttlesOf(env.sessionsApiBudget, env.TRUSTED_PROXY_HOPS);
  }
  return defaultThrottles;
}

/**
 * The throttles of a configuration: every instance with the same one spends the same buckets
 * (named here, kept in the database).
 */
export function throttlesOf(budget: AppEnv["sessionsApiBudget"], trustedProxyHops: number): SessionsApiThrottles {
  return {
    createPerPartner: sharedBuckets("sessions-api:create:partner", budget.createPerPartnerPerMinute),
    createPerIp: sharedBuckets("sessions-api:create:ip", budget.createPerIpPerMinute),
    wrongSecretsPerIp: sharedBuckets("sessions-api:wrong-secret:ip", budget.wrongSecretsPerIpPerMinute),
    readsPerPartner: sharedBuckets("sessions-api:reads:partner", budget.readsPerPartnerPerMinute),
    actionsPerPartner: sharedBuckets("sessions-api:actions:partner", budget.actionsPerPartnerPerMinute),
    trustedProxyHops,
  };
}

function rateLimited(retryAfterMs: number, message: string): AppError {
  return new AppError("rate_limited", message, { retryAfterS: Math.max(1, Math.ceil(retryAfterMs / 1000)) });
}

/**
 * What an authenticated call spends of its partner's budgets (and the client's), taken in the
 * same statement as the wrong-secret check; past it, a 429 `rate_limited` with Retry-After.
 */
export interface Charge {
  spends: (partner: Partner, address: string) => Spend[];
  /** What the refusal says there were too many of. */
  what: string;
}

/** One call of the partner's budget of a kind (reads, actions); no budget given (a test of something else): nothing. */
export function partnerBudget(buckets: SharedBuckets | undefined, what: "reads" | "cancels, refunds and erasures"): Charge {
  return { spends: (partner) => (buckets ? [{ buckets, key: partner.id }] : []), what };
}

/** One read of the partner's budget (a session, a page of sessions or events, a refund's breakdown: each touches the database). */
export function readBudget(throttles: SessionsApiThrottles): Charge {
  return partnerBudget(throttles.readsPerPartner, "reads");
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
  charge?: Charge,
): Promise<Partner> {
  return (await authenticateCaller(ctx, request, scope, throttles, charge)).partner;
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
  charge?: Charge,
): Promise<ApiCaller> {
  const caller = await callerOf(ctx, request, scope, throttles, charge);
  if (!allows(caller.secret.scopes, scope)) {
    loggerFor("checkout").info(
      { partnerId: caller.partner.id, secretId: caller.secret.id, scope },
      "checkout API: a secret without the scope, answered 403",
    );
    throw new AppError("insufficient_scope", `This secret may not do this: it needs the scope ${scope}`, { requiredScope: scope });
  }
  return caller;
}

/**
 * The caller, its secret looked up and then, in one statement: the client address's wrong-secret
 * bucket required (taken from when the secret is wrong) and the charge taken (a caller whose secret
 * holds the scope). A request already authenticated (by the API's wrapper) only spends the charge.
 */
async function callerOf(
  ctx: CheckoutContext,
  request: Request,
  scope: ApiScope,
  throttles: SessionsApiThrottles,
  charge: Charge | undefined,
): Promise<ApiCaller> {
  const address = addressBucket(clientIpFrom(request.headers, throttles.trustedProxyHops));
  const known = authenticated.get(request);
  const header = request.headers.get("authorization") ?? "";
  const match = known ? undefined : /^Bearer\s+(\S+)$/i.exec(header);
  const caller = known ?? (match ? await apiCallerBySecret(ctx.db, match[1]!) : undefined);
  const charged = caller && charge && allows(caller.secret.scopes, scope) ? charge.spends(caller.partner, address) : [];
  const spends: Spend[] = known ? charged : [{ buckets: throttles.wrongSecretsPerIp, key: address, take: !caller }, ...charged];
  const take = await spendTokens(ctx.db, spends);
  if (!take.ok) {
    const log = loggerFor("checkout");
    // The wrong-secret bucket's refusal, or a race lost on it (no bucket named empty, nothing else spent).
    if (!known && (take.empty.includes(0) || !charge || charged.length === 0)) {
      const blocked = rateLimited(take.retryAfterMs, "Too many requests with a wrong secret from your address");
      log.warn({ retryAfter: blocked.details.retryAfterS }, "checkout API: wrong secrets over budget, answered 429");
      throw blocked;
    }
    const refusal = rateLimited(take.retryAfterMs, `Too many ${charge?.what}: retry after Retry-After seconds`);
    log.warn(
      { partnerId: caller!.partner.id, retryAfter: refusal.details.retryAfterS },
      `checkout API: ${charge?.what} over budget, answered 429`,
    );
    throw refusal;
  }
  if (!caller) throw new AppError("unauthorized", "Send the partner secret as `Authorization: Bearer <secret>`");
  authenticated.set(request, caller);
  return caller;
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
  const partner = await authenticatePartner(ctx, request, "sessions:open", throttles, {
    spends: (caller, address) => [
      { buckets: throttles.createPerPartner, key: caller.id },
      { buckets: throttles.createPerIp, key: address },
    ],
    what: "checkout sessions opened",
  });
  const input = validSessionInput(await readJson(request), partner);
  const { session, created } = await createSession(ctx.db, partner, input);
  loggerFor("checkout").info({ partnerId: partner.id, sessionId: session.id, created }, "checkout session opened");
  return { status: created ? 201 : 200, body: created ? sessionResource(ctx, session, null) : await readSessionResource(ctx, session) };
}

/**
 * The body as a session to open, or a 400 naming every bad field at once: the schema's problems
 * and a return URL off the partner's origins together (that rule needs the partner, so it is not
 * the schema's; checked after it, it was reported only once the booking was right).
 */
function validSessionInput(body: unknown, partner: Partner): CreateSessionInput {
  const parsed = parseForApi(createSessionSchema, body);
  const fields = parsed.success ? [] : fieldErrorsOf(parsed.error.issues);
  // The return URL as sent, when the schema found nothing wrong with it.
  const returnUrl = parsed.success ? parsed.data.returnUrl : wellFormedReturnUrl(body);
  if (returnUrl !== undefined && !fields.some((f) => f.field === "returnUrl") && !isAllowedReturnUrl(partner, returnUrl)) {
    fields.push({ field: "returnUrl", message: returnUrlOffOrigins(partner) });
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

export async function handleGetSession(
  request: Request,
  id: string,
  throttles: SessionsApiThrottles = sessionsApiThrottles(),
  context: () => Promise<CheckoutContext> = getAppContext,
): Promise<CheckoutSessionResource> {
  const ctx = await context();
  const partner = await authenticatePartner(ctx, request, "sessions:read", throttles, readBudget(throttles));
  // The session and its erasure in one read (partnersSession's rule: another partner's is not found).
  const found = isCheckoutSessionId(id) ? await sessionWithErasure(ctx.db, id) : undefined;
  if (!found || found.session.partnerId !== partner.id) throw sessionNotFound();
  return sessionResource(ctx, found.session, found.erasedAt);
}

/** The partner's own session: another partner's is "not found", its existence nobody else's business. */
export async function partnersSession(ctx: CheckoutContext, partner: Partner, id: string): Promise<CheckoutSession> {
  const session = await getSession(ctx.db, id);
  if (!session || session.partnerId !== partner.id) throw sessionNotFound();
  return session;
}

function sessionNotFound(): AppError {
  return new AppError("not_found", "No checkout session with this id");
}
