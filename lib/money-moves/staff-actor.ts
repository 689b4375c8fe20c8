import type { Db } from "@/lib/db";
import type { OperationActor } from "@/lib/money-moves/actor";

/** A staff member as the audit log records them: their partner, their id and their name. */
export interface StaffActor {
  db: Db;
  partner: { id: string };
  user: { id: string; name: string };
}

/** A staff member acting on an operation from `ip`, as the shared cancel and refund take them. */
export function staffOperationActor(staff: StaffActor, ip: string): OperationActor {
  return { db: staff.db, partnerId: staff.partner.id, ip, who: { kind: "staff", id: staff.user.id, name: staff.user.name } };
}
