import type { StaffRole } from "@/lib/vocabulary/staff";

/**
 * What each partner staff member may do, decided here and nowhere else: pages (requirePermission),
 * server actions (staffAction's `permission`), the navigation and the domain functions that move
 * money or change people all ask {@link can}.
 *
 * - every member (admin or agent): operations (list, detail, export, cancel), payment links, the
 *   simulator, their own security;
 * - refund: only members an admin granted it to (`can_refund`), admins included;
 * - data requests (find, export and erase a customer's data): only admins an admin granted it to
 *   (`can_data_requests`); never an agent, even with the flag set by hand;
 * - an admin only: staff management, API secrets, notification settings, the theme, the audit log.
 *
 * An operator holds none of these: the platform's console is another area (lib/operator).
 */
export const PERMISSIONS = [
  "operations",
  "payment-links",
  "cancel",
  "refund",
  "manage-staff",
  "api-secrets",
  "settings",
  "theme",
  "audit",
  "data-requests",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const EVERY_MEMBER: ReadonlySet<Permission> = new Set(["operations", "payment-links", "cancel"]);
const ADMIN_ONLY: ReadonlySet<Permission> = new Set(["manage-staff", "api-secrets", "settings", "theme", "audit"]);

export interface PermissionHolder {
  role: StaffRole;
  canRefund: boolean;
  /** Granted by an admin to an admin; absent: not granted. */
  canDataRequests?: boolean;
}

export function can(user: PermissionHolder, permission: Permission): boolean {
  if (user.role === "operator") return false;
  if (permission === "refund") return user.canRefund;
  if (permission === "data-requests") return user.role === "admin" && user.canDataRequests === true;
  if (EVERY_MEMBER.has(permission)) return true;
  return ADMIN_ONLY.has(permission) && user.role === "admin";
}
