"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { InviteState } from "@/components/admin/form-states";
import { formatDateTime } from "@/lib/backoffice/common/format";
import { linkUrl } from "@/lib/identity/links";
import { inviteMember, sendStaffLink } from "@/lib/identity/member-invitations";
import { memberEmailField, memberNameField, memberRoleField } from "@/lib/identity/members";
import { staffAction } from "@/lib/backoffice/staff-action";
import { requestIp } from "@/lib/identity/staff";
import { getEnv } from "@/lib/config/env";
import { getLocale } from "@/lib/i18n/server";
import { logError, loggerFor } from "@/lib/logger";
import { getMailer } from "@/lib/mail/mailer";
import { formAction, type FormAnswer } from "@/lib/validated-action";
import { safeText } from "@/lib/validation/text";

/** Inviting someone to the partner's staff (lib/identity/members.ts decides). */

const inviteSchema = z.object({
  // Checked below, each on its own, so the form says which one is wrong.
  email: z.string().check(safeText()).max(1000).default(""),
  name: z.string().check(safeText()).max(1000).default(""),
  role: memberRoleField.default("agent"),
  canRefund: z.literal("on").optional(),
  delivery: z.enum(["email", "link"]).default("link"),
});

const inviteValidated = staffAction(
  inviteSchema,
  async (staff, input): Promise<FormAnswer<InviteState>> => {
    const values = {
      email: input.email,
      name: input.name,
      role: input.role,
      canRefund: input.canRefund === "on",
      delivery: input.delivery,
    };
    const email = memberEmailField.safeParse(input.email);
    if (!email.success) return { error: "invalid_email", values };
    const name = memberNameField.safeParse(input.name);
    if (!name.success) return { error: "invalid_name", values };
    const mailer = getMailer();
    const delivery = input.delivery === "email" && mailer ? "email" : "link";
    const result = await inviteMember(
      staff,
      { email: email.data, name: name.data, role: input.role, canRefund: values.canRefund, delivery },
      { ip: await requestIp() },
    );
    if (!result.ok) return { error: result.reason, values };
    const locale = await getLocale();
    const link = linkUrl(getEnv().APP_URL, result.link.token, "invitation");
    const expires = formatDateTime(result.link.expiresAt, locale);
    // An address with an account elsewhere: the same answer; the e-mail (sent by inviteMember) says
    // it already has an account, and carries no link (its link opens nothing).
    if (result.accountElsewhere)
      return delivery === "email" ? { sentTo: email.data, expires, name: name.data } : { link, expires, name: name.data };
    if (delivery === "email" && mailer) {
      try {
        const { messageId } = await sendStaffLink(mailer, {
          to: email.data,
          kind: "invitation",
          locale,
          organisation: staff.partner.name,
          link,
          expiresAt: expires,
          fromName: staff.partner.name,
        });
        loggerFor("backoffice").info({ memberId: result.memberId, messageId }, "backoffice: invitation e-mailed");
        return { sentTo: email.data, expires, name: name.data };
      } catch (error) {
        // The member exists and the link works: the administrator hands it over instead.
        logError(loggerFor("backoffice"), "backoffice: the invitation e-mail could not be sent", error, { memberId: result.memberId });
        return { sentTo: email.data, sendFailed: true, link, expires, name: name.data };
      }
    }
    return { link, expires, name: name.data };
  },
  { permission: "manage-staff" },
);

export const inviteAction = formAction<InviteState>()(inviteValidated, {
  invalid: () => ({ error: "invalid" }),
  valid: (outcome) => {
    // The list above the form shows the new member along with the answer.
    if (!outcome.error) revalidatePath("/admin/staff");
    return outcome;
  },
});
