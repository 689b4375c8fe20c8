"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import type { MemberLinkState } from "@/components/admin/form-states";
import { formatDateTime } from "@/lib/backoffice/common/format";
import { staffCodeField } from "@/lib/identity/form-fields";
import { linkUrl } from "@/lib/identity/links";
import {
  changeMember,
  confirmSecondFactorReset,
  memberRoleField,
  removeMember,
  resetMemberSecondFactor,
  setMemberDisabled,
  type ConfirmResetResult,
} from "@/lib/identity/members";
import type { Locale } from "@/lib/i18n/locales";
import { reissueInvitation } from "@/lib/identity/member-invitations";
import { staffAction } from "@/lib/backoffice/staff-action";
import { formAction, type FormAnswer } from "@/lib/validated-action";
import { requestIp } from "@/lib/identity/staff";
import { getEnv } from "@/lib/config/env";
import { getLocale } from "@/lib/i18n/server";
import { getMailer } from "@/lib/mail/mailer";
import { safeText } from "@/lib/validation/text";

/** One member's management: role and refund, disable, enable, remove, second-factor reset, a new invitation. */

const memberId = z.string().check(safeText()).min(1).max(100);
const memberPage = (id: string, query: string) => `/admin/staff/${encodeURIComponent(id)}?${query}`;
const permission = { permission: "manage-staff" } as const;

const changeValidated = staffAction(
  z.object({ memberId, role: memberRoleField, canRefund: z.literal("on").optional(), canDataRequests: z.literal("on").optional() }),
  async (staff, input) =>
    changeMember(
      staff,
      input.memberId,
      { role: input.role, canRefund: input.canRefund === "on", canDataRequests: input.canDataRequests === "on" },
      { ip: await requestIp() },
    ),
  permission,
);

export async function changeMemberAction(formData: FormData): Promise<void> {
  const outcome = await changeValidated(undefined, formData);
  const id = String(formData.get("memberId") ?? "");
  // A hand-made form (no member, a forged id): the list, nothing done.
  if ("invalid" in outcome) redirect("/admin/staff?error=invalid");
  redirect(memberPage(id, outcome.ok ? "done=changed" : `error=${outcome.reason}`));
}

const disableValidated = staffAction(
  z.object({ memberId, disabled: z.enum(["1", "0"]) }),
  async (staff, input) => setMemberDisabled(staff, input.memberId, input.disabled === "1", { ip: await requestIp() }),
  permission,
);

export async function setMemberDisabledAction(formData: FormData): Promise<void> {
  const outcome = await disableValidated(undefined, formData);
  const id = String(formData.get("memberId") ?? "");
  // A hand-made form (no member, a forged id): the list, nothing done.
  if ("invalid" in outcome) redirect("/admin/staff?error=invalid");
  if (!outcome.ok) redirect(memberPage(id, `error=${outcome.reason}`));
  redirect(memberPage(id, formData.get("disabled") === "1" ? `done=disabled&ended=${outcome.endedSessions}` : "done=enabled"));
}

const removeValidated = staffAction(
  z.object({ memberId, confirm: z.literal("on") }),
  async (staff, input) => removeMember(staff, input.memberId, { ip: await requestIp() }),
  permission,
);

export async function removeMemberAction(formData: FormData): Promise<void> {
  const outcome = await removeValidated(undefined, formData);
  const id = String(formData.get("memberId") ?? "");
  // Not confirmed (the box unticked): back, nothing done.
  if ("invalid" in outcome) redirect(memberId.safeParse(id).success ? memberPage(id, "error=confirm") : "/admin/staff?error=invalid");
  if (!outcome.ok) redirect(memberPage(id, `error=${outcome.reason}`));
  redirect("/admin/staff?done=removed");
}

async function linkState(link: { token: string; expiresAt: Date }, ended: boolean): Promise<FormAnswer<MemberLinkState>> {
  return {
    link: linkUrl(getEnv().APP_URL, link.token, "invitation"),
    expires: formatDateTime(link.expiresAt, await getLocale()),
    ended,
  };
}

/** Resets a second factor (or requests it, or confirms a request): the new link e-mailed to the member when mail is configured. */
const resetWith = (reset: typeof resetMemberSecondFactor | typeof confirmSecondFactorReset) =>
  staffAction(
    z.object({ memberId, code: staffCodeField }),
    async (staff, input): Promise<FormAnswer<MemberLinkState>> => {
      const mailer = getMailer();
      const locale = await getLocale();
      const mail = mailer ? { mailer, appUrl: getEnv().APP_URL, locale, formatExpiry: formatDateTime } : undefined;
      return resetAnswer(await reset(staff, input.memberId, input.code, { ip: await requestIp(), mail }), locale);
    },
    permission,
  );

async function resetAnswer(result: ConfirmResetResult, locale: Locale): Promise<FormAnswer<MemberLinkState>> {
  if (!result.ok) return { error: result.reason };
  // Another administrator's: stored until a second administrator confirms it.
  if (result.delivery === "pending") return { requested: true };
  // E-mailed to the member: the administrator learns it went, never the link.
  if (result.delivery === "email") return { sent: true, ended: true, expires: formatDateTime(result.expiresAt, locale) };
  return { ...(await linkState(result.link, true)), shownBecause: result.delivery === "link" ? "no_mail" : "send_failed" };
}

const resetValidated = resetWith(resetMemberSecondFactor);
const confirmResetValidated = resetWith(confirmSecondFactorReset);

/** A member's new link, or why not. */
const memberLinkAnswers = { invalid: () => ({ error: "invalid" }), valid: (outcome: FormAnswer<MemberLinkState>) => outcome };

export const resetSecondFactorAction = formAction<MemberLinkState>()(resetValidated, memberLinkAnswers);
export const confirmSecondFactorResetAction = formAction<MemberLinkState>()(confirmResetValidated, memberLinkAnswers);

const reissueValidated = staffAction(
  z.object({ memberId }),
  async (staff, input): Promise<FormAnswer<MemberLinkState>> => {
    const result = await reissueInvitation(staff, input.memberId, { ip: await requestIp() });
    return result.ok ? linkState(result.link, false) : { error: result.reason };
  },
  permission,
);

export const reissueInvitationAction = formAction<MemberLinkState>()(reissueValidated, memberLinkAnswers);
