import { REASON_MAX_LENGTH } from "@/lib/financing/limits";
import type { NotificationUrlProblem } from "@/lib/checkout/background/notification-url";
import type { RefundStep } from "@/lib/backoffice/refunds/refund";
import type { DataRequestExportView, DataRequestRow } from "@/lib/backoffice/data-requests/view";
import type { AdminMessages, CounterMessages } from "@/lib/i18n/admin-messages";

/*
 * The states the back-office's forms get back from their server actions (through useActionState).
 * Apart from the actions ("use server" files export functions only) and from the components, so
 * both sides share the types without a client bundle pulling server code.
 */

export interface LoginState {
  submission: number;
  email?: string;
  error?: "invalid" | "locked" | "missing" | "enrolment_link_needed" | "disabled";
}

export const INITIAL_LOGIN_STATE: LoginState = { submission: 0 };

export interface CancelState {
  submission: number;
  reason?: string;
  error?: "too_long" | "characters" | "unavailable";
}

export const INITIAL_CANCEL_STATE: CancelState = { submission: 0 };

export type { RefundComputation, RefundErrors } from "@/lib/backoffice/refunds/refund";

/** A refund step as its form gets it back: each of lib's steps, with the submission count. */
export type RefundState = RefundStep extends infer S ? (S extends RefundStep ? S & { submission: number } : never) : never;

/** What a cancel or refund reason field says and allows: the same on both forms. */
export interface ReasonSettings {
  label: string;
  hint: string;
  counter: CounterMessages;
  max: number;
}

export function reasonSettings(m: AdminMessages): ReasonSettings {
  return { label: m.common.reasonLabel, hint: m.common.reasonHint, counter: m.counter, max: REASON_MAX_LENGTH };
}

/** The back-office's security forms (second factor, enrolment, password): an error key, or the recovery codes to show once. */
export interface SecurityFormState {
  submission: number;
  error?: string;
  recoveryCodes?: string[];
}

export const INITIAL_SECURITY_FORM_STATE: SecurityFormState = { submission: 0 };

/** Why a notification URL was refused (the messages are `notifications.urlErrors`). */
export type NotificationUrlError = NotificationUrlProblem;

export interface NotificationUrlState {
  submission: number;
  /** What was typed, kept on an error. */
  url?: string;
  saved?: boolean;
  error?: NotificationUrlError;
}

export const INITIAL_NOTIFICATION_URL_STATE: NotificationUrlState = { submission: 0 };

/** A rotation's answer: the new secret, shown once, and until when the previous one signs (already formatted). */
export interface RotateSecretState {
  submission: number;
  secret?: string;
  previousValidUntil?: string;
  error?: "failed";
}

export const INITIAL_ROTATE_SECRET_STATE: RotateSecretState = { submission: 0 };

/** A test notification's result: the answer's status, or why there was none. */
export interface TestNotificationState {
  submission: number;
  ok?: boolean;
  status?: number | null;
  failure?: "not_configured" | "refused" | "timeout" | "connection_refused" | "network" | "http";
}

export const INITIAL_TEST_NOTIFICATION_STATE: TestNotificationState = { submission: 0 };

/** An invitation's answer: the form again with an error, or the link shown once (or where it was sent). */
export interface InviteState {
  submission: number;
  error?: "email_taken" | "invalid_email" | "invalid_name" | "invalid" | "forbidden" | "no_partner" | "limited";
  /** What was typed, kept on an error. */
  values?: { email: string; name: string; role: string; canRefund: boolean; delivery: string };
  /** The invitee's name, for the link's title. */
  name?: string;
  /** The one-time link, shown once (by link, or when the e-mail could not go). */
  link?: string;
  /** Already formatted, in the page's language. */
  expires?: string;
  /** Where the invitation was e-mailed. */
  sentTo?: string;
  sendFailed?: boolean;
}

export const INITIAL_INVITE_STATE: InviteState = { submission: 0 };

/** A member's new one-time link (after a second-factor reset, or a new invitation), shown once. */
export interface MemberLinkState {
  submission: number;
  error?: string;
  link?: string;
  expires?: string;
  /** The member's sessions ended (a reset). */
  ended?: boolean;
  /** Another administrator's reset was requested: a second administrator confirms it. */
  requested?: boolean;
  /** The link went to the member by e-mail: the administrator sees only that. */
  sent?: boolean;
  /** Why the link is shown: no mail server, or the e-mail failed. */
  shownBecause?: "no_mail" | "send_failed";
}

export const INITIAL_MEMBER_LINK_STATE: MemberLinkState = { submission: 0 };

export type { DataRequestExportView, DataRequestRow } from "@/lib/backoffice/data-requests/view";

export interface DataRequestsState {
  submission: number;
  by?: "document" | "email";
  value?: string;
  error?: "invalid" | "forbidden";
  sessions?: DataRequestRow[];
  /** Sessions whose erasure waits for the confirmation step. */
  confirm?: string[];
  /** Booking references whose customer's data was erased by this answer. */
  erased?: string[];
  /** Booking references refused now (the customer at the provider), with when to retry. */
  refused?: { reference: string; retry?: string }[];
  exported?: DataRequestExportView;
}

export const INITIAL_DATA_REQUESTS_STATE: DataRequestsState = { submission: 0 };
