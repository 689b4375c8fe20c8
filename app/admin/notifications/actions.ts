"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import type { NotificationUrlState, RotateSecretState, TestNotificationState } from "@/components/admin/form-states";
import { operationIdField } from "@/lib/backoffice/operations/form-fields";
import { staffAction } from "@/lib/backoffice/staff-action";
import { recordAudit } from "@/lib/audit/audit";
import { formatDateTime } from "@/lib/backoffice/common/format";
import {
  resendNotification,
  type ResendOutcome,
  rotateSigningSecret,
  sendTestNotification,
} from "@/lib/backoffice/notifications/notifications";
import { NOTIFICATION_URL_MAX_LENGTH, notificationUrlProblem, setNotificationUrl } from "@/lib/checkout/background/notification-url";
import { requestIp, type StaffContext } from "@/lib/identity/staff";
import { getEnv } from "@/lib/config/env";
import { getLocale } from "@/lib/i18n/server";
import { formAction } from "@/lib/validated-action";
import { safeText } from "@/lib/validation/text";

/*
 * The notification tools' actions: any staff member of the partner signed in with both factors
 * (staffAction; the back-office has no roles), on that partner's notifications and settings only.
 * Each one that sends or changes something records an audit event: ids and status codes, never a
 * URL's secret parts or a signing secret.
 */

async function audit(staff: StaffContext, event: Omit<Parameters<typeof recordAudit>[1], "partnerId" | "staff" | "ip">) {
  await recordAudit(staff.db, {
    ...event,
    partnerId: staff.partner.id,
    staff: { id: staff.user.id, name: staff.user.name },
    ip: await requestIp(),
  });
}

// ---------------------------------------------------------------------------------------------
// Resend

const resendValidated = staffAction(
  z.object({ notificationId: z.string().check(safeText()).min(1).max(100) }),
  async (staff, { notificationId }) => {
    const result = await resendNotification(staff.db, staff.partner.id, notificationId, { environment: getEnv().financing.environment });
    // Another partner's id is "not found", and recorded as a refusal against the staff member's own partner.
    await audit(staff, {
      kind: "notification_resent",
      result: !result.ok ? "refused" : result.result === "failed" ? "failed" : "ok",
      details: { notificationId, outcome: result.ok ? result.result : result.reason },
    });
    return result.ok ? result.result : result.reason;
  },
);

// Sent from an operation's page, the resend comes back to it: named by its id, never by a URL.
const returnTo = z.object({ operationId: operationIdField.optional() });

/** Sends a notification again (same webhook-id) and comes back to the page it was sent from, saying how it went. */
export async function resendNotificationAction(formData: FormData): Promise<void> {
  const outcome = await resendValidated(undefined, formData);
  const resent: ResendOutcome = typeof outcome === "string" ? outcome : "not_found";
  const back = returnTo.safeParse({ operationId: formData.get("operationId") ?? undefined });
  const operationId = back.success ? back.data.operationId : undefined;
  redirect(operationId ? `/admin/operations/${encodeURIComponent(operationId)}?resent=${resent}` : `/admin/notifications?resent=${resent}`);
}

// ---------------------------------------------------------------------------------------------
// Test notification

const testValidated = staffAction(
  z.object({}),
  async (staff) => {
    const { webhookId, outcome } = await sendTestNotification(staff.db, staff.partner.id, { environment: getEnv().financing.environment });
    await audit(staff, {
      kind: "notification_test_sent",
      result: outcome.ok ? "ok" : "failed",
      details: { notificationId: webhookId, statusCode: outcome.status, failure: outcome.ok ? null : outcome.failure },
    });
    return outcome;
  },
  { permission: "settings" },
);

export const testNotificationAction = formAction<TestNotificationState>()(testValidated, {
  invalid: () => ({ ok: false, failure: "network" }),
  valid: (outcome) => (outcome.ok ? { ok: true, status: outcome.status } : { ok: false, status: outcome.status, failure: outcome.failure }),
});

// ---------------------------------------------------------------------------------------------
// Notification URL

const urlValidated = staffAction(
  // Longer than allowed is said on the field (below), not refused as a malformed form.
  z.object({
    notificationUrl: z
      .string()
      .check(safeText())
      .max(NOTIFICATION_URL_MAX_LENGTH * 2)
      .default(""),
  }),
  async (staff, { notificationUrl }) => {
    const result = await setNotificationUrl(staff.db, staff.partner.id, notificationUrl, getEnv().financing.environment);
    await audit(staff, {
      kind: "notification_url_changed",
      result: result.ok ? "ok" : "refused",
      // Whether one is set, not the URL (it may carry a token of the partner's).
      details: result.ok ? { set: result.url !== null } : { reason: notificationUrlProblem(result.reason) },
    });
    return result.ok ? ({ saved: true, url: result.url ?? "" } as const) : ({ error: notificationUrlProblem(result.reason) } as const);
  },
  { permission: "settings" },
);

export const notificationUrlAction = formAction<NotificationUrlState>()(urlValidated, {
  invalid: (_issues, formData) => ({ url: typedUrl(formData).slice(0, NOTIFICATION_URL_MAX_LENGTH * 2), error: "invalid" }),
  valid: (outcome, formData) =>
    "error" in outcome ? { url: typedUrl(formData), error: outcome.error } : { saved: true, url: outcome.url },
});

function typedUrl(formData: FormData): string {
  return String(formData.get("notificationUrl") ?? "");
}

// ---------------------------------------------------------------------------------------------
// Signing secret rotation

const rotateValidated = staffAction(
  z.object({}),
  async (staff) => {
    const result = await rotateSigningSecret(staff.db, staff.partner.id);
    await audit(staff, {
      kind: "signing_secret_rotated",
      result: result.ok ? "ok" : "failed",
      details: result.ok ? { previousValidUntil: result.previousValidUntil?.toISOString() ?? null } : { reason: result.reason },
    });
    return result;
  },
  { permission: "settings" },
);

export const rotateSecretAction = formAction<RotateSecretState>()(rotateValidated, {
  invalid: () => ({ error: "failed" }),
  valid: async (result) => {
    if (!("secret" in result)) return { error: "failed" };
    const locale = await getLocale();
    return {
      secret: result.secret,
      previousValidUntil: result.previousValidUntil ? formatDateTime(result.previousValidUntil, locale) : undefined,
    };
  },
});
