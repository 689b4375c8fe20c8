"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { deleteStaffSession } from "@/lib/identity/staff-sessions";
import { openEnrolmentSession } from "@/lib/identity/second-factor-steps";
import { consumeLink, ENROLMENT_PURPOSES } from "@/lib/identity/links";
import { anyStaffSessionForAction, ENROL_PATH, requestIp, requestUserAgent, setStaffCookie } from "@/lib/identity/staff";
import { getAppContext } from "@/lib/app-context";
import { validatedAction } from "@/lib/validated-action";

/** Using a one-time enrolment link. */

// A one-time enrolment link: used on a post (a mail scanner's visit does not use it up), it opens
// a session that leads only to enrolment.

const linkValidated = validatedAction(z.object({ token: z.string().max(100) }), async ({ token }) => {
  const { db } = await getAppContext();
  const ip = await requestIp();
  const userId = await consumeLink(db, token, ENROLMENT_PURPOSES, { ip });
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
