import type { OperationStatus, WebhookStatus, WireCreateOperationRequest } from "@/lib/financing/contract";
import { WEBHOOK_STATUSES } from "@/lib/financing/contract";
import { findAgency, findKey, type SandboxKey } from "./accounts";
import { authError, businessError, generalError, operationNotFound, SandboxError, validationError } from "./errors";
import { agencyHasProviders, alternativesWithSameInstallments, computeOffers, type SandboxOffer } from "./offers";

/**
 * The sandbox's state and rules: operations, the state machine of design.md §6, the e-mail-tag
 * triggers, the test clock, webhooks and their redelivery. HTTP lives in `api.ts`, `control.ts` and
 * `pages.ts`; this module never sees a Request.
 *
 * Everything is in memory and single-threaded: a check and the write that follows it run with no
 * `await` between them, which is what makes creation idempotent under concurrent requests.
 */

export const TRIGGERS = [
  "refuse_first",
  "refuse_offer",
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

/** Delay before each redelivery of an unacknowledged webhook: 1 min, 5 min, 15 min, 1 h, 6 h, 24 h. */
export const REDELIVERY_SCHEDULE_SECONDS = [60, 300, 900, 3_600, 21_600, 86_400] as const;

/** Fees of the refund breakdown, in basis points of the trip price. */
export const MANAGEMENT_FEE_BPS = 150; // 1.5 %, charged on top of the price (totalReserve) and not refunded
export const CANCELLATION_FEE_BPS = 200; // 2 %, the service's own cancellation fee

export interface Caller {
  key: SandboxKey;
  /** The agency this call acts for: the key's own, or the group key's agency header. */
  agencyId: number;
}

export interface HistoryEntry {
  status: OperationStatus;
  at: string;
  note?: string;
}

export interface SandboxOperation {
  id: string;
  operationNumber: number;
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

export interface WebhookAttempt {
  at: string;
  status?: number;
  error?: string;
}

export interface WebhookEventRecord {
  eventId: number;
  operationId: string;
  status: WebhookStatus;
  url: string;
  createdAt: number;
  attempts: WebhookAttempt[];
  acknowledged: boolean;
  /** A newer event of the same operation replaced it: no more redeliveries, and no ack. */
  supersededBy?: number;
  /** When the next delivery is due (test clock); undefined when none is. */
  nextAttemptAt?: number;
}

export type StartFinancingOutcome =
  | { financingStatus: "REQUESTED"; paymentUrl: string }
  | { financingStatus: "REFUSED" | "ERROR"; paymentUrl: null; hasAlternativeFinancialOffers: boolean };

export interface SandboxEngineOptions {
  /** Delivers webhooks; the global fetch by default. */
  fetch?: typeof fetch;
  /** The real clock under the test clock. */
  realNow?: () => number;
  webhookTimeoutMs?: number;
}

export class SandboxEngine {
  private operations = new Map<string, SandboxOperation>();
  private byExternalId = new Map<string, string>();
  private byRequestToken = new Map<string, string>();
  private events = new Map<number, WebhookEventRecord>();
  private offsetMs = 0;
  private nextOperationNumber = 1;
  private nextEventId = 1;
  private deliveries = new Set<Promise<void>>();
  private readonly doFetch: typeof fetch;
  private readonly realNow: () => number;
  private readonly webhookTimeoutMs: number;

  constructor(options: SandboxEngineOptions = {}) {
    this.doFetch = options.fetch ?? ((...args) => globalThis.fetch(...args));
    this.realNow = options.realNow ?? Date.now;
    this.webhookTimeoutMs = options.webhookTimeoutMs ?? 5_000;
  }

  // -------------------------------------------------------------------------------------------
  // Clock

  /** The test clock: real time plus whatever QA advanced it by. */
  now(): number {
    return this.realNow() + this.offsetMs;
  }

  clockOffsetSeconds(): number {
    return Math.round(this.offsetMs / 1000);
  }

  /** Moves the test clock; expirations, finished trips and due redeliveries happen. */
  async advance(seconds: number): Promise<void> {
    this.offsetMs += seconds * 1000;
    await this.tick();
  }

  /** Applies what time has made due. Called on clock moves and by the app's periodic timer. */
  async tick(): Promise<void> {
    const now = this.now();
    for (const op of this.operations.values()) {
      if (EXPIRABLE.includes(op.status) && now - op.createdAt >= EXPIRY_SECONDS * 1000) {
        this.transition(op, "EXPIRED", "time limit passed");
      } else if (op.status === "CONFIRMED" && op.travelEndDate && now >= Date.parse(`${op.travelEndDate}T23:59:59Z`)) {
        this.transition(op, "FINISHED", "travel date passed");
      }
    }
    const due = [...this.events.values()].filter((e) => e.nextAttemptAt !== undefined && e.nextAttemptAt <= now);
    await Promise.all(due.map((event) => this.deliver(event)));
  }

  reset(): void {
    this.operations.clear();
    this.byExternalId.clear();
    this.byRequestToken.clear();
    this.events.clear();
    this.offsetMs = 0;
    this.nextOperationNumber = 1;
    this.nextEventId = 1;
  }

  /** Resolves when no webhook delivery is in flight (tests, and the control API's answers). */
  async idle(): Promise<void> {
    while (this.deliveries.size > 0) await Promise.allSettled([...this.deliveries]);
  }

  // -------------------------------------------------------------------------------------------
  // Authentication

  authenticate(apiKey: string | null, agencyHeader: string | null, options: { agencyExempt?: boolean } = {}): Caller {
    if (apiKey === null || apiKey.trim() === "") throw authError("Missing API key");
    const key = findKey(apiKey.trim());
    // fk_live_ keys belong to production: never valid here.
    if (!key) throw authError("Invalid API key");
    if (key.kind === "agency") {
      const agencyId = key.agencyIds[0]!;
      if (agencyHeader !== null && agencyHeader.trim() !== String(agencyId)) {
        throw generalError(403, "Forbidden", "An agency key acts for its own agency only", this.now());
      }
      return { key, agencyId };
    }
    if (options.agencyExempt) return { key, agencyId: 0 };
    if (agencyHeader === null || agencyHeader.trim() === "") {
      throw validationError([{ field: "X-Service-Agency", message: "is required with a management group key" }]);
    }
    if (!/^\d+$/.test(agencyHeader.trim())) {
      throw validationError([{ field: "X-Service-Agency", message: "must be an agency id" }]);
    }
    const agencyId = Number(agencyHeader.trim());
    const agency = findAgency(agencyId);
    if (!agency || !agency.active || !key.agencyIds.includes(agencyId)) {
      throw generalError(403, "Forbidden", `Agency ${agencyId} is not an active agency of this group`, this.now());
    }
    return { key, agencyId };
  }

  // -------------------------------------------------------------------------------------------
  // Operations

  createOperation(caller: Caller, body: WireCreateOperationRequest): { operation: SandboxOperation; created: boolean } {
    const idempotencyKey = body.externalId === undefined ? undefined : `${caller.agencyId}:${body.externalId}`;
    const existingId = idempotencyKey && this.byExternalId.get(idempotencyKey);
    if (existingId) return { operation: this.operations.get(existingId)!, created: false };

    const now = this.now();
    const totalPriceCents = Math.round((body.totalPrice ?? 0) * 100);
    const operation: SandboxOperation = {
      id: `op_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`,
      operationNumber: this.nextOperationNumber++,
      agencyId: caller.agencyId,
      externalId: body.externalId ?? null,
      status: "GENERATED",
      totalPriceCents,
      managementFeeCents: Math.round((totalPriceCents * MANAGEMENT_FEE_BPS) / 10_000),
      currency: "EUR",
      countryCode: body.client.countryCode,
      request: body,
      token: crypto.randomUUID().replaceAll("-", ""),
      triggers: triggersOf(body.client.email),
      createdAt: now,
      updatedAt: now,
      history: [{ status: "GENERATED", at: new Date(now).toISOString() }],
      refusedInstallments: new Set(),
      travelEndDate: travelEndDate(body),
    };
    this.operations.set(operation.id, operation);
    if (idempotencyKey) this.byExternalId.set(idempotencyKey, operation.id);
    return { operation, created: true };
  }

  /** The operation, if the caller's agency owns it: 404 when unknown, 403 when another account's. */
  getOperation(caller: Caller, id: string): SandboxOperation {
    const operation = this.operations.get(id);
    if (!operation) throw operationNotFound(id);
    if (operation.agencyId !== caller.agencyId) {
      throw businessError(403, "OPERATION_ACCESS_DENIED", `Operation ${id} belongs to another account`);
    }
    return operation;
  }

  getOperationByExternalId(caller: Caller, externalId: string): SandboxOperation {
    const id = this.byExternalId.get(`${caller.agencyId}:${externalId}`);
    if (!id) throw operationNotFound(externalId);
    return this.operations.get(id)!;
  }

  listOperations(
    caller: Caller,
    query: { page: number; size: number; status?: OperationStatus; from?: string; to?: string },
  ): { content: SandboxOperation[]; totalElements: number } {
    const fromMs = query.from ? Date.parse(`${query.from}T00:00:00Z`) : -Infinity;
    const toMs = query.to ? Date.parse(`${query.to}T23:59:59.999Z`) : Infinity;
    const matching = [...this.operations.values()]
      .filter((op) => op.agencyId === caller.agencyId)
      .filter((op) => query.status === undefined || op.status === query.status)
      .filter((op) => op.createdAt >= fromMs && op.createdAt <= toMs)
      // Newest first; the operation number breaks ties within the same millisecond.
      .sort((a, b) => b.createdAt - a.createdAt || b.operationNumber - a.operationNumber);
    const start = query.page * query.size;
    return { content: matching.slice(start, start + query.size), totalElements: matching.length };
  }

  /** Operations reached through a hosted page's token, not a key. */
  operationByToken(id: string, token: string): SandboxOperation | undefined {
    const operation = this.operations.get(id);
    return operation && timingSafeEqual(operation.token, token) ? operation : undefined;
  }

  operationByRequestToken(requestToken: string): SandboxOperation | undefined {
    const id = this.byRequestToken.get(requestToken);
    return id ? this.operations.get(id) : undefined;
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
  openFinancingPage(operation: SandboxOperation): void {
    if (operation.status === "GENERATED") this.transition(operation, "PENDING", "customer opened the financing page");
  }

  startFinancing(operation: SandboxOperation, offerId: number, origin: string): StartFinancingOutcome {
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
      this.transition(operation, "ERROR", "technical error while requesting financing");
      return { financingStatus: "ERROR", paymentUrl: null, hasAlternativeFinancialOffers: false };
    }
    if (t.has("refuse_all")) {
      this.transition(operation, "REFUSED", "every provider refused the customer");
      return { financingStatus: "REFUSED", paymentUrl: null, hasAlternativeFinancialOffers: false };
    }
    // Only the first count chosen is refused, so the customer can go on with an alternative.
    if (t.has("refuse_offer") && operation.refusedInstallments.size === 0) {
      operation.refusedInstallments.add(chosen.installments);
      operation.history.push({
        status: operation.status,
        at: new Date(this.now()).toISOString(),
        note: `every provider refused ${chosen.installments} installments`,
      });
      const alternatives = offers.filter((offer) => !operation.refusedInstallments.has(offer.installments));
      if (alternatives.length === 0) {
        this.transition(operation, "REFUSED", "every provider refused the customer");
        return { financingStatus: "REFUSED", paymentUrl: null, hasAlternativeFinancialOffers: false };
      }
      return { financingStatus: "REFUSED", paymentUrl: null, hasAlternativeFinancialOffers: true };
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
        if (!left) this.transition(operation, "REFUSED", "every provider refused the customer");
        return { financingStatus: "REFUSED", paymentUrl: null, hasAlternativeFinancialOffers: left };
      }
      accepted = next;
    }

    const requestToken = crypto.randomUUID().replaceAll("-", "");
    operation.financing = { requestToken, offer: accepted, refusedProviders };
    this.byRequestToken.set(requestToken, operation.id);
    const note =
      refusedProviders.length > 0
        ? `${chosen.companyName} refused; ${accepted.companyName} accepted ${accepted.installments} installments`
        : `${accepted.companyName} accepted ${accepted.installments} installments`;
    this.transition(operation, "CLIENT_REQUESTED", note);
    return { financingStatus: "REQUESTED", paymentUrl: `${origin}/sandbox/provider/checkout/${requestToken}` };
  }

  /** The customer signed at the provider checkout; the provider then decides (+decline refuses). */
  sign(operation: SandboxOperation): void {
    if (operation.status !== "CLIENT_REQUESTED") throw this.notAwaitingCustomer(operation);
    this.transition(operation, "PENDING_RESPONSE", "customer signed at the provider");
    this.decide(operation, operation.triggers.has("decline") ? "decline" : "approve");
  }

  /** The customer declined to sign at the provider checkout. */
  declineAtCheckout(operation: SandboxOperation): void {
    if (operation.status !== "CLIENT_REQUESTED") throw this.notAwaitingCustomer(operation);
    this.transition(operation, "REFUSED", "customer declined at the provider checkout");
  }

  /** The provider's decision on a live request (the checkout's sign, or the control API). */
  decide(operation: SandboxOperation, decision: "approve" | "decline" | "error"): void {
    if (operation.status !== "CLIENT_REQUESTED" && operation.status !== "PENDING_RESPONSE") {
      throw businessError(409, "NOT_ACTIVE_OPERATION", `Operation ${operation.id} has no pending provider request (${operation.status})`, {
        operationStatus: operation.status,
      });
    }
    if (decision === "approve") {
      this.transition(operation, "FAVORABLE", "provider approved");
      this.transition(operation, "CONFIRMED", "financing confirmed");
    } else if (decision === "decline") {
      this.transition(operation, "REFUSED", "provider declined");
    } else {
      this.transition(operation, "ERROR", "technical error at the provider");
    }
  }

  private notAwaitingCustomer(operation: SandboxOperation): SandboxError {
    return businessError(409, "NOT_ACTIVE_OPERATION", `Operation ${operation.id} is ${operation.status}`, {
      operationStatus: operation.status,
    });
  }

  // -------------------------------------------------------------------------------------------
  // Cancel and refund

  cancel(operation: SandboxOperation, reason: string | undefined): void {
    if (!["GENERATED", "PENDING", "ERROR"].includes(operation.status)) {
      throw businessError(400, "OPERATION_NOT_CANCELLABLE", `Operation ${operation.id} cannot be cancelled in status ${operation.status}`, {
        operationStatus: operation.status,
      });
    }
    this.transition(operation, "CANCELLED", reason ? `cancelled: ${reason}` : "cancelled");
  }

  refundBreakdown(operation: SandboxOperation, extraFeesCents = 0) {
    if (operation.status !== "CONFIRMED") {
      throw businessError(400, "OPERATION_NOT_REFUNDABLE", `Operation ${operation.id} is ${operation.status}: only CONFIRMED operations are refunded`, {
        operationStatus: operation.status,
      });
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

  refund(operation: SandboxOperation, fees: { agencyCents: number; providerCents: number }, reason: string | undefined) {
    const breakdown = this.refundBreakdown(operation, fees.agencyCents + fees.providerCents);
    if (breakdown.totalToRefundCents < 0) {
      throw validationError([{ field: "agencyCancellationFee", message: "the cancellation fees exceed what can be refunded" }]);
    }
    if (operation.triggers.has("refund_reject")) {
      // Nothing changes and no charge is recorded.
      throw businessError(422, "OPERATION_NOT_REFUNDABLE", `The provider rejected the refund of operation ${operation.id}`);
    }
    this.transition(operation, "REFUNDED", reason ? `refunded: ${reason}` : "refunded");
    return breakdown;
  }

  // -------------------------------------------------------------------------------------------
  // Webhooks

  eventsOf(operationId: string): WebhookEventRecord[] {
    return [...this.events.values()].filter((e) => e.operationId === operationId);
  }

  /**
   * PUT /operations/webhook-events/ack. The spec names six errors without their conditions; ours:
   * unknown operation 404 OPERATION_NOT_FOUND; another account's 403 OPERATION_ACCESS_DENIED;
   * unknown event 404 WEBHOOK_EVENT_NOT_FOUND; event of another operation 403
   * WEBHOOK_EVENT_OPERATION_MISMATCH; status other than the event's 409 WEBHOOK_EVENT_STATUS_MISMATCH;
   * an event superseded by a newer one of its operation 409 WEBHOOK_EVENT_NOT_ACKNOWLEDGEABLE.
   * Acknowledging an acknowledged event again is a success: the ack is safe to repeat.
   */
  acknowledge(caller: Caller, ack: { operationIdentifier: string; operationStatus: WebhookStatus; eventId: number }): void {
    this.getOperation(caller, ack.operationIdentifier);
    const event = this.events.get(ack.eventId);
    if (!event) throw businessError(404, "WEBHOOK_EVENT_NOT_FOUND", `Webhook event ${ack.eventId} not found`);
    if (event.operationId !== ack.operationIdentifier) {
      throw businessError(403, "WEBHOOK_EVENT_OPERATION_MISMATCH", `Webhook event ${ack.eventId} is not an event of operation ${ack.operationIdentifier}`);
    }
    if (event.status !== ack.operationStatus) {
      throw businessError(409, "WEBHOOK_EVENT_STATUS_MISMATCH", `Webhook event ${ack.eventId} carried ${event.status}, not ${ack.operationStatus}`, {
        eventStatus: event.status,
      });
    }
    if (event.acknowledged) return;
    if (event.supersededBy !== undefined) {
      throw businessError(409, "WEBHOOK_EVENT_NOT_ACKNOWLEDGEABLE", `Webhook event ${ack.eventId} was superseded by event ${event.supersededBy}`, {
        supersededBy: event.supersededBy,
      });
    }
    event.acknowledged = true;
    event.nextAttemptAt = undefined;
  }

  /** Delivers every unacknowledged, current event now (control API). */
  async redeliverAll(): Promise<number> {
    const pending = [...this.events.values()].filter((e) => !e.acknowledged && e.supersededBy === undefined);
    await Promise.all(pending.map((event) => this.deliver(event)));
    return pending.length;
  }

  private emit(operation: SandboxOperation, status: WebhookStatus): void {
    const url = operation.request.webhookUrl;
    if (!url) return;
    const eventId = this.nextEventId++;
    for (const older of this.events.values()) {
      if (older.operationId === operation.id && !older.acknowledged && older.supersededBy === undefined) {
        older.supersededBy = eventId;
        older.nextAttemptAt = undefined;
      }
    }
    const event: WebhookEventRecord = {
      eventId,
      operationId: operation.id,
      status,
      url,
      createdAt: this.now(),
      attempts: [],
      acknowledged: false,
      nextAttemptAt: this.now(),
    };
    this.events.set(eventId, event);
    void this.deliver(event);
  }

  private deliver(event: WebhookEventRecord): Promise<void> {
    const attempt = this.attemptDelivery(event);
    this.deliveries.add(attempt);
    void attempt.finally(() => this.deliveries.delete(attempt));
    return attempt;
  }

  private async attemptDelivery(event: WebhookEventRecord): Promise<void> {
    // Claim the slot first, so a tick that runs while this delivery is in flight doesn't repeat it.
    const attemptNumber = event.attempts.length;
    const delay = REDELIVERY_SCHEDULE_SECONDS[attemptNumber];
    event.nextAttemptAt = delay === undefined ? undefined : this.now() + delay * 1000;
    const record: WebhookAttempt = { at: new Date(this.now()).toISOString() };
    event.attempts.push(record);
    try {
      const response = await this.doFetch(event.url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "User-Agent": "travel-financing-sandbox/1" },
        body: JSON.stringify({ operationIdentifier: event.operationId, operationStatus: event.status, eventId: event.eventId }),
        signal: AbortSignal.timeout(this.webhookTimeoutMs),
        redirect: "manual",
      });
      record.status = response.status;
      await response.body?.cancel();
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
    }
    // Acknowledged or superseded while in flight: nothing more is due.
    if (event.acknowledged || event.supersededBy !== undefined) event.nextAttemptAt = undefined;
  }

  // -------------------------------------------------------------------------------------------

  private transition(operation: SandboxOperation, to: OperationStatus, note?: string): void {
    if (FINAL.includes(operation.status)) {
      // A final status never moves (REFUNDED and FINISHED leave CONFIRMED, which is not final here).
      throw new Error(`sandbox: ${operation.id} is ${operation.status}, cannot become ${to}`);
    }
    const now = this.now();
    operation.status = to;
    operation.updatedAt = now;
    operation.history.push({ status: to, at: new Date(now).toISOString(), ...(note ? { note } : {}) });
    if ((WEBHOOK_STATUSES as readonly string[]).includes(to)) this.emit(operation, to as WebhookStatus);
  }
}

/** `ana+refuse_first@example.com` -> {refuse_first}; several tags may be joined: `ana+decline+refund_reject@…`. */
export function triggersOf(email: string): ReadonlySet<Trigger> {
  const local = email.split("@")[0] ?? "";
  const tags = local.split("+").slice(1);
  return new Set(tags.filter((tag): tag is Trigger => (TRIGGERS as readonly string[]).includes(tag)));
}

function travelEndDate(body: WireCreateOperationRequest): string | undefined {
  const dates = [
    ...(body.flights ?? []).flatMap((f) => [f.departureDate, f.returnDate]),
    ...(body.hotels ?? []).flatMap((h) => [h.checkInDate, h.checkOutDate]),
  ]
    .filter((d): d is string => typeof d === "string")
    .map((d) => d.split("-").reverse().join("-"));
  return dates.length > 0 ? dates.sort().at(-1) : undefined;
}

function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
