import { AdminRefusal } from "./refusal";

/** A page the member's role or permissions do not open (lib/identity/staff.ts, requirePermission): 403, in its frame. */
export default function AdminForbidden() {
  return <AdminRefusal refusal="forbidden" />;
}
