import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

// The last status the partner API reported for an operation, shared by every app instance so
// that any of them can send `If-None-Match` and get a cheap 304 instead of a full read.
export const statusSnapshots = pgTable("status_snapshots", {
  operationId: text("operation_id").primaryKey(),
  status: text("status").notNull(),
  etag: text("etag").notNull(),
  // The partner API's own `updatedAt`, not ours: it orders snapshots that race between instances.
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  checkedAt: timestamp("checked_at", { withTimezone: true }).notNull().defaultNow(),
});

export type StatusSnapshot = typeof statusSnapshots.$inferSelect;
export type NewStatusSnapshot = typeof statusSnapshots.$inferInsert;
