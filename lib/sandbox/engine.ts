import "server-only";
import { and, count, desc, eq, gte, inArray, isNotNull, lt, lte, type SQL } from "drizzle-orm";
import type { OperationStatus, WebhookStatus, WireCreateOperationRequest } from "@/lib/financing/contract";
import { WEBHOOK_STATUSES } from "@/lib/financing/contract";
import { ACCOUNTS, findAgency, findKey, type SandboxKey } from "./accounts";
import { DEFAULT_RETENTION_DAYS } from "./config";
import type { SandboxDatabase, SandboxDb } from "./db/connection";
import { sandboxAccounts, sandboxOperations, type HistoryEntry, type SandboxOperationRow } from "./db/schema";
import { authError, businessError, generalError, operationNotFound, SandboxError, validationError } from "./errors";
import { agencyHasProviders, alternativesWithSameInstallments, computeOffers, type SandboxOffer } from "./offers";
import { AccountClocks } from "./clock";
import { WebhookDelivery, type WebhookAck, type WebhookDeliveryOptions, type WebhookEventRecord } from "./webhook-delivery";

export type { HistoryEntry } from "./db/schema";
export { REDELIVERY_SCHEDULE_SECONDS, type WebhookAttempt, type WebhookEventRecord } from "./webhook-delivery";

/**
 * The sandbox's state and rules: operations, the state machine the QA guide (docs/qa/README.md) lists, the e-mail-tag
 * triggers, the per-account test clocks, webhooks and their redelivery. HTTP lives in `api.ts`,
 * `control.ts` and `pages.ts`; this module never sees a Request.
 *
 * State is in the database (`db/schema.ts`), so a restart loses nothing and several processes on
 * one PostgreSQL can serve the same sandbox: a change to an operation runs in a transaction that
 * holds the operation's row lock; creation is idempotent through a unique index (INSERT … ON
 * CONFLICT); a webhook delivery is claimed with a conditional UPDATE before it goes out, so two
 * processes never send the same attempt. Nothing kept in this object matters beyond a request,
 * except the deliveries in flight that `idle()` waits for.
 */

export const TRIGGERS = [
  "refuse_first",
  "refuse_offer",
  "error_offer",
  "refuse_all",
  "error",
  "decline",
  "refund_reject",
  "not_eligible",
] as const;
export type Trigger = (typeof TRIGGERS)[number];

/** An operation not finished this long after it was created expires (GENERATED to PENDING_RESPONSE). */
export const EXPIRY_SECONDS = 24 * 60 * 60;
const EXPIRABLE: readonly OperationStatus[] = ["GENERATED", "PENDING", "CLIENT_REQUESTED", "PENDING_RESPONSE"];
/** Statuses that never change again. ERROR is not one: the spec lets it be cancelled. */
const FINAL: readonly OperationStatus[] = ["REFUSED", "REFUNDED", "CANCELLED", "EXPIRED", "FINISHED"];

/** Fees of the refund breakdown, in basis points of the trip price. */
export const MANAGEMENT_FEE_BPS = 150; // 1.5 %, charged on top of the price (totalReserve) and not refunded
export const CANCELLATION_FEE_BPS = 200; // 2 %, the service's own cancellation fee

const DAY_MS = 24 * 60 * 60 * 1000;

export interface Caller {
  key: SandboxKey;
  /** The agency this call acts for: the key's own, or the group key's agency header. */
  agencyId: number;
  /** The key's sandbox account: its clock and faults. */
  account: string;
}

export interface SandboxOperation {
  id: string;
  operationNumber: number;
  /** The account whose key created it: its clock applies to it, its reset forgets it. */
  account: string;
  agencyId: number;
  externalId: string | null;
  status: OperationStatus;
  totalPriceCents: number;
  managementFeeCents: number;
  currency: string;
  /** The customer's country: the market whose providers are offered. */
  countryCode: string;
  request: WireCreateOperationRequest;
  token: string;
  triggers: ReadonlySet<Trigger>;
  createdAt: number;
  updatedAt: number;
  history: HistoryEntry[];
  /** Installment counts every provider refused (+refuse_offer): no longer offered. */
  refusedInstallments: Set<number>;
  financing?: { requestToken: string; offer: SandboxOffer; refusedProviders: string[] };
  /** Last day of the trip (yyyy-MM-dd), after which a CONFIRMED operation is FINISHED. */
  travelEndDate: string | undefined;
}

export type StartFinancingOutcome =
  | { financingStatus: "REQUESTED"; paymentUrl: string }
  | { financingStatus: "REFUSED" | "ERROR"; paymentUrl: null; hasAlternativeFinancialOffers: boolean };

export interface SandboxEngineOptions extends WebhookDeliveryOptions {
  /** The real clock under the test clocks. */
  realNow?: () => number;
  /** Operations created longer ago than this (wall clock) are purged on the timer. */
  retentionDays?: number;
  /** The production-like mode: the seeded keys are taken in their `fk_live_` form only (accounts.ts). */
  productionLike?: boolean;
  /**
   * The origin of every address a browser follows (`financingUrl`, `paymentUrl`, the hosted pages'
   * links), e.g. `https://sandbox.example`: the served sandbox's is the app's APP_URL, the one run
   * alone SANDBOX_PUBLIC_ORIGIN's. Unset: the origin each request came in on.
   */
  publicOrigin?: string;
}

/** A change being made to one operation: its clock, and the webhook statuses it emits. */
interface Change {
  now: number;
  emitted: WebhookStatus[];
}

export class SandboxEngine {
  private readonly inFlight = new Set<Promise<unknown>>();
  private ticking: Promise<void> | undefined;
  private readonly clocks: AccountClocks;
  private readonly webhooks: WebhookDelivery;
  readonly retentionDays: number;
  readonly productionLike: boolean;
  readonly publicOrigin: string | undefined;
  /**
   * Errors of work done in the background (a delivery's bookkeeping, a timer tick), kept for
   * inspection (the last 20) until the app's logger takes them.
   */
  readonly backgroundErrors: unknown[] = [];

  constructor(
    private readonly database: Promise<SandboxDatabase>,
    options: SandboxEngineOptions = {},
  ) {
    // Awaited on every use; a failure to open shows up there, not as an unhandled rejection.
    database.catch(() => {});
    this.clocks = new AccountClocks(options.realNow ?? Date.now);
    this.webhooks = new WebhookDelivery(
      () => this.db(),
      (work) => this.track(work),
      options,
    );
    this.retentionDays = options.retentionDays ?? DEFAULT_RETENTION_DAYS;
    this.productionLike = options.productionLike ?? false;
    this.publicOrigin = options.publicOrigin === undefined ? undefined : new URL(options.publicOrigin).origin;
  }

  private async db(): Promise<SandboxDb> {
    return (await this.database).db;
  }

  // -------------------------------------------------------------------------------------------
  // Clocks: one per account (clock.ts)

  /** The account's test clock: real time plus whatever QA advanced it by. */
  async now(account: string): Promise<number> {
    return this.clocks.now(await this.db(), account);
  }

  async clock(account: string): Promise<{ now: number; offsetSeconds: number }> {
    return this.clocks.read(await this.db(), account);
  }

  /** Moves the account's test clock; its expirations, finished trips and due redeliveries happen. */
  async advance(account: string, seconds: number): Promise<void> {
    await this.clocks.advance(await this.db(), account, seconds);
    await this.tick(account);
  }

  /**
   * Applies what time has made due, for one account or all of them: expirations, finished trips,
   * due redeliveries, and (for all) the retention purge. Safe to run in several processes at once.
   */
  async tick(account?: string): Promise<void> {
    for (const id of account === undefined ? ACCOUNTS : [account]) await this.tickAccount(id);
    if (account === undefined) await this.purgeExpired();
  }

  /** The periodic timer's tick: never two at once in this process, never an unhandled rejection. */
  tickInBackground(): void {
    if (this.ticking) return;
    this.ticking = this.track(this.tick()).finally(() => (this.ticking = undefined));
  }

  private async tickAccount(account: string): Promise<void> {
    const db = await this.db();
    const now = await this.clocks.now(db, account);
    const expiring = await db
      .select({ id: sandboxOperations.id })
      .from(sandboxOperations)
      .where(
        and(
          eq(sandboxOperations.account, account),
          inArray(sandboxOperations.status, [...EXPIRABLE]),
          lte(sandboxOperations.createdAt, now - EXPIRY_SECONDS * 1000),
        ),
      );
    const confirmed = await db
      .select({ id: sandboxOperations.id, travelEndDate: sandboxOperations.travelEndDate })
      .from(sandboxOperations)
      .where(
        and(eq(sandboxOperations.account, account), eq(sandboxOperations.status, "CONFIRMED"), isNotNull(sandboxOperations.travelEndDate)),
      );
    const finishing = confirmed.filter((op) => now >= Date.parse(`${op.travelEndDate}T23:59:59Z`));

    // Each re-checked under its row lock: another process's tick may have got there first.
    for (const { id } of expiring) {
      await this.mutate(id, (op, change) => {
        if (EXPIRABLE.includes(op.status) && change.now - op.createdAt >= EXPIRY_SECONDS * 1000) {
          this.transition(op, "EXPIRED", change, "time limit passed");
        }
      }).catch(ignoreVanished);
    }
    for (const { id } of finishing) {
      await this.mutate(id, (op, change) => {
        if (op.status === "CONFIRMED" && op.travelEndDate && change.now >= Date.parse(`${op.travelEndDate}T23:59:59Z`)) {
          this.transition(op, "FINISHED", change, "travel date passed");
        }
      }).catch(ignoreVanished);
    }
    await this.webhooks.deliverDue(account, now);
  }

  /** Deletes operations (and their events) created more than `retentionDays` ago, by the wall clock. */
  async purgeExpired(): Promise<number> {
    const db = await this.db();
    const cutoff = new Date(this.clocks.real() - this.retentionDays * DAY_MS);
    const purged = await db
      .delete(sandboxOperations)
      .where(lt(sandboxOperations.createdRealAt, cutoff))
      .returning({ id: sandboxOperations.id });
    return purged.length;
  }

  /** Forgets the account's operations, events and faults, and puts its clock back; others' stay. */
  async reset(account: string): Promise<void> {
    await this.idle();
    const db = await this.db();
    await db.transaction(async (tx) => {
      await tx.delete(sandboxOperations).where(eq(sandboxOperations.account, account));
      await this.clocks.reset(tx, account);
    });
  }

  /** Resolves when nothing started by this process is in flight (deliveries, ticks). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Background work: waited for by `idle()`; an error is kept in `backgroundErrors`, never thrown. */
  private track(work: Promise<unknown>): Promise<void> {
    const tracked = work.then(
      () => undefined,
      (error: unknown) => {
        this.backgroundErrors.push(error);
        if (this.backgroundErrors.length > 20) this.backgroundErrors.shift();
      },
    );
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
    return tracked;
  }

  // -------------------------------------------------------------------------------------------
  // Authentication

  /** The seeded key a request's key header names, in this sandbox's mode; undefined: none. */
  keyOf(apiKey: string): SandboxKey | undefined {
    return findKey(apiKey.trim(), this.productionLike);
  }

  authenticate(apiKey: string | null, agencyHeader: string | null, options: { agencyExempt?: boolean } = {}): Caller {
    if (apiKey === null || apiKey.trim() === "") throw authError("Missing API key");
    // fk_live_ keys belong to production: valid only in the production-like mode, where fk_test_ keys are not.
    const key = this.keyOf(apiKey);
    if (!key) throw authError("Invalid API key");
    if (key.kind === "agency") {
      const agencyId = key.agencyIds[0]!;
      if (agencyHeader !== null && agencyHeader.trim() !== String(agencyId)) {
        throw generalError(403, "Forbidden", "An agency key acts for its own agency only", this.clocks.real());
      }
      return { key, agencyId, account: key.account };
    }
    if (options.agencyExempt) return { key, agencyId: 0, account: key.account };
    if (agencyHeader === null || agencyHeader.trim() === "") {
      throw validationError([{ field: "X-Service-Agency", message: "is required with a management group key" }]);
    }
    if (!/^\d+$/.test(agencyHeader.trim())) {
      throw validationError([{ field: "X-Service-Agency", message: "must be an agency id" }]);
    }
    const agencyId = Number(agencyHeader.trim());
    const agency = findAgency(agencyId);
    if (!agency || !agency.active || !key.agencyIds.includes(agencyId)) {
      throw generalError(403, "Forbidden", `Agency ${agencyId} is not an active agency of this group`, this.clocks.real());
    }
    return { key, agencyId, account: key.account };
  }

  // -------------------------------------------------------------------------------------------
  // Operations

  async createOperation(caller: Caller, body: WireCreateOperationRequest): Promise<{ operation: SandboxOperation; created: boolean }> {
    const db = await this.db();
    await db.insert(sandboxAccounts).values({ id: caller.account }).onConflictDoNothing();
    const now = await this.clocks.now(db, caller.account);
    const totalPriceCents = Math.round((body.totalPrice ?? 0) * 100);
    // Idempotency is the unique index on (agency, externalId): of concurrent creates, one inserts
    // and the others find its row (NULL externalIds never conflict: no idempotency without one).
    const inserted = await db
      .insert(sandboxOperations)
      .values({
        id: `op_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`,
        account: caller.account,
        agencyId: caller.agencyId,
        externalId: body.externalId ?? null,
        status: "GENERATED",
        totalPriceCents,
        managementFeeCents: Math.round((totalPriceCents * MANAGEMENT_FEE_BPS) / 10_000),
        currency: "EUR",
        countryCode: body.client.countryCode,
        request: body,
        token: crypto.randomUUID().replaceAll("-", ""),
        triggers: [...triggersOf(body.client.email)],
        createdAt: now,
        updatedAt: now,
        createdRealAt: new Date(this.clocks.real()),
        history: [{ status: "GENERATED", at: new Date(now).toISOString() }],
        refusedInstallments: [],
        financing: null,
        requestToken: null,
        travelEndDate: travelEndDate(body) ?? null,
      })
      .onConflictDoNothing({ target: [sandboxOperations.agencyId, sandboxOperations.externalId] })
      .returning();
    if (inserted[0]) return { operation: toOperation(inserted[0]), created: true };
    const existing = await this.findOne(
      db,
      and(eq(sandboxOperations.agencyId, caller.agencyId), eq(sandboxOperations.externalId, body.externalId!))!,
    );
    if (!existing) throw new Error("sandbox: an idempotent create found neither a new nor an existing operation");
    return { operation: existing, created: false };
  }

  /** The operation, if the caller's agency owns it: 404 when unknown, 403 when another account's. */
  async getOperation(caller: Caller, id: string): Promise<SandboxOperation> {
    const operation = await this.findOne(await this.db(), eq(sandboxOperations.id, id));
    if (!operation) throw operationNotFound(id);
    if (operation.agencyId !== caller.agencyId) {
      throw businessError(403, "OPERATION_ACCESS_DENIED", `Operation ${id} belongs to another account`);
    }
    return operation;
  }

  /** For the control API: the operation, if this sandbox account created it. */
  async getOperationOfAccount(account: string, id: string): Promise<SandboxOperation> {
    const operation = await this.findOne(await this.db(), eq(sandboxOperations.id, id));
    if (!operation) throw operationNotFound(id);
    if (operation.account !== account) {
      throw businessError(403, "OPERATION_ACCESS_DENIED", `Operation ${id} belongs to another sandbox account`);
    }
    return operation;
  }

  async getOperationByExternalId(caller: Caller, externalId: string): Promise<SandboxOperation> {
    const operation = await this.findOne(
      await this.db(),
      and(eq(sandboxOperations.agencyId, caller.agencyId), eq(sandboxOperations.externalId, externalId))!,
    );
    if (!operation) throw operationNotFound(externalId);
    return operation;
  }

  async listOperations(
    caller: Caller,
    query: { page: number; size: number; status?: OperationStatus; from?: string; to?: string },
  ): Promise<{ content: SandboxOperation[]; totalElements: number }> {
    const db = await this.db();
    const where = and(
      eq(sandboxOperations.agencyId, caller.agencyId),
      query.status === undefined ? undefined : eq(sandboxOperations.status, query.status),
      query.from === undefined ? undefined : gte(sandboxOperations.createdAt, Date.parse(`${query.from}T00:00:00Z`)),
      query.to === undefined ? undefined : lte(sandboxOperations.createdAt, Date.parse(`${query.to}T23:59:59.999Z`)),
    );
    const rows = await db
      .select()
      .from(sandboxOperations)
      .where(where)
      // Newest first; the operation number breaks ties within the same millisecond.
      .orderBy(desc(sandboxOperations.createdAt), desc(sandboxOperations.operationNumber))
      .limit(query.size)
      .offset(query.page * query.size);
    const [total] = await db.select({ n: count() }).from(sandboxOperations).where(where);
    return { content: rows.map((row) => toOperation(row)), totalElements: Number(total?.n ?? 0) };
  }

  /** Operations reached through a hosted page's token, not a key. */
  async operationByToken(id: string, token: string): Promise<SandboxOperation | undefined> {
    const operation = await this.findOne(await this.db(), eq(sandboxOperations.id, id));
    return operation && timingSafeEqual(operation.token, token) ? operation : undefined;
  }

  async operationByRequestToken(requestToken: string): Promise<SandboxOperation | undefined> {
    return this.findOne(await this.db(), eq(sandboxOperations.requestToken, requestToken));
  }

  private async findOne(db: SandboxDb, where: SQL): Promise<SandboxOperation | undefined> {
    const [row] = await db.select().from(sandboxOperations).where(where).limit(1);
    return row && toOperation(row);
  }

  /**
   * Changes one operation under its row lock, in a transaction: `change` runs on the operation as
   * stored now, and whatever it changed (status, history, financing) and the webhook events it
   * emitted are written together. A SandboxError thrown by `change` leaves everything as it was.
   * New events are delivered once committed.
   */
  private async mutate<T>(
    id: string,
    apply: (operation: SandboxOperation, change: Change) => T,
  ): Promise<{ operation: SandboxOperation; result: T }> {
    const db = await this.db();
    const outcome = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(sandboxOperations).where(eq(sandboxOperations.id, id)).for("update");
      if (!row) throw operationNotFound(id);
      const now = await this.clocks.now(tx, row.account);
      const operation = toOperation(row);
      const change: Change = { now, emitted: [] };
      const result = apply(operation, change);
      await tx
        .update(sandboxOperations)
        .set({
          status: operation.status,
          updatedAt: operation.updatedAt,
          history: operation.history,
          refusedInstallments: [...operation.refusedInstallments],
          financing: operation.financing ?? null,
          requestToken: operation.financing?.requestToken ?? null,
        })
        .where(eq(sandboxOperations.id, id));
      const eventIds: number[] = [];
      for (const status of change.emitted) {
        const eventId = await this.webhooks.record(tx, operation, status, now);
        if (eventId !== undefined) eventIds.push(eventId);
      }
      return { operation, result, eventIds, now };
    });
    if (outcome.eventIds.length > 0) {
      void this.track(this.webhooks.deliverEvents(outcome.eventIds, outcome.now));
    }
    return { operation: outcome.operation, result: outcome.result };
  }

  // -------------------------------------------------------------------------------------------
  // Offers and financing

  /** The offers this operation is eligible for now (refused installment counts removed). */
  offersFor(operation: SandboxOperation): SandboxOffer[] {
    if (operation.triggers.has("not_eligible") || !agencyHasProviders(operation.agencyId)) {
      throw businessError(422, "NOT_ELIGIBLE_FOR_FINANCING", `Operation ${operation.id} is not eligible for financing`);
    }
    return computeOffers(operation.agencyId, operation.countryCode, operation.totalPriceCents).filter(
      (offer) => !operation.refusedInstallments.has(offer.installments),
    );
  }

  /** The customer opened `financingUrl`. */
  async openFinancingPage(id: string): Promise<SandboxOperation> {
    const { operation } = await this.mutate(id, (op, change) => {
      if (op.status === "GENERATED") this.transition(op, "PENDING", change, "customer opened the financing page");
    });
    return operation;
  }

  async startFinancing(
    id: string,
    offerId: number,
    origin: string,
  ): Promise<{ operation: SandboxOperation; outcome: StartFinancingOutcome }> {
    const { operation, result } = await this.mutate(id, (op, change) => this.startFinancingOn(op, offerId, origin, change));
    return { operation, outcome: result };
  }

  private startFinancingOn(operation: SandboxOperation, offerId: number, origin: string, change: Change): StartFinancingOutcome {
    if (operation.status !== "GENERATED" && operation.status !== "PENDING") {
      throw businessError(409, "NOT_ACTIVE_OPERATION", `Operation ${operation.id} is ${operation.status}: financing cannot start`, {
        operationStatus: operation.status,
      });
    }
    const offers = operation.triggers.has("not_eligible") ? [] : this.offersFor(operation);
    const chosen = offers.find((offer) => offer.id === offerId);
    if (!chosen) {
      throw businessError(422, "NOT_ELIGIBLE_FINANCIAL_OFFER", `Offer ${offerId} is not available for operation ${operation.id}`);
    }
    const t = operation.triggers;

    if (t.has("error")) {
      this.transition(operation, "ERROR", change, "technical error while requesting financing");
      return { financingStatus: "ERROR", paymentUrl: null, hasAlternativeFinancialOffers: false };
    }
    if (t.has("refuse_all")) {
      this.transition(operation, "REFUSED", change, "every provider refused the customer");
      return { financingStatus: "REFUSED", paymentUrl: null, hasAlternativeFinancialOffers: false };
    }
    // Only the first count chosen is refused (+refuse_offer), or fails with a technical error
    // (+error_offer), so the customer can go on with an alternative.
    const failOffer = t.has("refuse_offer") ? "REFUSED" : t.has("error_offer") ? "ERROR" : undefined;
    if (failOffer && operation.refusedInstallments.size === 0) {
      operation.refusedInstallments.add(chosen.installments);
      operation.history.push({
        status: operation.status,
        at: new Date(change.now).toISOString(),
        note:
          failOffer === "REFUSED"
            ? `every provider refused ${chosen.installments} installments`
            : `technical error requesting ${chosen.installments} installments`,
      });
      const alternatives = offers.filter((offer) => !operation.refusedInstallments.has(offer.installments));
      if (alternatives.length === 0) {
        this.transition(operation, "REFUSED", change, "every provider refused the customer");
        return { financingStatus: "REFUSED", paymentUrl: null, hasAlternativeFinancialOffers: false };
      }
      return { financingStatus: failOffer, paymentUrl: null, hasAlternativeFinancialOffers: true };
    }

    let accepted = chosen;
    const refusedProviders: string[] = [];
    if (t.has("refuse_first")) {
      // The chosen provider refuses; the service moves on to another with the same installment count.
      refusedProviders.push(chosen.providerId);
      const next = alternativesWithSameInstallments(operation.agencyId, operation.countryCode, operation.totalPriceCents, chosen.id)[0];
      if (!next) {
        operation.refusedInstallments.add(chosen.installments);
        const left = offers.some((offer) => !operation.refusedInstallments.has(offer.installments));
        if (!left) this.transition(operation, "REFUSED", change, "every provider refused the customer");
        return { financingStatus: "REFUSED", paymentUrl: null, hasAlternativeFinancialOffers: left };
      }
      accepted = next;
    }

    const requestToken = crypto.randomUUID().replaceAll("-", "");
    operation.financing = { requestToken, offer: accepted, refusedProviders };
    const note =
      refusedProviders.length > 0
        ? `${chosen.companyName} refused; ${accepted.companyName} accepted ${accepted.installments} installments`
        : `${accepted.companyName} accepted ${accepted.installments} installments`;
    this.transition(operation, "CLIENT_REQUESTED", change, note);
    return { financingStatus: "REQUESTED", paymentUrl: `${origin}/sandbox/provider/checkout/${requestToken}` };
  }

  /** The customer signed at the provider checkout; the provider then decides (+decline refuses). */
  async sign(id: string): Promise<SandboxOperation> {
    const { operation } = await this.mutate(id, (op, change) => {
      if (op.status !== "CLIENT_REQUESTED") throw notAwaitingCustomer(op);
      this.transition(op, "PENDING_RESPONSE", change, "customer signed at the provider");
      this.decideOn(op, op.triggers.has("decline") ? "decline" : "approve", change);
    });
    return operation;
  }

  /** The customer declined to sign at the provider checkout. */
  async declineAtCheckout(id: string): Promise<SandboxOperation> {
    const { operation } = await this.mutate(id, (op, change) => {
      if (op.status !== "CLIENT_REQUESTED") throw notAwaitingCustomer(op);
      this.transition(op, "REFUSED", change, "customer declined at the provider checkout");
    });
    return operation;
  }

  /** The provider's decision on a live request (the control API). */
  async decide(id: string, decision: "approve" | "decline" | "error"): Promise<SandboxOperation> {
    const { operation } = await this.mutate(id, (op, change) => this.decideOn(op, decision, change));
    return operation;
  }

  private decideOn(operation: SandboxOperation, decision: "approve" | "decline" | "error", change: Change): void {
    if (operation.status !== "CLIENT_REQUESTED" && operation.status !== "PENDING_RESPONSE") {
      throw businessError(409, "NOT_ACTIVE_OPERATION", `Operation ${operation.id} has no pending provider request (${operation.status})`, {
        operationStatus: operation.status,
      });
    }
    if (decision === "approve") {
      this.transition(operation, "FAVORABLE", change, "provider approved");
      this.transition(operation, "CONFIRMED", change, "financing confirmed");
    } else if (decision === "decline") {
      this.transition(operation, "REFUSED", change, "provider declined");
    } else {
      this.transition(operation, "ERROR", change, "technical error at the provider");
    }
  }

  // -------------------------------------------------------------------------------------------
  // Cancel and refund

  async cancel(id: string, reason: string | undefined): Promise<SandboxOperation> {
    const { operation } = await this.mutate(id, (op, change) => {
      if (!["GENERATED", "PENDING", "ERROR"].includes(op.status)) {
        throw businessError(400, "OPERATION_NOT_CANCELLABLE", `Operation ${op.id} cannot be cancelled in status ${op.status}`, {
          operationStatus: op.status,
        });
      }
      this.transition(op, "CANCELLED", change, reason ? `cancelled: ${reason}` : "cancelled");
    });
    return operation;
  }

  refundBreakdown(operation: SandboxOperation, extraFeesCents = 0) {
    if (operation.status !== "CONFIRMED") {
      throw businessError(
        400,
        "OPERATION_NOT_REFUNDABLE",
        `Operation ${operation.id} is ${operation.status}: only CONFIRMED operations are refunded`,
        {
          operationStatus: operation.status,
        },
      );
    }
    const totalReserve = operation.totalPriceCents + operation.managementFeeCents;
    const cancellationFee = Math.round((operation.totalPriceCents * CANCELLATION_FEE_BPS) / 10_000);
    return {
      operationId: operation.id,
      totalReserveCents: totalReserve,
      managementFeesCents: operation.managementFeeCents,
      cancellationFeeCents: cancellationFee,
      cancellationFeePercentage: CANCELLATION_FEE_BPS / 100,
      totalToRefundCents: totalReserve - operation.managementFeeCents - cancellationFee - extraFeesCents,
    };
  }

  async refund(id: string, fees: { agencyCents: number; providerCents: number }, reason: string | undefined) {
    const { operation, result } = await this.mutate(id, (op, change) => {
      const breakdown = this.refundBreakdown(op, fees.agencyCents + fees.providerCents);
      if (breakdown.totalToRefundCents < 0) {
        throw validationError([{ field: "agencyCancellationFee", message: "the cancellation fees exceed what can be refunded" }]);
      }
      if (op.triggers.has("refund_reject")) {
        // Nothing changes and no charge is recorded.
        throw businessError(422, "OPERATION_NOT_REFUNDABLE", `The provider rejected the refund of operation ${op.id}`);
      }
      this.transition(op, "REFUNDED", change, reason ? `refunded: ${reason}` : "refunded");
      return breakdown;
    });
    return { operation, breakdown: result };
  }

  // -------------------------------------------------------------------------------------------
  // Webhooks (their delivery: webhook-delivery.ts)

  async eventsOf(operationId: string): Promise<WebhookEventRecord[]> {
    return this.webhooks.eventsOf(operationId);
  }

  /**
   * PUT /operations/webhook-events/ack. The spec names six errors without their conditions; ours:
   * unknown operation 404 OPERATION_NOT_FOUND; another account's 403 OPERATION_ACCESS_DENIED;
   * unknown event 404 WEBHOOK_EVENT_NOT_FOUND; event of another operation 403
   * WEBHOOK_EVENT_OPERATION_MISMATCH; status other than the event's 409 WEBHOOK_EVENT_STATUS_MISMATCH;
   * an event superseded by a newer one of its operation 409 WEBHOOK_EVENT_NOT_ACKNOWLEDGEABLE.
   * Acknowledging an acknowledged event again is a success: the ack is safe to repeat.
   */
  async acknowledge(caller: Caller, ack: WebhookAck): Promise<void> {
    await this.getOperation(caller, ack.operationIdentifier);
    await this.webhooks.acknowledge(ack);
  }

  /** Delivers every unacknowledged, current event of the account now (control API). */
  async redeliverAll(account: string): Promise<number> {
    return this.webhooks.deliverAll(account, await this.now(account));
  }

  // -------------------------------------------------------------------------------------------

  private transition(operation: SandboxOperation, to: OperationStatus, change: Change, note?: string): void {
    if (FINAL.includes(operation.status)) {
      // A final status never moves (REFUNDED and FINISHED leave CONFIRMED, which is not final here).
      throw new Error(`sandbox: ${operation.id} is ${operation.status}, cannot become ${to}`);
    }
    operation.status = to;
    operation.updatedAt = change.now;
    operation.history.push({ status: to, at: new Date(change.now).toISOString(), ...(note ? { note } : {}) });
    if ((WEBHOOK_STATUSES as readonly string[]).includes(to)) change.emitted.push(to as WebhookStatus);
  }
}

function notAwaitingCustomer(operation: SandboxOperation): SandboxError {
  return businessError(409, "NOT_ACTIVE_OPERATION", `Operation ${operation.id} is ${operation.status}`, {
    operationStatus: operation.status,
  });
}

/** An operation a timer meant to change was purged or reset meanwhile: nothing to do. */
function ignoreVanished(error: unknown): void {
  if (error instanceof SandboxError && error.status === 404) return;
  throw error;
}

function toOperation(row: SandboxOperationRow): SandboxOperation {
  return {
    id: row.id,
    operationNumber: row.operationNumber,
    account: row.account,
    agencyId: row.agencyId,
    externalId: row.externalId,
    status: row.status as OperationStatus,
    totalPriceCents: row.totalPriceCents,
    managementFeeCents: row.managementFeeCents,
    currency: row.currency,
    countryCode: row.countryCode,
    request: row.request,
    token: row.token,
    triggers: new Set(row.triggers.filter((t): t is Trigger => (TRIGGERS as readonly string[]).includes(t))),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    history: row.history,
    refusedInstallments: new Set(row.refusedInstallments),
    ...(row.financing ? { financing: row.financing } : {}),
    travelEndDate: row.travelEndDate ?? undefined,
  };
}

/** `ana+refuse_first@example.com` -> {refuse_first}; several tags may be joined: `ana+decline+refund_reject@…`. */
export function triggersOf(email: string): ReadonlySet<Trigger> {
  const local = email.split("@")[0] ?? "";
  const tags = local.split("+").slice(1);
  return new Set(tags.filter((tag): tag is Trigger => (TRIGGERS as readonly string[]).includes(tag)));
}

const BODY_DATE = /^(\d{2})-(\d{2})-(\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/**
 * The trip's last day (yyyy-MM-dd): the latest date found among the items' fields, whatever their
 * names (items are free-form: `returnDate`, `checkOutDate`, `checkOut`…), in the body's dd-MM-yyyy
 * or as an ISO date. Undefined when no item carries a date: such a trip never becomes FINISHED.
 */
export function travelEndDate(body: WireCreateOperationRequest): string | undefined {
  const items: unknown[] = [...(body.flights ?? []), ...(body.hotels ?? []), ...(body.services ?? [])];
  const dates: string[] = [];
  for (const item of items) {
    if (item === null || typeof item !== "object") continue;
    for (const value of Object.values(item)) {
      if (typeof value !== "string") continue;
      const body = BODY_DATE.exec(value);
      const iso = ISO_DATE.exec(value);
      const date = body ? `${body[3]}-${body[2]}-${body[1]}` : iso ? `${iso[1]}-${iso[2]}-${iso[3]}` : undefined;
      if (date && !Number.isNaN(Date.parse(`${date}T00:00:00Z`))) dates.push(date);
    }
  }
  return dates.length > 0 ? dates.sort().at(-1) : undefined;
}

function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
