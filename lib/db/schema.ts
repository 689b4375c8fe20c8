// Over 400 lines: the one Drizzle schema (22 tables) drizzle.config.ts generates migrations from, kept whole so every table, index and check reads in one place.
import {
  bigint,
  bigserial,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import type { SecretScope } from "@/lib/vocabulary/api-scopes";
import type { Locale } from "@/lib/vocabulary/locales";
import type { OperationStatus, WebhookStatus } from "@/lib/vocabulary/partner-api";
import type {
  NotificationSubject,
  SessionFinancingStatus,
  StatusSource,
  StoredBooking,
  StoredNotification,
  StoredPlan,
  WebhookEventResult,
} from "@/lib/vocabulary/session";
import type { StaffLinkPurpose, StaffRole } from "@/lib/vocabulary/staff";

// Status and JSON columns carry the types of what the code writes into them (`$type`: a type only,
// the columns stay text and jsonb); the values come from the contract's and the domain's unions.

// The last status the partner API reported for an operation, shared by every app instance so
// that any of them can send `If-None-Match` and get a cheap 304 instead of a full read.
export const statusSnapshots = pgTable("status_snapshots", {
  operationId: text("operation_id").primaryKey(),
  status: text("status").$type<OperationStatus>().notNull(),
  etag: text("etag").notNull(),
  // The partner API's own `updatedAt`, not ours: it orders snapshots that race between instances.
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  checkedAt: timestamp("checked_at", { withTimezone: true }).notNull().defaultNow(),
});

export type StatusSnapshot = typeof statusSnapshots.$inferSelect;
export type NewStatusSnapshot = typeof statusSnapshots.$inferInsert;

// ---------------------------------------------------------------------------------------------
// Checkout (docs/contributors/architecture.md, "Tenancy" and "Storage")

/**
 * A travel agency using the checkout. Its backend authenticates with secrets of its own
 * (`partner_api_secrets`, stored only as SHA-256 hashes); its calls to the partner API use its own
 * agency key, or an agency id under the deployment's key.
 */
export const partners = pgTable("partners", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** Origins the customer may be returned to (and, later, that may frame the checkout). */
  allowedOrigins: jsonb("allowed_origins").$type<string[]>().notNull(),
  /** An agency id under the deployment's management group key; null with an agency key. */
  financingAgencyId: integer("financing_agency_id"),
  /** Where the partner's backend is told of outcomes (Standard Webhooks); null: not told. */
  notificationUrl: text("notification_url"),
  /** The key those notifications are signed with (`whsec_…`), shared with the partner. */
  signingSecret: text("signing_secret"),
  /**
   * The key before the last rotation (sealed like the current one): notifications carry its
   * signature too until `previousSigningSecretExpiresAt`, so the partner can switch keys calmly.
   */
  previousSigningSecret: text("previous_signing_secret"),
  previousSigningSecretExpiresAt: timestamp("previous_signing_secret_expires_at", { withTimezone: true }),
  /** The partner's own partner API key; null: the deployment's (FINANCING_API_KEY). */
  financingApiKey: text("financing_api_key"),
  /** The key's last four characters, for the console to show which key it is (the key itself never is). */
  financingKeyLast4: text("financing_key_last4"),
  /** White-label theme (logo, colours, font, radius), checked for contrast when set. */
  theme: jsonb("theme").$type<Record<string, string>>(),
  /**
   * Where a customer of a payment link goes back to (staff open those, with no return URL of their
   * own): on one of the allowed origins. Null: the back-office opens no payment links.
   */
  defaultReturnUrl: text("default_return_url"),
  /**
   * Set by an operator: its API secrets answer 401, its customers' checkouts say the agency is
   * unavailable. Null: active.
   */
  disabledAt: timestamp("disabled_at", { withTimezone: true }),
  /**
   * How many days its customers' data is kept after a session ended (or expired unfinished), set by
   * an operator; at most CUSTOMER_DATA_RETENTION_MAX_DAYS, which also caps a value stored above it.
   */
  customerDataRetentionDays: integer("customer_data_retention_days").notNull().default(90),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

export type PartnerRow = typeof partners.$inferSelect;

/**
 * A partner's secrets for the checkout sessions API (`Authorization: Bearer …`), kept only as
 * SHA-256 hashes: they are random and only ever compared, never shown again after their creation.
 * Several at once: a rotation keeps the old one working until `expiresAt` while the partner
 * switches; a revocation ends one at once (lib/partners/api-secrets.ts).
 */
export const partnerApiSecrets = pgTable(
  "partner_api_secrets",
  {
    id: text("id").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    /** What the partner calls it ("production backend"): typed by someone, shown in lists only. */
    name: text("name").notNull(),
    /** The secret's first characters (`cs_live_AbCd`), to recognise it; empty when unknown (migrated). */
    prefix: text("prefix").notNull(),
    secretHash: text("secret_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Who created it: a partner's staff member, an operator, or the system (the demo seed, a migration). */
    createdByKind: text("created_by_kind").$type<"staff" | "operator" | "system">().notNull(),
    createdById: text("created_by_id"),
    createdByName: text("created_by_name"),
    /**
     * What it may do on the API (lib/vocabulary/api-scopes.ts): chosen at creation, kept by its
     * rotations. Secrets from before scopes hold `{all}` (set by their migration).
     */
    scopes: text("scopes").array().$type<SecretScope[]>().notNull(),
    /** The last request it authenticated, written at most once a minute. */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    /** Set by a rotation: it keeps working until then. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("partner_api_secrets_secret_hash_key").on(table.secretHash),
    index("partner_api_secrets_partner_idx").on(table.partnerId),
  ],
);

export type PartnerApiSecretRow = typeof partnerApiSecrets.$inferSelect;

/**
 * The agencies whose operations a partner's staff may see and act on, besides the operations of the
 * partner's own checkout sessions (lib/backoffice/operations/ownership.ts). A credential reaching an agency is
 * not enough: a management group key reaches every agency of its group, and one agency can be
 * reached by several partners' keys. Two partners sharing an agency is two rows, written on purpose.
 */
export const partnerAgencies = pgTable(
  "partner_agencies",
  {
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    agencyId: integer("agency_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.partnerId, table.agencyId] })],
);

/** One customer's checkout of one booking. */
export const checkoutSessions = pgTable(
  "checkout_sessions",
  {
    id: text("id").primaryKey(),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.id),
    bookingReference: text("booking_reference").notNull(),
    /** The booking as the partner sent it (no personal data): see lib/checkout/session/booking.ts. */
    booking: jsonb("booking").$type<StoredBooking>().notNull(),
    /** Hash of the booking, to tell an idempotent repeat from a different booking under the same reference. */
    bookingHash: text("booking_hash").notNull(),
    returnUrl: text("return_url").notNull(),
    /** The language the partner asked for; null: the customer's browser decides. */
    locale: text("locale").$type<Locale>(),
    operationId: text("operation_id"),
    /**
     * How many operations this session replaced because the customer corrected their details (0: the
     * first, whose externalId is the booking reference; n: `{reference}~{n}`, see operationExternalId).
     */
    operationAttempt: integer("operation_attempt").notNull().default(0),
    /** The fingerprint of the customer data the current operation was created with (clientDataHash). */
    operationClientHash: text("operation_client_hash"),
    /** The partner API's status of the operation, and its updatedAt: statuses apply forward only. */
    operationStatus: text("operation_status").$type<OperationStatus>(),
    operationUpdatedAt: timestamp("operation_updated_at", { withTimezone: true }),
    paymentUrl: text("payment_url"),
    /** The offer the customer chose last, and what the provider said at POST /financing. */
    chosenOfferId: integer("chosen_offer_id"),
    /** That offer's figures as they were when chosen: the status page repeats the plan. */
    chosenPlan: jsonb("chosen_plan").$type<StoredPlan>(),
    financingStatus: text("financing_status").$type<SessionFinancingStatus>(),
    hasAlternatives: boolean("has_alternatives"),
    /**
     * When the partner API said the operation can never be financed (not eligible, or no offer at
     * all) while the customer was choosing: the session is then `not_eligible`, a final state that
     * no later status of that operation changes.
     */
    notEligibleAt: timestamp("not_eligible_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /**
     * The staff member who opened it as a payment link from the back-office; null: the partner's
     * backend opened it through the checkout sessions API. Kept after the account is gone (no FK).
     */
    createdByStaffId: text("created_by_staff_id"),
    /** When staff revoked the payment link (expiresAt was set to that same moment). */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /**
     * When the partner cancelled it through the checkout sessions API before the customer sent their
     * data (no operation to cancel at the partner API): the session is `cancelled`.
     */
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /**
     * The W3C `traceparent` of the trace the session's story is told in (with tracing on): the API
     * call that opened it, then the request in which the customer chose a plan. Its later work (the
     * webhooks' processing, the reconciler, the notifications) runs as that trace's children; its
     * pages link to it. Ids only; null with tracing off.
     */
    traceParent: text("trace_parent"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("checkout_sessions_partner_booking_key").on(table.partnerId, table.bookingReference),
    uniqueIndex("checkout_sessions_operation_key").on(table.operationId),
    // The expiry sweep (notifyExpiredSessions): sessions that never got an operation, by expiry.
    index("checkout_sessions_unstarted_expiry_idx")
      .on(table.expiresAt)
      .where(sql`${table.operationId} is null`),
    // The partner's list (GET /api/checkout-sessions): newest first, a page after a (createdAt, id).
    index("checkout_sessions_partner_created_idx").on(table.partnerId, table.createdAt, table.id),
  ],
);

export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;

/**
 * The operations sessions opened and then replaced (the customer corrected their details: the
 * operation was cancelled and a new one created, lib/checkout/session/flow.ts). The session's row holds only
 * its current operation; without these, a replaced operation would be nobody's, and staff of any
 * partner acting for its agency would see it as theirs (lib/backoffice/operations/ownership.ts), and another
 * session could attach it (attachOperation). Written with the detach, in one transaction.
 */
export const replacedOperations = pgTable(
  "replaced_operations",
  {
    operationId: text("operation_id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => checkoutSessions.id, { onDelete: "cascade" }),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.id),
    replacedAt: timestamp("replaced_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("replaced_operations_session_idx").on(table.sessionId)],
);

/**
 * The customer's data: personal, so kept apart from the session (one place to purge), never
 * logged, never stored in plaintext, and never sent anywhere but the partner API. Read and written
 * only through lib/checkout/session/customer-store.ts, which seals and opens it.
 */
export const customerData = pgTable(
  "customer_data",
  {
    sessionId: text("session_id")
      .primaryKey()
      .references(() => checkoutSessions.id, { onDelete: "cascade" }),
    /**
     * Prefilled by the partner, or as the customer submitted it (ISO dates): its JSON sealed under
     * SECRETS_KEYS, bound to the session id (lib/security/secrets/secret-box.ts). Null once erased.
     */
    data: text("data"),
    /** HMAC-SHA-256 of the normalised document number (lib/checkout/session/customer-sealing.ts); null when none, or erased. */
    documentHash: text("document_hash"),
    /** HMAC-SHA-256 of the normalised e-mail address; null when none, or erased. */
    emailHash: text("email_hash"),
    /** When the data was erased (data and hashes null since); null while it is kept. */
    erasedAt: timestamp("erased_at", { withTimezone: true }),
    /** Whether the customer has submitted it (false: only the partner's prefill). */
    submitted: boolean("submitted").notNull().default(false),
    /**
     * SHA-256 of the random token in the cookie of the browser that submitted it: only that browser
     * sees the data again (masked) and may correct it (lib/checkout/session/customer-editor.ts).
     */
    editorTokenHash: text("editor_token_hash"),
    /** How many corrections changed the data after its first submit: capped per session. */
    corrections: integer("corrections").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("customer_data_document_hash_idx").on(table.documentHash), index("customer_data_email_hash_idx").on(table.emailHash)],
);

/** Every status the session learned, and from where. */
export const sessionStatusHistory = pgTable(
  "session_status_history",
  {
    id: serial("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => checkoutSessions.id, { onDelete: "cascade" }),
    status: text("status").$type<OperationStatus>().notNull(),
    source: text("source").$type<StatusSource>().notNull(),
    operationUpdatedAt: timestamp("operation_updated_at", { withTimezone: true }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("session_status_history_session_idx").on(table.sessionId)],
);

// ---------------------------------------------------------------------------------------------
// Webhooks from the partner API (issue: outcomes that are never lost)

/**
 * Every webhook event received, once per (eventId, operation): the primary key is the
 * deduplication. An eventId alone is not enough: anyone holding the URL may post an id before the
 * API uses it, and a reset sandbox (or another deployment of the API) numbers from 1 again, so an
 * id names an event only together with its operation. The body is only a hint: processing reads
 * the status from the partner API, applies it, then acknowledges.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    eventId: bigint("event_id", { mode: "number" }).notNull(),
    operationId: text("operation_id").notNull(),
    /** The status the body claimed: kept for the ack, never applied as such. */
    claimedStatus: text("claimed_status").$type<WebhookStatus>().notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    deliveries: integer("deliveries").notNull().default(1),
    /** Set when done: acknowledged, or given up on (see `result`). */
    processedAt: timestamp("processed_at", { withTimezone: true }),
    /** How processing ended (null while it has not); `detail` says why, in words, for staff. */
    result: text("result").$type<WebhookEventResult>(),
    detail: text("detail"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** A processor holds the event until then; another instance may take it over after. */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ name: "webhook_events_pkey", columns: [table.eventId, table.operationId] }),
    index("webhook_events_pending_idx").on(table.processedAt, table.nextAttemptAt),
  ],
);

export type WebhookEventRow = typeof webhookEvents.$inferSelect;

/** A partner notification to send: the outbox, written in the same transaction as the change. */
export const partnerNotifications = pgTable(
  "partner_notifications",
  {
    /** Also the `webhook-id` the partner deduplicates on. */
    id: text("id").primaryKey(),
    /**
     * The order notifications were written in, across the deployment. The event feed's cursor was
     * this number once: a partner's backend may still hold one, which the feed maps to the partner's
     * own position (the first of its events whose `seq` is greater). Within one partner it grows
     * with `partnerSeq`, as both are taken under that partner's counter (enqueueNotification).
     */
    seq: bigserial("seq", { mode: "number" }).notNull(),
    /**
     * The notification's position in its partner's event feed (GET /api/events): 1, 2, 3… for each
     * partner by itself, taken from partner_event_counters in the transaction that writes the row,
     * whose counter row stays locked to the commit: a reader never sees a higher one before a lower
     * one commits. The feed promises partners every notification for at least EVENTS_KEPT_DAYS (30,
     * api-schemas.ts): nothing purges these rows today, and a purge must spare the younger ones.
     */
    partnerSeq: bigint("partner_seq", { mode: "number" }).notNull(),
    sessionId: text("session_id")
      .notNull()
      .references(() => checkoutSessions.id, { onDelete: "cascade" }),
    partnerId: text("partner_id").notNull(),
    /**
     * The session state it announces (one notification per state reached), or
     * `customer_data_erased` for the erasure of its customer data (one per session).
     */
    state: text("state").$type<NotificationSubject>().notNull(),
    payload: jsonb("payload").$type<StoredNotification>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    /** The last attempt's failure, short (`HTTP 500`, `timeout`…): never the partner's answer. */
    lastError: text("last_error"),
    /** The last attempt's HTTP status (null: no answer), and when it was made: for the back-office. */
    lastStatusCode: integer("last_status_code"),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    /** The `traceparent` of the work that wrote it (with tracing on): its delivery is a child of that span. */
    traceParent: text("trace_parent"),
  },
  (table) => [
    uniqueIndex("partner_notifications_session_state_key").on(table.sessionId, table.state),
    // The event feed: one partner's notifications in order, after a cursor.
    uniqueIndex("partner_notifications_partner_position_key").on(table.partnerId, table.partnerSeq),
    // A cursor from before the per-partner positions (a deployment-wide `seq`), mapped to a position.
    uniqueIndex("partner_notifications_partner_seq_key").on(table.partnerId, table.seq),
    index("partner_notifications_pending_idx").on(table.deliveredAt, table.nextAttemptAt),
  ],
);

/**
 * Each partner's last event feed position handed out (partner_notifications.partner_seq): the row
 * a notification's writer increments, and so holds locked until its transaction ends. Writers of
 * one partner wait for each other there, and nowhere else; other partners' writers never.
 */
export const partnerEventCounters = pgTable("partner_event_counters", {
  partnerId: text("partner_id")
    .primaryKey()
    .references(() => partners.id, { onDelete: "cascade" }),
  lastPosition: bigint("last_position", { mode: "number" }).notNull(),
  /**
   * The last deployment-wide `seq` the partner's feed handed out as a cursor, before positions
   * were the partner's own (0: none): a number sent as `after` is read no further than this, so it
   * tells the partner nothing of the sequence since (other partners' events).
   */
  legacyLastSeq: bigint("legacy_last_seq", { mode: "number" }).notNull().default(0),
});

/** Named leases: the one instance holding one may run that job (the reconciler). */
export const leases = pgTable("leases", {
  name: text("name").primaryKey(),
  holder: text("holder").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});

/**
 * The `Idempotency-Key`s of the checkout sessions API's POSTs (lib/checkout/api/idempotency.ts), in
 * the database so that every instance sees them: one row per partner and `scope` (a SHA-256 of the
 * method, the path and the key, so the primary key stays small whatever the path and key). A row
 * is first a claim (`lockedUntil` set, no answer yet: a request is being answered), then the
 * answer kept for replays, until `expiresAt` (24 hours after the first request); the background
 * round deletes expired rows.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    scope: text("scope").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the request's body (its JSON in a canonical form): the same key with another body is refused. */
    requestHash: text("request_hash").notNull(),
    /** While the first request is being answered: another one with the key is refused (409) until then. */
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    /** The answer kept for replays; null while in flight. */
    responseStatus: integer("response_status"),
    responseContentType: text("response_content_type"),
    responseBody: text("response_body"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.partnerId, table.scope] }),
    // The purge (purgeExpiredIdempotencyKeys): rows by expiry.
    index("idempotency_keys_expires_at_idx").on(table.expiresAt),
  ],
);

// ---------------------------------------------------------------------------------------------
// Back-office (partner staff)

/**
 * A person who signs in: a partner's staff member (`admin` or `agent`, with their partner) or one
 * of the platform's operators (no partner). The password is kept only as a scrypt hash; none yet
 * (null) for someone invited who has not used their link. The states the checks below allow are
 * the types of lib/identity/accounts.ts.
 */
export const staffUsers = pgTable(
  "staff_users",
  {
    id: text("id").primaryKey(),
    /** Null exactly for an operator (a check below). */
    partnerId: text("partner_id").references(() => partners.id),
    role: text("role").$type<StaffRole>().notNull(),
    /** Whether this member may refund: granted by an admin, to agents and admins alike; never an operator. */
    canRefund: boolean("can_refund").notNull().default(false),
    /** Whether this member may answer customers' data requests (find, export, erase): granted by an admin, to admins only. */
    canDataRequests: boolean("can_data_requests").notNull().default(false),
    email: text("email").notNull().unique(),
    name: text("name").notNull(),
    passwordHash: text("password_hash"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** The TOTP secret of the second factor, once enrolled (through lib/identity/totp-secret-store.ts). */
    totpSecret: text("totp_secret"),
    totpEnabledAt: timestamp("totp_enabled_at", { withTimezone: true }),
    /** The time step of the last code accepted: a code of that step or an earlier one is a replay. */
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    passwordChangedAt: timestamp("password_changed_at", { withTimezone: true }),
    /** When an admin (or, for an operator, the command line) disabled the account: no sign-in, no session. */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /**
     * An invitation to an address that already has an account elsewhere (another partner, the
     * platform): the address invited, shown in the partner's staff list like any invitee's. Such a
     * row is a placeholder that opens nothing (its links are refused, it never signs in): `email`
     * then holds a unique address of the reserved `.invalid` domain that nobody signs in with
     * (lib/identity/member-invitations.ts).
     */
    invitedElsewhereEmail: text("invited_elsewhere_email"),
  },
  (table) => [
    check("staff_users_role", sql`${table.role} in ('operator', 'admin', 'agent')`),
    check("staff_users_partner_unless_operator", sql`(${table.role} = 'operator') = (${table.partnerId} is null)`),
    check("staff_users_operator_never_refunds", sql`not (${table.role} = 'operator' and ${table.canRefund})`),
    check("staff_users_data_requests_admin_only", sql`not ${table.canDataRequests} or ${table.role} = 'admin'`),
    index("staff_users_partner").on(table.partnerId),
    uniqueIndex("staff_users_partner_invited_elsewhere_key").on(table.partnerId, table.invitedElsewhereEmail),
  ],
);

/** Single-use recovery codes of the second factor, kept only as SHA-256 hashes (they are random, 60 bits). */
export const staffRecoveryCodes = pgTable(
  "staff_recovery_codes",
  {
    id: serial("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => staffUsers.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("staff_recovery_codes_user_code").on(table.userId, table.codeHash)],
);

/** A signed-in staff member: the cookie carries a random token, the table only its hash. */
export const staffSessions = pgTable("staff_sessions", {
  tokenHash: text("token_hash").primaryKey(),
  userId: text("user_id")
    .notNull()
    .references(() => staffUsers.id, { onDelete: "cascade" }),
  /** For a management group key: the agency the staff member is working on. */
  agencyId: integer("agency_id"),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  /** The last request seen: a session idle for 30 minutes is over. */
  lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
  /** When the second factor was given; null while the session waits for it (password only). */
  secondFactorAt: timestamp("second_factor_at", { withTimezone: true }),
  /** Wrong codes given on this session: a few of them end it (the password is asked again). */
  codeFailures: integer("code_failures").notNull().default(0),
  /** For the staff member's list of sessions: the address and a shortened user agent. */
  ip: text("ip"),
  userAgent: text("user_agent"),
  /**
   * Whether this session may enrol a second factor, and how it came to: "link" (a one-time
   * enrolment link: the password is set with it) or "renew" (turned off behind both factors, to
   * set up again). Null: a session of an unenrolled account without either opens nothing.
   */
  enrolment: text("enrolment").$type<"link" | "renew">(),
  /** The secret shown to this session for enrolment (sealed), never to another one. */
  totpPendingSecret: text("totp_pending_secret"),
});

/**
 * One-time links for staff (enrolment, invitations, password resets): the URL carries a random
 * token, the table only its SHA-256; used once, and only before it expires.
 */
export const staffLinks = pgTable(
  "staff_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => staffUsers.id, { onDelete: "cascade" }),
    purpose: text("purpose").$type<StaffLinkPurpose>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (table) => [index("staff_links_user").on(table.userId)],
);

/**
 * An administrator's request to reset another administrator's second factor, waiting for a second
 * administrator's confirmation (lib/identity/members.ts): one pending per member, gone once
 * confirmed or replaced; the audit log keeps both steps.
 */
export const secondFactorResetRequests = pgTable(
  "second_factor_reset_requests",
  {
    memberId: text("member_id")
      .primaryKey()
      .references(() => staffUsers.id, { onDelete: "cascade" }),
    partnerId: text("partner_id")
      .notNull()
      .references(() => partners.id, { onDelete: "cascade" }),
    requestedBy: text("requested_by")
      .notNull()
      .references(() => staffUsers.id, { onDelete: "cascade" }),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("second_factor_reset_requests_partner").on(table.partnerId)],
);

/**
 * Where an account completed a full sign-in (both factors): an IPv4 address or an IPv6 /64. Sign-in
 * attempts from there are spared the per-account ceiling (lib/identity/rate-limit.ts).
 */
export const staffKnownSources = pgTable(
  "staff_known_sources",
  {
    userId: text("user_id")
      .notNull()
      .references(() => staffUsers.id, { onDelete: "cascade" }),
    source: text("source").notNull(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.source] })],
);

/**
 * Sign-in attempts per key (an e-mail with an IP address, or an IP address), reserved atomically
 * before the password is checked (lib/identity/rate-limit.ts).
 */
/**
 * Token buckets shared by every instance (lib/security/limits/shared-token-bucket.ts): `tokens` as of
 * `updatedAt`, refilled continuously by whoever takes one next.
 */
export const tokenBuckets = pgTable("token_buckets", {
  key: text("key").primaryKey(),
  tokens: doublePrecision("tokens").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const loginThrottles = pgTable("login_throttles", {
  key: text("key").primaryKey(),
  /** Attempts since the last lock (or window), each counted before its password is checked. */
  failures: integer("failures").notNull().default(0),
  /** Locks so far: each lasts twice the one before (1 minute up to 1 hour). */
  lockCount: integer("lock_count").notNull().default(0),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
  /** Whether the last reservation went ahead (the statement's answer; RETURNING sees new values only). */
  lastAllowed: boolean("last_allowed").notNull().default(true),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------------------------------------
// Audit log (append-only: a trigger refuses UPDATE, DELETE and TRUNCATE, migration *_audit_sql)

export const AUDIT_KINDS = [
  "sign_in",
  "sign_in_failed",
  "sign_in_locked",
  "second_factor",
  "second_factor_failed",
  "two_factor_enrolled",
  "two_factor_disabled",
  "recovery_code_used",
  "password_changed",
  "sessions_revoked",
  "operation_cancelled",
  "operation_refunded",
  "theme_changed",
  "notification_resent",
  "notification_test_sent",
  "notification_url_changed",
  "signing_secret_rotated",
  "payment_link_created",
  "payment_link_sent",
  "payment_link_revoked",
  "staff_link_issued",
  "staff_link_used",
  "staff_invited",
  "staff_role_changed",
  "staff_disabled",
  "staff_enabled",
  "staff_removed",
  "two_factor_reset",
  "password_reset_requested",
  "password_reset",
  "operator_created",
  "operator_disabled",
  "permission_refused",
  "partner_created",
  "partner_updated",
  "partner_disabled",
  "partner_enabled",
  "partner_credential_changed",
  "partner_agencies_changed",
  "partner_admin_invited",
  "api_secret_created",
  "api_secret_rotated",
  "api_secret_revoked",
  "customer_data_exported",
  "customer_data_erased",
  "customer_data_retention_erased",
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];
export type AuditResult = "ok" | "refused" | "failed";

/** Who did what: security and money events. Never a password, a code or a secret in it. */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    kind: text("kind").$type<AuditKind>().notNull(),
    result: text("result").$type<AuditResult>().notNull(),
    /** Null for an attempt on an unknown account: no partner sees it. */
    partnerId: text("partner_id"),
    staffUserId: text("staff_user_id"),
    /** The staff member's name at the time (the log outlives accounts and renames). */
    staffName: text("staff_name"),
    /**
     * Done through the checkout sessions API: the name of the partner's API secret used, at the
     * time (null for what staff or operators did). Its id is in `details.apiSecretId`.
     */
    apiActor: text("api_actor"),
    operationId: text("operation_id"),
    ip: text("ip"),
    /** Amounts in cents and currency, a reason code: never free text typed by someone. */
    details: jsonb("details").$type<Record<string, string | number | boolean | null>>(),
  },
  (table) => [index("audit_events_partner_at").on(table.partnerId, table.at)],
);
