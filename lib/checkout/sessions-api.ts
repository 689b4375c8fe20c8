import "server-only";
import { AppError } from "@/lib/app-error";
import { getAppContext } from "@/lib/app-context";
import { partnerBySecret, type Partner } from "@/lib/partners/partners";
import { bodyProblemMessage, readJsonBody } from "@/lib/http/body";
import type { CheckoutSessionResource } from "./api-schemas";
import { createSessionSchema } from "./booking";
import { checkoutUrls, statusView, type CheckoutContext } from "./flow";
import { createSession, getSession, type CheckoutSession } from "./sessions";
import { loggerFor } from "@/lib/logger";

/**
 * The checkout sessions API (`/api/checkout-sessions`), our own API for partners' backends (not the
 * partner API, which is the financing API we call): the partner's backend authenticates with its
 * own secret as a bearer token, never with the financing key.
 */

const MAX_BODY_BYTES = 64 * 1024;

export async function authenticatePartner(ctx: CheckoutContext, request: Request): Promise<Partner> {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  const partner = match ? await partnerBySecret(ctx.db, match[1]!) : undefined;
  if (!partner) throw new AppError("unauthorized", "Send the partner secret as `Authorization: Bearer <secret>`");
  return partner;
}

/** The JSON body, read no further than MAX_BODY_BYTES (a declared length over it: nothing is read). */
async function readJson(request: Request): Promise<unknown> {
  const body = await readJsonBody(request, MAX_BODY_BYTES);
  if (body.ok) return body.value;
  const message = bodyProblemMessage(body);
  const code = body.problem === "too_large" ? "payload_too_large" : "validation_failed";
  throw new AppError(code, `The body ${message}`, { fields: [{ field: "(body)", message }] });
}

/** What the partner sees of a session: its state, never the customer's data. */
export function sessionResource(ctx: CheckoutContext, session: CheckoutSession): CheckoutSessionResource {
  const view = statusView(session);
  return {
    id: session.id,
    url: checkoutUrls(ctx, session.id).page,
    bookingReference: session.bookingReference,
    state: view.state,
    final: view.final,
    operation: session.operationId
      ? { id: session.operationId, status: session.operationStatus, updatedAt: session.operationUpdatedAt?.toISOString() ?? null }
      : null,
    expiresAt: session.expiresAt.toISOString(),
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
  };
}

export async function handleCreateSession(request: Request): Promise<{ status: 200 | 201; body: CheckoutSessionResource }> {
  const ctx = await getAppContext();
  const partner = await authenticatePartner(ctx, request);
  const parsed = createSessionSchema.safeParse(await readJson(request));
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => ({ field: issue.path.map(String).join(".") || "(body)", message: issue.message }));
    throw new AppError("validation_failed", `Invalid checkout session: ${fields.map((f) => `${f.field} ${f.message}`).join("; ")}`, {
      fields,
    });
  }
  const { session, created } = await createSession(ctx.db, partner, parsed.data);
  loggerFor("checkout").info({ partnerId: partner.id, sessionId: session.id, created }, "checkout session opened");
  return { status: created ? 201 : 200, body: sessionResource(ctx, session) };
}

export async function handleGetSession(request: Request, id: string): Promise<CheckoutSessionResource> {
  const ctx = await getAppContext();
  const partner = await authenticatePartner(ctx, request);
  const session = await getSession(ctx.db, id);
  // Another partner's session is "not found": its existence is nobody else's business.
  if (!session || session.partnerId !== partner.id) throw new AppError("not_found", "No checkout session with this id");
  return sessionResource(ctx, session);
}
