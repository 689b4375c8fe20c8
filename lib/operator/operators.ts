import "server-only";
import { randomUUID } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { recordAudit } from "@/lib/audit/audit";
import { hasSecondFactor } from "@/lib/identity/accounts";
import { deleteAllStaffSessions } from "@/lib/identity/staff-sessions";
import { issueLinkWithExpiry, type IssuedLink } from "@/lib/identity/links";
import { memberEmailField, memberNameField } from "@/lib/identity/members";
import type { Db } from "@/lib/db";
import { staffUsers } from "@/lib/db/schema";
import { loggerFor } from "@/lib/logger";

/**
 * The platform's operators: the people who run the deployment (partners, their first
 * administrators) from the console at /operator. They sign in like partner staff (password and
 * second factor) but belong to no partner. The first one is created from the command line
 * (`npm run admin -- create-operator`), which is also where they are listed and disabled: no
 * password is ever set for them; a one-time enrolment link (30 minutes) is how they choose one.
 */

export interface OperatorSummary {
  id: string;
  email: string;
  name: string;
  twoFactor: boolean;
  disabledAt: Date | null;
  createdAt: Date;
}

export type CreateOperatorResult =
  { ok: true; operatorId: string; link: IssuedLink } | { ok: false; reason: "invalid_email" | "invalid_name" | "email_taken" };

export async function createOperator(
  db: Db,
  input: { email: string; name: string },
  options: { by?: string; now?: Date } = {},
): Promise<CreateOperatorResult> {
  const now = options.now ?? new Date();
  const email = memberEmailField.safeParse(input.email);
  if (!email.success) return { ok: false, reason: "invalid_email" };
  const name = memberNameField.safeParse(input.name);
  if (!name.success) return { ok: false, reason: "invalid_name" };
  const operatorId = `operator_${randomUUID()}`;
  const inserted = await db
    .insert(staffUsers)
    .values({
      id: operatorId,
      partnerId: null,
      role: "operator",
      canRefund: false,
      email: email.data,
      name: name.data,
      passwordHash: null,
      createdAt: now,
    })
    .onConflictDoNothing({ target: staffUsers.email })
    .returning({ id: staffUsers.id });
  if (inserted.length === 0) return { ok: false, reason: "email_taken" };
  const link = await issueLinkWithExpiry(db, operatorId, "enrolment", { now, by: options.by ?? "cli" });
  await recordAudit(
    db,
    { kind: "operator_created", result: "ok", staff: { id: operatorId, name: name.data }, details: { by: options.by ?? "cli" } },
    now,
  );
  loggerFor("operator").info({ operatorId }, "operator: created");
  return { ok: true, operatorId, link };
}

export async function listOperators(db: Db): Promise<OperatorSummary[]> {
  const rows = await db
    .select()
    .from(staffUsers)
    .where(eq(staffUsers.role, "operator"))
    .orderBy(asc(staffUsers.createdAt), asc(staffUsers.email));
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    twoFactor: hasSecondFactor(row),
    disabledAt: row.disabledAt,
    createdAt: row.createdAt,
  }));
}

export type DisableOperatorResult = { ok: true; endedSessions: number } | { ok: false; reason: "not_found" | "already_disabled" };

/** Disables an operator: their sessions end at once, and they cannot sign in or use a link again. */
export async function disableOperator(db: Db, email: string, options: { by?: string; now?: Date } = {}): Promise<DisableOperatorResult> {
  const now = options.now ?? new Date();
  const parsed = memberEmailField.safeParse(email);
  if (!parsed.success) return { ok: false, reason: "not_found" };
  const [operator] = await db
    .select()
    .from(staffUsers)
    .where(and(eq(staffUsers.email, parsed.data), eq(staffUsers.role, "operator")))
    .limit(1);
  if (!operator) return { ok: false, reason: "not_found" };
  if (operator.disabledAt) return { ok: false, reason: "already_disabled" };
  const endedSessions = await db.transaction(async (tx) => {
    await tx.update(staffUsers).set({ disabledAt: now }).where(eq(staffUsers.id, operator.id));
    return deleteAllStaffSessions(tx, operator.id);
  });
  await recordAudit(
    db,
    {
      kind: "operator_disabled",
      result: "ok",
      staff: { id: operator.id, name: operator.name },
      details: { by: options.by ?? "cli", endedSessions },
    },
    now,
  );
  loggerFor("operator").info({ operatorId: operator.id, endedSessions }, "operator: disabled");
  return { ok: true, endedSessions };
}
