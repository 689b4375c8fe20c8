import "server-only";
import { and, eq, lt, or, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { preparedPerDb } from "@/lib/db/prepared";
import { customerData } from "@/lib/db/schema";
import type { CustomerDraft } from "./customer";

/**
 * The customer's data of a session, in the database: the partner's prefill, then what the customer
 * submitted, bound to the browser that submitted it, and the corrections it made since.
 */

const draftBySession = preparedPerDb((db) =>
  db
    .select()
    .from(customerData)
    .where(eq(customerData.sessionId, sql.placeholder("sessionId")))
    .limit(1)
    .prepare("draft_by_session"),
);

export interface StoredCustomerData {
  draft: CustomerDraft;
  submitted: boolean;
  /** The hash of the submitting browser's token (lib/checkout/session/customer-editor.ts); null before a submit. */
  editorTokenHash: string | null;
  corrections: number;
}

export async function getCustomerDraft(db: Db, sessionId: string): Promise<StoredCustomerData | undefined> {
  const [row] = await draftBySession(db).execute({ sessionId });
  return row && { draft: row.data, submitted: row.submitted, editorTokenHash: row.editorTokenHash, corrections: row.corrections };
}

/**
 * Stores the submitted data, bound to the browser holding the token whose hash is given: only while
 * nothing was submitted yet (the partner's prefill is replaced), or by that same browser. False when
 * another browser's submit is stored (the caller refuses this one).
 */
export async function saveCustomerData(db: Db, sessionId: string, data: CustomerDraft, editorTokenHash: string): Promise<boolean> {
  const rows = await db
    .insert(customerData)
    .values({ sessionId, data, submitted: true, editorTokenHash })
    .onConflictDoUpdate({
      target: customerData.sessionId,
      set: { data, submitted: true, editorTokenHash, updatedAt: new Date() },
      setWhere: or(eq(customerData.submitted, false), eq(customerData.editorTokenHash, editorTokenHash)),
    })
    .returning({ sessionId: customerData.sessionId });
  return rows.length > 0;
}

/**
 * Counts one correction for the browser that submitted the data, if the session has corrections
 * left: one statement, so concurrent posts cannot all pass the cap. False: none left (or not that browser).
 */
export async function reserveCorrection(db: Db, sessionId: string, editorTokenHash: string, max: number): Promise<boolean> {
  const rows = await db
    .update(customerData)
    .set({ corrections: sql`${customerData.corrections} + 1` })
    .where(and(eq(customerData.sessionId, sessionId), eq(customerData.editorTokenHash, editorTokenHash), lt(customerData.corrections, max)))
    .returning({ sessionId: customerData.sessionId });
  return rows.length > 0;
}
