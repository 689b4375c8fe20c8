import "server-only";
import type { OperationStatus, WireCreateOperationRequest } from "@/lib/financing/contract";
import { ACCOUNTS, findKey, type SandboxKey } from "./accounts";
import { authenticate } from "./authentication";
import { DEFAULT_RETENTION_DAYS } from "./config";
import type { SandboxDatabase, SandboxDb } from "./db/connection";
import { businessError, operationNotFound, SandboxError } from "./errors";
import type { SandboxOffer } from "./offers";
import { AccountClocks } from "./clock";
import type { Caller, Change, SandboxOperation, StartFinancingOutcome } from "./operation";
import {
  byExternalId,
  byId,
  byRequestToken,
  deleteOperationsOf,
  dueOperations,
  ensureAccount,
  findOperation,
  insertOperation,
  listOperationsOf,
  lockOperation,
  purgeCreatedBefore,
  saveOperation,
} from "./operation-store";
import {
  cancelOn,
  declineAtCheckoutOn,
  decideOn,
  expireIfDue,
  finishIfDue,
  offersFor,
  refundBreakdown,
  refundOn,
  signOn,
  startFinancingOn,
  transition,
} from "./transitions";
import { WebhookDelivery, type WebhookAck, type WebhookDeliveryOptions, type WebhookEventRecord } from "./webhook-delivery";

/**
 * The sandbox's service: who calls (authentication), what they may see, the per-account test
 * clocks, and every change to an operation made under its row lock with the webhooks it emits.
 * The operation model is `operation.ts`, its state machine and triggers `transitions.ts`, its
 * queries `operation-store.ts`, webhook delivery `webhook-delivery.ts`. HTTP lives in `api.ts`,
 * `control.ts` and `pages.ts`; this module never sees a Request.
 *
 * State is in the database (`db/schema.ts`), so a restart loses nothing and several processes on
 * one PostgreSQL can serve the same sandbox: a change to an operation runs in a transaction that
 * holds the operation's row lock; creation is idempotent through a unique index (INSERT … ON
 * CONFLICT); a webhook delivery is claimed with a conditional UPDATE before it goes out, so two
 * processes never send the same attempt. Nothing kept in this object matters beyond a request,
 * except the deliveries in flight that `idle()` waits for.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

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
    const { expiring, finishing } = await dueOperations(db, account, now);
    // Each re-checked under its row lock: another process's tick may have got there first.
    for (const id of expiring) await this.mutate(id, expireIfDue).catch(ignoreVanished);
    for (const id of finishing) await this.mutate(id, finishIfDue).catch(ignoreVanished);
    await this.webhooks.deliverDue(account, now);
  }

  /** Deletes operations (and their events) created more than `retentionDays` ago, by the wall clock. */
  async purgeExpired(): Promise<number> {
    return purgeCreatedBefore(await this.db(), new Date(this.clocks.real() - this.retentionDays * DAY_MS));
  }

  /** Forgets the account's operations, events and faults, and puts its clock back; others' stay. */
  async reset(account: string): Promise<void> {
    await this.idle();
    const db = await this.db();
    await db.transaction(async (tx) => {
      await deleteOperationsOf(tx, account);
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
    // fk_live_ keys belong to production: valid only in the production-like mode, where fk_test_ keys are not.
    return findKey(apiKey.trim(), this.productionLike);
  }

  /** The caller a request's key and agency headers name: 401 without a valid key, 403/400 for a wrong agency. */
  authenticate(apiKey: string | null, agencyHeader: string | null, options: { agencyExempt?: boolean } = {}): Caller {
    return authenticate(apiKey === null ? undefined : this.keyOf(apiKey), apiKey, agencyHeader, options, this.clocks.real);
  }

  // -------------------------------------------------------------------------------------------
  // Operations

  async createOperation(caller: Caller, body: WireCreateOperationRequest): Promise<{ operation: SandboxOperation; created: boolean }> {
    const db = await this.db();
    await ensureAccount(db, caller.account);
    const now = await this.clocks.now(db, caller.account);
    return insertOperation(db, caller, body, now, this.clocks.real());
  }

  /** The operation, if the caller's agency owns it: 404 when unknown, 403 when another account's. */
  async getOperation(caller: Caller, id: string): Promise<SandboxOperation> {
    const operation = await findOperation(await this.db(), byId(id));
    if (!operation) throw operationNotFound(id);
    if (operation.agencyId !== caller.agencyId) {
      throw businessError(403, "OPERATION_ACCESS_DENIED", `Operation ${id} belongs to another account`);
    }
    return operation;
  }

  /** For the control API: the operation, if this sandbox account created it. */
  async getOperationOfAccount(account: string, id: string): Promise<SandboxOperation> {
    const operation = await findOperation(await this.db(), byId(id));
    if (!operation) throw operationNotFound(id);
    if (operation.account !== account) {
      throw businessError(403, "OPERATION_ACCESS_DENIED", `Operation ${id} belongs to another sandbox account`);
    }
    return operation;
  }

  async getOperationByExternalId(caller: Caller, externalId: string): Promise<SandboxOperation> {
    const operation = await findOperation(await this.db(), byExternalId(caller.agencyId, externalId));
    if (!operation) throw operationNotFound(externalId);
    return operation;
  }

  async listOperations(
    caller: Caller,
    query: { page: number; size: number; status?: OperationStatus; from?: string; to?: string },
  ): Promise<{ content: SandboxOperation[]; totalElements: number }> {
    return listOperationsOf(await this.db(), caller.agencyId, query);
  }

  /** Operations reached through a hosted page's token, not a key. */
  async operationByToken(id: string, token: string): Promise<SandboxOperation | undefined> {
    const operation = await findOperation(await this.db(), byId(id));
    return operation && timingSafeEqual(operation.token, token) ? operation : undefined;
  }

  async operationByRequestToken(requestToken: string): Promise<SandboxOperation | undefined> {
    return findOperation(await this.db(), byRequestToken(requestToken));
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
      const operation = await lockOperation(tx, id);
      const now = await this.clocks.now(tx, operation.account);
      const change: Change = { now, emitted: [] };
      const result = apply(operation, change);
      await saveOperation(tx, operation);
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
  // Offers, financing, cancel and refund (the rules: transitions.ts)

  /** The offers this operation is eligible for now (refused installment counts removed). */
  offersFor(operation: SandboxOperation): SandboxOffer[] {
    return offersFor(operation);
  }

  /** The customer opened `financingUrl`. */
  async openFinancingPage(id: string): Promise<SandboxOperation> {
    const { operation } = await this.mutate(id, (op, change) => {
      if (op.status === "GENERATED") transition(op, "PENDING", change, "customer opened the financing page");
    });
    return operation;
  }

  async startFinancing(
    id: string,
    offerId: number,
    origin: string,
  ): Promise<{ operation: SandboxOperation; outcome: StartFinancingOutcome }> {
    const { operation, result } = await this.mutate(id, (op, change) => startFinancingOn(op, offerId, origin, change));
    return { operation, outcome: result };
  }

  /** The customer signed at the provider checkout; the provider then decides (+decline refuses). */
  async sign(id: string): Promise<SandboxOperation> {
    return (await this.mutate(id, signOn)).operation;
  }

  /** The customer declined to sign at the provider checkout. */
  async declineAtCheckout(id: string): Promise<SandboxOperation> {
    return (await this.mutate(id, declineAtCheckoutOn)).operation;
  }

  /** The provider's decision on a live request (the control API). */
  async decide(id: string, decision: "approve" | "decline" | "error"): Promise<SandboxOperation> {
    const { operation } = await this.mutate(id, (op, change) => decideOn(op, decision, change));
    return operation;
  }

  async cancel(id: string, reason: string | undefined): Promise<SandboxOperation> {
    const { operation } = await this.mutate(id, (op, change) => cancelOn(op, reason, change));
    return operation;
  }

  refundBreakdown(operation: SandboxOperation, extraFeesCents = 0): ReturnType<typeof refundBreakdown> {
    return refundBreakdown(operation, extraFeesCents);
  }

  async refund(id: string, fees: { agencyCents: number; providerCents: number }, reason: string | undefined) {
    const { operation, result } = await this.mutate(id, (op, change) => refundOn(op, fees, reason, change));
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
}

/** An operation a timer meant to change was purged or reset meanwhile: nothing to do. */
function ignoreVanished(error: unknown): void {
  if (error instanceof SandboxError && error.status === 404) return;
  throw error;
}

function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
