/**
 * The database work of each step of a checkout, in statements and transactions: counted (unlike
 * its time, a count does not depend on the machine), so that a step that goes back to re-reading
 * what it holds, or to two transactions where one does, fails here
 * (docs/contributors/performance.md, "Statements per step"). On PGlite, the sandbox over HTTP.
 *
 * The partner's reads are left out: they come from the partner cache (lib/partners/cache.ts), whose
 * few seconds a slow machine may outlast between two steps.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Logger } from "drizzle-orm/logger";
import type { Database } from "@/lib/db";
import type { Partner } from "@/lib/partners/partners";
import { startSandboxServer } from "@/lib/sandbox/testing/servers";
import { workSettled } from "@/lib/ops/lifecycle";
import { handleGetSession } from "../api/sessions-api";
import { BROWSER, customerDraft, DEMO_SECRET, sessionInput, testContext, unlimitedThrottles } from "../testing/context";
import { getCustomerDraft } from "./customer-store";
import { chooseOffer, loadOffers, pollStatus, refreshStatus, type CheckoutContext } from "./flow";
import { createSession, requireSession } from "./sessions";
import { submitCustomer } from "./submit";

/** Every statement drizzle sends, but the partner's reads. */
class Counter implements Logger {
  statements: string[] = [];
  logQuery(query: string): void {
    if (!/ from "partners"/.test(query)) this.statements.push(query);
  }
}

const counter = new Counter();
let transactions = 0;
let server: Awaited<ReturnType<typeof startSandboxServer>>;
let database: Database;
let ctx: CheckoutContext;
let partner: Partner;

beforeAll(async () => {
  server = await startSandboxServer();
  ({ ctx, database, partner } = await testContext(server.baseUrl, { logger: counter }));
  const transaction = database.db.transaction.bind(database.db);
  database.db.transaction = (work, config) => {
    transactions++;
    return transaction(work, config);
  };
});

afterAll(async () => {
  await database?.close();
  await server?.close();
});

/** What `work` sent to the database. */
async function count<T>(work: () => Promise<T>): Promise<{ result: T; statements: number; transactions: number }> {
  const [statementsBefore, transactionsBefore] = [counter.statements.length, transactions];
  const result = await work();
  return { result, statements: counter.statements.length - statementsBefore, transactions: transactions - transactionsBefore };
}

it("each step of a checkout sends the statements it needs, in one transaction at most", async () => {
  const { session } = await createSession(ctx.db, partner, sessionInput());

  // The details page: the session, then the customer's draft.
  const details = await count(async () => {
    const read = await requireSession(ctx.db, session.id);
    return getCustomerDraft(ctx.db, read.id);
  });
  expect(details).toMatchObject({ statements: 2, transactions: 0 });

  // The details sent: the session, the draft, the data kept; then, the operation created at the
  // partner API, its attach with its first status and the partner's notification, in one transaction.
  const submit = await count(() => submitCustomer(ctx, session.id, customerDraft(), BROWSER));
  expect(submit.result).toEqual({ ok: true });
  expect(submit).toMatchObject({ statements: 7, transactions: 1 });

  // The offers page: the session (the offers are the partner API's).
  const offers = await count(async () => loadOffers(ctx, await requireSession(ctx.db, session.id), partner));
  expect(offers.result.kind).toBe("offers");
  expect(offers).toMatchObject({ statements: 1, transactions: 0 });
  const offerId = offers.result.kind === "offers" ? offers.result.offers[0]!.id : -1;

  // A plan chosen: the session, the claim (one conditional update), the status read's cache row
  // (read, then written), and `pending` recorded with that status and its notification.
  const choose = await count(() => chooseOffer(ctx, session.id, offerId));
  expect(choose.result.kind).toBe("redirect");
  expect(choose).toMatchObject({ statements: 9, transactions: 1 });
  expect(await workSettled(30_000)).toBe(true);

  // Back from the provider, signed: the status read (its cache row read and written), recorded with
  // its notification; the row it locked is the session the status page then shows, not read again.
  const atProvider = await requireSession(ctx.db, session.id);
  await server.sandbox.engine.sign(atProvider.operationId!);
  const back = await count(() => refreshStatus(ctx, atProvider, "return"));
  expect(back.result.operationStatus).toBe("CONFIRMED");
  expect(back).toMatchObject({ statements: 7, transactions: 1 });

  // The status page of a final outcome: the session; its poll asks nothing more.
  const status = await count(async () => pollStatus(ctx, await requireSession(ctx.db, session.id)));
  expect(status.result).toMatchObject({ state: "confirmed", final: true });
  expect(status).toMatchObject({ statements: 1, transactions: 0 });

  // The API's GET: its caller's secret, the read budget's tokens, then the session with whether its
  // customer's data was erased, in one read. Once before, uncounted: a secret's first use in a
  // minute also writes when it was last used.
  const get = () =>
    handleGetSession(
      new Request(`http://127.0.0.1/api/checkout-sessions/${session.id}`, { headers: { Authorization: `Bearer ${DEMO_SECRET}` } }),
      session.id,
      unlimitedThrottles(),
      async () => ctx,
    );
  await get();
  const read = await count(get);
  expect(read.result.state).toBe("confirmed");
  expect(read).toMatchObject({ statements: 3, transactions: 0 });
});
