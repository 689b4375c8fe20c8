"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import type { SecurityFormState } from "@/components/admin/form-states";
import { recordAudit } from "@/lib/backoffice/audit/audit";
import {
  changePassword,
  checkCurrentPassword,
  completeEnrolment,
  completeSecondFactor,
  deleteOtherStaffSessions,
  deleteStaffSession,
  openEnrolmentSession,
  turnOffSecondFactor,
} from "@/lib/backoffice/staff/auth";
import { consumeLink } from "@/lib/backoffice/staff/links";
import {
  anyStaffSessionForAction,
  clearStaffCookie,
  codePath,
  ENROL_PATH,
  isAdminPath,
  requestIp,
  requestUserAgent,
  setStaffCookie,
  staffForAction,
  type StaffContext,
} from "@/lib/backoffice/staff/staff";
import { getAppContext } from "@/lib/app-context";
import { validatedAction } from "@/lib/validated-action";
import { safeText } from "@/lib/validation/text";

/*
 * The second step of the sign-in, enrolment in two-step verification, the password change and the
 * sessions list's "sign out everywhere else". Each validates its form with zod first; the sign-in's
 * second step and enrolment accept a session still waiting for its second factor, the others only
 * a session signed in with both. Nothing here logs or records a password or a code.
 */

const code = z.string().check(safeText()).max(40).default("");
const password = z.string().max(1000).default("");

function who(staff: StaffContext, ip: string) {
  return { partnerId: staff.partner.id, staff: { id: staff.user.id, name: staff.user.name }, ip };
}

// ---------------------------------------------------------------------------------------------
// The sign-in's second step

const secondFactorValidated = validatedAction(
  z.object({ code, next: z.string().check(safeText()).max(1000).optional() }),
  async ({ code, next }) => {
    const staff = await anyStaffSessionForAction();
    const target = isAdminPath(next) ? next : "/admin";
    if (!staff) return { redirect: "/admin/login" } as const;
    if (staff.stage === "enrol") return { redirect: ENROL_PATH } as const;
    if (staff.stage === "full") return { redirect: target } as const;
    if (code.trim() === "") return { error: "missing" } as const;
    const result = await completeSecondFactor(staff.db, staff, code.trim(), await requestIp());
    if (result.ok) {
      // Signed in with both factors: a new token, the one from the password step is dead.
      await setStaffCookie(result.token);
      return { redirect: target } as const;
    }
    if (result.reason === "ended") {
      await clearStaffCookie();
      return { redirect: "/admin/login?codes=ended" } as const;
    }
    return { error: result.reason } as const;
  },
);

export async function secondFactorAction(previous: SecurityFormState, formData: FormData): Promise<SecurityFormState> {
  const submission = (previous?.submission ?? 0) + 1;
  const outcome = await secondFactorValidated(previous, formData);
  if ("invalid" in outcome) return { submission, error: "invalid" };
  if (outcome.redirect) redirect(outcome.redirect);
  return { submission, error: outcome.error };
}

// ---------------------------------------------------------------------------------------------
// Enrolment

const enrolValidated = validatedAction(z.object({ code, password: password, confirm: password }), async (input) => {
  const staff = await anyStaffSessionForAction();
  if (!staff) return { redirect: "/admin/login" } as const;
  // Someone enrolled already: the second factor they have first (a password alone never re-enrols).
  if (staff.stage === "code") return { redirect: codePath("/admin/security") } as const;
  if (staff.stage === "full") return { redirect: "/admin/security" } as const;
  const result = await completeEnrolment(staff.db, staff, { ...input, code: input.code.trim() }, await requestIp());
  if (!result.ok) return { error: result.reason === "not_allowed" ? "invalid" : result.reason } as const;
  // Just proven: the app has the secret. Signed in with both factors, on a new token.
  await setStaffCookie(result.token);
  return { codes: result.recoveryCodes } as const;
});

export async function enrolAction(previous: SecurityFormState, formData: FormData): Promise<SecurityFormState> {
  const submission = (previous?.submission ?? 0) + 1;
  const outcome = await enrolValidated(previous, formData);
  if ("invalid" in outcome) return { submission, error: "invalid" };
  if (outcome.redirect) redirect(outcome.redirect);
  if (outcome.codes) return { submission, recoveryCodes: outcome.codes };
  return { submission, error: outcome.error };
}

// ---------------------------------------------------------------------------------------------
// A one-time enrolment link: used on a post (a mail scanner's visit does not use it up), it opens
// a session that leads only to enrolment.

const linkValidated = validatedAction(z.object({ token: z.string().max(100) }), async ({ token }) => {
  const { db } = await getAppContext();
  const ip = await requestIp();
  const userId = await consumeLink(db, token, "enrolment", { ip });
  if (!userId) return { ok: false } as const;
  const previous = await anyStaffSessionForAction();
  if (previous) await deleteStaffSession(db, previous.token);
  await setStaffCookie(await openEnrolmentSession(db, userId, { ip, userAgent: await requestUserAgent() }));
  return { ok: true } as const;
});

export async function openEnrolmentLinkAction(formData: FormData): Promise<void> {
  const outcome = await linkValidated(undefined, formData);
  if ("invalid" in outcome || !outcome.ok) redirect("/admin/login/link/used");
  redirect(ENROL_PATH);
}

// ---------------------------------------------------------------------------------------------
// Password change (ends the other sessions)

const passwordValidated = validatedAction(z.object({ current: password, next: password, confirm: password }), async (input) => {
  const staff = await staffForAction();
  if (!staff) return { redirect: "/admin/login" } as const;
  const result = await changePassword(staff.db, staff, input, await requestIp());
  if (!result.ok && result.reason === "ended") {
    await clearStaffCookie();
    return { redirect: "/admin/login?password=ended" } as const;
  }
  if (!result.ok) return { error: result.reason } as const;
  return { redirect: `/admin/security?password=changed&ended=${result.endedSessions}` } as const;
});

export async function changePasswordAction(previous: SecurityFormState, formData: FormData): Promise<SecurityFormState> {
  const submission = (previous?.submission ?? 0) + 1;
  const outcome = await passwordValidated(previous, formData);
  if ("invalid" in outcome) return { submission, error: "invalid" };
  if (outcome.redirect) redirect(outcome.redirect);
  return { submission, error: outcome.error };
}

// ---------------------------------------------------------------------------------------------
// Sign out everywhere else

const signOutOthersValidated = validatedAction(z.object({}), async () => {
  const staff = await staffForAction();
  if (!staff) return "/admin/login";
  const ended = await deleteOtherStaffSessions(staff.db, staff.user.id, staff.token);
  await recordAudit(staff.db, {
    kind: "sessions_revoked",
    result: "ok",
    ...who(staff, await requestIp()),
    details: { endedSessions: ended },
  });
  return `/admin/security?ended=${ended}`;
});

export async function signOutOthersAction(formData: FormData): Promise<void> {
  const outcome = await signOutOthersValidated(undefined, formData);
  redirect(typeof outcome === "string" ? outcome : "/admin/security");
}

// ---------------------------------------------------------------------------------------------
// Turning two-step verification off (to set it up again, on a new phone say)

const disableValidated = validatedAction(z.object({ password }), async (input) => {
  const staff = await staffForAction();
  if (!staff) return "/admin/login";
  const ip = await requestIp();
  const current = await checkCurrentPassword(staff.db, staff, input.password);
  if (current !== "ok") {
    await recordAudit(staff.db, {
      kind: "two_factor_disabled",
      result: "refused",
      ...who(staff, ip),
      details: { reason: current === "ended" ? "ended" : "wrong_password" },
    });
    if (current === "wrong") return "/admin/security?disable=refused";
    await clearStaffCookie();
    return "/admin/login?password=ended";
  }
  const endedSessions = await turnOffSecondFactor(staff.db, staff);
  await recordAudit(staff.db, { kind: "two_factor_disabled", result: "ok", ...who(staff, ip), details: { endedSessions } });
  return ENROL_PATH;
});

export async function disableTwoFactorAction(formData: FormData): Promise<void> {
  const outcome = await disableValidated(undefined, formData);
  redirect(typeof outcome === "string" ? outcome : "/admin/security");
}
