import { randomUUID } from "node:crypto";
import type { Logger } from "drizzle-orm/logger";
import { createFinancingClient } from "@/lib/financing/client";
import { createDatabaseStatusCache } from "@/lib/composition/db-status-cache";
import { SAMPLE_CLIENT } from "@/lib/financing/testing/samples";
import { openDatabase, type Database } from "@/lib/db";
import { checkoutSessions } from "@/lib/db/schema";
import { DEMO_PARTNER_ID, seedDemoPartner } from "@/lib/demo/seed";
import { workSettled } from "@/lib/ops/lifecycle";
import { partnerById, type Partner } from "@/lib/partners/partners";
import { chooseOffer, loadOffers, type CheckoutContext } from "../session/flow";
import { submitCustomer } from "../session/submit";
import type { Booking, CreateSessionInput } from "../session/booking";
import { tripDayFromToday } from "../session/trip-dates";
import type { CheckoutSession } from "../session/session-state";
import { createSession, requireSession } from "../session/sessions";
import { sharedBuckets, type SharedBuckets } from "@/lib/security/limits/shared-token-bucket";
import type { SessionsApiThrottles } from "../api/sessions-api";

export const DEMO_SECRET = "test_partner_secret_0123456789";

/**
 * A checkout context on an in-memory PGlite (or the PostgreSQL at `databaseUrl`), talking to the
 * partner API at `baseUrl`.
 */
export async function testContext(
  baseUrl: string,
  options: { appUrl?: string; fetch?: typeof fetch; databaseUrl?: string; logger?: Logger } = {},
): Promise<{
  ctx: CheckoutContext;
  database: Database;
  partner: Partner;
}> {
  const database = await openDatabase({
    ...(options.databaseUrl === undefined ? { dataDir: "memory://" } : { databaseUrl: options.databaseUrl, dataDir: "unused" }),
    logger: options.logger,
  });
  const appUrl = options.appUrl ?? "http://127.0.0.1:3999";
  await seedDemoPartner(database.db, { secret: DEMO_SECRET, appUrl });
  const partner = (await partnerById(database.db, DEMO_PARTNER_ID))!;
  const client = createFinancingClient({
    baseUrl,
    apiKey: "fk_test_sandbox_agency_101",
    statusCache: createDatabaseStatusCache(database.db),
    sleep: async () => {},
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return {
    database,
    partner,
    ctx: { db: database.db, appUrl, webhookToken: "test-webhook-token-0123456789", today: () => "2026-11-22", clientFor: () => client },
  };
}

/** A partner API call as a test sees it: method, path under the API's base, and the request id sent. */
export interface RecordedCall {
  method: string;
  path: string;
  requestId: string | null;
}

/** A fetch that records each partner API call in `calls`, then makes it. */
export function recordingFetch(calls: RecordedCall[]): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    calls.push({
      method: init?.method ?? "GET",
      path: url.pathname.replace("/sandbox/v1", ""),
      requestId: new Headers(init?.headers).get("x-request-id"),
    });
    return fetch(input, init);
  };
}

let counter = 0;

export function sessionInput(overrides: Partial<CreateSessionInput> = {}, appUrl = "http://127.0.0.1:3999"): CreateSessionInput {
  counter += 1;
  return {
    booking: {
      bookingReference: `BK-${Date.now()}-${counter}`,
      packageName: "Lisboa, 4 noches",
      packageTravel: true,
      travellers: 2,
      totalPrice: { amount: 1234.5, currency: "EUR" },
      flights: [{ origin: "MAD", destination: "LIS", departureDate: tripDayFromToday(60), returnDate: tripDayFromToday(64) }],
      hotels: [],
      services: [],
    },
    returnUrl: `${appUrl}/`,
    ...overrides,
  };
}

/** The customer's browser in tests: the token its cookie holds (lib/checkout/session/customer-editor.ts). */
export const BROWSER = "test-browser-token";

/** The sample customer as the checkout form posts it (SAMPLE_CLIENT, with the document type). */
export function customerDraft(email = "ana@example.com") {
  return { ...SAMPLE_CLIENT, email, phone: "612345678", documentType: "DNI" as const };
}

/**
 * A checkout session as it is stored, for tests (and the webhook bench) that start after the
 * customer's steps: a small booking, the demo partner's unless said, with an operation at the
 * provider (CLIENT_REQUESTED) when `operationId` is given.
 */
export function storedSession(options: {
  id: string;
  reference: string;
  partnerId?: string;
  operationId?: string;
  returnUrl?: string;
}): typeof checkoutSessions.$inferInsert {
  const booking: Booking = {
    bookingReference: options.reference,
    packageName: "Trip",
    packageTravel: false,
    travellers: 1,
    totalPrice: { amount: 1000, currency: "EUR" },
    flights: [],
    hotels: [],
    services: [{ description: "Trip" }],
  };
  return {
    id: options.id,
    partnerId: options.partnerId ?? DEMO_PARTNER_ID,
    bookingReference: options.reference,
    booking,
    bookingHash: options.reference,
    returnUrl: options.returnUrl ?? "http://127.0.0.1/",
    locale: "es",
    ...(options.operationId
      ? {
          operationId: options.operationId,
          operationStatus: "CLIENT_REQUESTED" as const,
          operationUpdatedAt: new Date("2026-11-22T09:00:00Z"),
        }
      : {}),
    expiresAt: new Date(Date.now() + 86_400_000),
  };
}

/**
 * A session of the demo partner whose customer is at the provider (operation `op_<name>`),
 * inserted as it is stored: for tests of what comes after (webhooks, shutdown).
 */
export async function insertSessionAtProvider(db: Database["db"], name: string): Promise<string> {
  const operationId = `op_${name}`;
  await db.insert(checkoutSessions).values(storedSession({ id: `cs_${name}_0000000000`, reference: `REF-${name}`, operationId }));
  return operationId;
}

/**
 * A new session whose customer sent the sample details and chose the first plan, as the checkout
 * does: the operation is at the provider (CLIENT_REQUESTED). Answers the session as stored then.
 */
export async function sessionAtProvider(ctx: CheckoutContext, partner: Partner, input = sessionInput()): Promise<CheckoutSession> {
  const { session } = await createSession(ctx.db, partner, input);
  const sent = await submitCustomer(ctx, session.id, customerDraft(), BROWSER);
  if (!sent.ok) throw new Error("expected the details to be taken");
  const view = await loadOffers(ctx, await requireSession(ctx.db, session.id));
  if (view.kind !== "offers") throw new Error("expected offers");
  const chosen = await chooseOffer(ctx, session.id, view.offers[0]!.id);
  if (chosen.kind !== "redirect") throw new Error(`expected the provider's page, got ${chosen.kind}`);
  // chooseOffer reads the operation's status again in the background: let that read land, so that
  // what a test does next (a decision at the provider, a count of calls) does not race it.
  if (!(await workSettled(5_000))) throw new Error("the status read after the plan request did not settle");
  return requireSession(ctx.db, session.id);
}

/** Shared buckets of their own (a prefix no other test's buckets use), holding `perMinute`: the fresh budget of one test. */
export function testBuckets(perMinute: number): SharedBuckets {
  return sharedBuckets(`test:${randomUUID()}`, perMinute);
}

/** The API's throttles with budgets no test reaches: for tests of something else. */
export function unlimitedThrottles(): SessionsApiThrottles {
  const buckets = (name: string) => sharedBuckets(`unlimited:${name}`, 100_000);
  return {
    createPerPartner: buckets("create:partner"),
    createPerIp: buckets("create:ip"),
    wrongSecretsPerIp: buckets("wrong-secret:ip"),
    readsPerPartner: buckets("reads:partner"),
    actionsPerPartner: buckets("actions:partner"),
    trustedProxyHops: 0,
  };
}
