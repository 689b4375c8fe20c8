import type { PartnerStaffRole, StaffRole } from "@/lib/vocabulary/staff";
import type { staffUsers } from "@/lib/db/schema";

/**
 * The states a `staff_users` row may be in, as types: the table's checks (role, partner iff not
 * an operator, an operator never refunds) said once more for the compiler, so code that holds an
 * operator cannot reach for a partner and code that holds a partner's member always has one.
 */

export type StaffUserRow = typeof staffUsers.$inferSelect;

type Common = Omit<StaffUserRow, "role" | "partnerId" | "canRefund">;

/** One of the platform's operators: no partner, never refunds. */
export type OperatorAccount = Common & { role: "operator"; partnerId: null; canRefund: false };

/** A partner's staff member. */
export type PartnerStaffAccount = Common & { role: PartnerStaffRole; partnerId: string; canRefund: boolean };

export type StaffAccount = OperatorAccount | PartnerStaffAccount;

/**
 * The row as the state it is in. The database's checks make any other row impossible; one that got
 * past them anyway (a constraint dropped by hand) is refused here rather than trusted.
 */
export function asAccount(row: StaffUserRow): StaffAccount {
  if (row.role === "operator" && row.partnerId === null && !row.canRefund) {
    return { ...row, role: "operator", partnerId: null, canRefund: false };
  }
  if ((row.role === "admin" || row.role === "agent") && row.partnerId !== null) {
    return { ...row, role: row.role, partnerId: row.partnerId };
  }
  throw new Error(`staff account ${row.id} is in no allowed state`);
}

export function isOperatorRole(role: StaffRole): role is "operator" {
  return role === "operator";
}

export function isPartnerStaffRole(value: unknown): value is PartnerStaffRole {
  return value === "admin" || value === "agent";
}

/** Whether the account has a second factor (enrolled and confirmed). */
export function hasSecondFactor(row: Pick<StaffUserRow, "totpSecret" | "totpEnabledAt">): boolean {
  return Boolean(row.totpSecret && row.totpEnabledAt);
}
