import { bigint, boolean, doublePrecision, index, integer, jsonb, pgSchema, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { WireCreateOperationRequest } from "@/lib/financing/contract";
import type { SandboxOffer } from "../offers";

/**
 * The sandbox's own tables, in a PostgreSQL schema of its own (`sandbox`), with migrations of its
 * own (`lib/sandbox/db/migrations`, recorded in `sandbox.__drizzle_migrations`): it is a separate
 * system that may share the app's database, never its tables.
 *
 * Times on the test clock (`*_at` as epoch milliseconds) are the owning account's clock: real time
 * plus what QA advanced it by. `created_real_at` is wall-clock time, for retention only.
 */
export const sandbox = pgSchema("sandbox");

/** One row per seeded account (agency key, group key): its test clock. Created on first use. */
export const sandboxAccounts = sandbox.table("accounts", {
  id: text("id").primaryKey(),
  clockOffsetMs: bigint("clock_offset_ms", { mode: "number" }).notNull().default(0),
});

export interface HistoryEntry {
  status: string;
  at: string;
  note?: string;
}

export interface StoredFinancing {
  requestToken: string;
  /** The accepted offer as computed then (offers are deterministic; this is what the pages show). */
  offer: SandboxOffer;
  refusedProviders: string[];
}

export const sandboxOperations = sandbox.table(
  "operations",
  {
    id: text("id").primaryKey(),
    // An identity column is a sequence: numbers are never reused, not after a reset or a restart.
    operationNumber: integer("operation_number").notNull().generatedAlwaysAsIdentity(),
    /** The account whose key created it: its clock applies, its reset forgets it. */
    account: text("account").notNull(),
    agencyId: integer("agency_id").notNull(),
    externalId: text("external_id"),
    status: text("status").notNull(),
    totalPriceCents: bigint("total_price_cents", { mode: "number" }).notNull(),
    managementFeeCents: bigint("management_fee_cents", { mode: "number" }).notNull(),
    currency: text("currency").notNull(),
    countryCode: text("country_code").notNull(),
    /** The create body as validated (items kept as sent). */
    request: jsonb("request").$type<WireCreateOperationRequest>().notNull(),
    token: text("token").notNull(),
    triggers: jsonb("triggers").$type<string[]>().notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
    createdRealAt: timestamp("created_real_at", { withTimezone: true }).notNull(),
    history: jsonb("history").$type<HistoryEntry[]>().notNull(),
    refusedInstallments: jsonb("refused_installments").$type<number[]>().notNull(),
    financing: jsonb("financing").$type<StoredFinancing>(),
    requestToken: text("request_token"),
    travelEndDate: text("travel_end_date"),
  },
  (table) => [
    // Idempotent creation is this constraint (INSERT … ON CONFLICT), not a check in memory.
    uniqueIndex("operations_agency_external_id_key").on(table.agencyId, table.externalId),
    uniqueIndex("operations_request_token_key").on(table.requestToken),
    index("operations_account_status_idx").on(table.account, table.status),
    index("operations_agency_created_idx").on(table.agencyId, table.createdAt),
    index("operations_created_real_at_idx").on(table.createdRealAt),
  ],
);

export type SandboxOperationRow = typeof sandboxOperations.$inferSelect;

export const sandboxWebhookEvents = sandbox.table(
  "webhook_events",
  {
    eventId: integer("event_id").primaryKey().generatedAlwaysAsIdentity(),
    account: text("account").notNull(),
    operationId: text("operation_id")
      .notNull()
      .references(() => sandboxOperations.id, { onDelete: "cascade" }),
    status: text("status").notNull(),
    /** The full target, secret path included: never shown or logged, only delivered to. */
    url: text("url").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    acknowledged: boolean("acknowledged").notNull().default(false),
    supersededBy: integer("superseded_by"),
    /** Deliveries claimed so far; the claim also moves `next_attempt_at` on the schedule. */
    attemptCount: integer("attempt_count").notNull().default(0),
    /** When the next delivery is due (test clock); null when none is. */
    nextAttemptAt: bigint("next_attempt_at", { mode: "number" }),
  },
  (table) => [
    index("webhook_events_operation_idx").on(table.operationId),
    index("webhook_events_due_idx").on(table.account, table.nextAttemptAt),
  ],
);

export type SandboxWebhookEventRow = typeof sandboxWebhookEvents.$inferSelect;

/** One delivery attempt: when, and what came back. No URL: it may carry a secret. */
export const sandboxWebhookDeliveries = sandbox.table(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    eventId: integer("event_id")
      .notNull()
      .references(() => sandboxWebhookEvents.eventId, { onDelete: "cascade" }),
    at: text("at").notNull(),
    status: integer("status"),
    error: text("error"),
  },
  (table) => [index("webhook_deliveries_event_idx").on(table.eventId)],
);

/** Injected faults, per account; `hits` is counted in the row so a count holds across instances. */
export const sandboxFaults = sandbox.table(
  "faults",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    account: text("account").notNull(),
    route: text("route"),
    fault: text("fault").notNull(),
    latencyMs: integer("latency_ms").notNull(),
    retryAfterSeconds: integer("retry_after_seconds").notNull(),
    rate: doublePrecision("rate").notNull(),
    count: integer("count"),
    hits: integer("hits").notNull().default(0),
  },
  (table) => [index("faults_account_idx").on(table.account)],
);

export type SandboxFaultRow = typeof sandboxFaults.$inferSelect;
