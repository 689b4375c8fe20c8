import type { Metadata } from "next";
import { PlainFrame } from "@/components/admin/plain-frame";
import { Notice } from "@/components/ui/notice";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextLink } from "@/components/ui/text-link";
import { ENROLMENT_PURPOSES, peekLink } from "@/lib/identity/links";
import { getAppContext } from "@/lib/app-context";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";
import { openEnrolmentLinkAction } from "./actions";

type Props = { params: Promise<{ token: string }> };

export async function generateMetadata(): Promise<Metadata> {
  return { title: getAdminMessages(await getLocale()).meta.enrolmentLink, referrer: "no-referrer" };
}

/**
 * A one-time enrolment link's page (the command line's, or an administrator's invitation). Opening it uses nothing (mail scanners open links too): the
 * button posts it, which opens a session for enrolment only, where the password and the second
 * factor are set up.
 */
export default async function EnrolmentLinkPage({ params }: Props) {
  const { token } = await params;
  const { db } = await getAppContext();
  const live = Boolean(await peekLink(db, token, ENROLMENT_PURPOSES));
  const m = getAdminMessages(await getLocale());
  const t = m.security;
  return (
    <PlainFrame m={m}>
      <h1 className="text-3xl font-bold">{t.linkTitle}</h1>
      {live ? (
        <section aria-label={t.linkTitle} className="flex flex-col gap-4 rounded-card bg-surface p-5 shadow-sm">
          <p>{t.linkIntro}</p>
          <form action={openEnrolmentLinkAction}>
            <input type="hidden" name="token" value={token} />
            <SubmitButton pendingLabel={t.linkContinuing}>{t.linkContinue}</SubmitButton>
          </form>
        </section>
      ) : (
        <>
          <Notice tone="warning">{t.linkInvalid}</Notice>
          <p>
            <TextLink href="/admin/login">{m.login.title}</TextLink>
          </p>
        </>
      )}
    </PlainFrame>
  );
}
