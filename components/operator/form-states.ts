import type { NotificationUrlError } from "@/components/admin/form-states";
import type { VerifyProblem } from "@/lib/operator/partners/credential";

/*
 * The states the operator console's forms get back from their server actions (useActionState),
 * apart from the actions and the components so both share the types.
 */

export interface CreatePartnerState {
  submission: number;
  values?: { id: string; name: string };
  errors?: { id?: "invalid" | "reserved" | "taken"; name?: "missing" | "too_long" | "characters" };
}

export const INITIAL_CREATE_PARTNER_STATE: CreatePartnerState = { submission: 0 };

export interface PartnerSettingsState {
  submission: number;
  saved?: boolean;
  values?: { name: string; allowedOrigins: string; defaultReturnUrl: string };
  errors?: {
    name?: "missing" | "too_long" | "characters";
    allowedOrigins?: { reason: "invalid_origin" | "host" | "https_only" | "too_many"; line?: number };
    defaultReturnUrl?: "invalid_url" | "not_allowed_origin" | "too_long";
  };
  notFound?: boolean;
}

export const INITIAL_PARTNER_SETTINGS_STATE: PartnerSettingsState = { submission: 0 };

export interface PartnerNotificationState {
  submission: number;
  saved?: boolean;
  url?: string;
  error?: NotificationUrlError | "not_found";
}

export const INITIAL_PARTNER_NOTIFICATION_STATE: PartnerNotificationState = { submission: 0 };

export interface PartnerRetentionState {
  submission: number;
  saved?: boolean;
  days?: string;
  error?: "invalid" | "over_ceiling" | "not_found";
}

export const INITIAL_PARTNER_RETENTION_STATE: PartnerRetentionState = { submission: 0 };

export interface CredentialState {
  submission: number;
  saved?: boolean;
  error?: { reason: VerifyProblem | "not_found" | "invalid"; apiReason?: string };
  /** The second step: the agencies to pick from (a group key sealed in `pending`, or the platform's group key). */
  pick?: { kind: "group_pending" | "deployment"; pending?: string; agencies: { id: number; label: string }[] };
}

export const INITIAL_CREDENTIAL_STATE: CredentialState = { submission: 0 };

export interface InviteAdminState {
  submission: number;
  /** The one-time link, shown this once. */
  link?: string;
  values?: { email: string; name: string };
  error?: "invalid_email" | "invalid_name" | "email_taken" | "disabled" | "not_found" | "invalid";
}

export const INITIAL_INVITE_ADMIN_STATE: InviteAdminState = { submission: 0 };
