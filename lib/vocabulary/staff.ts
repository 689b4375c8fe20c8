/** Staff accounts' words: roles and what a one-time link is for. */

/**
 * What a staff account may do: an `operator` runs the platform (no partner); a partner's `admin`
 * manages its staff and settings; an `agent` works on operations. Refunding is a permission of its
 * own (`can_refund`), granted by an admin, not a role; so is answering customers' data requests
 * (`can_data_requests`: find, export and erase a customer's data), which only an admin may hold.
 */
export const STAFF_ROLES = ["operator", "admin", "agent"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
/** The roles of a partner's staff (every role but the operator's). */
export const PARTNER_STAFF_ROLES = ["admin", "agent"] as const;
export type PartnerStaffRole = (typeof PARTNER_STAFF_ROLES)[number];

/** What a one-time staff link is for (lib/identity/links.ts). */
export const STAFF_LINK_PURPOSES = ["enrolment", "invitation", "password-reset"] as const;
export type StaffLinkPurpose = (typeof STAFF_LINK_PURPOSES)[number];
