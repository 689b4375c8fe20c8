import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { PlainFrame } from "@/components/admin/plain-frame";
import { SecurityForm } from "@/components/admin/security/security-form";
import { Notice } from "@/components/ui/notice";
import { TextLink } from "@/components/ui/text-link";
import { codePath, homeFor, requireStaffSession } from "@/lib/identity/staff";
import { enrolmentSecret, totpQrSvg, totpUri } from "@/lib/identity/two-factor";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";
import { signOutAction } from "../../actions";
import { enrolAction } from "./actions";

const PATH = "/admin/security/two-factor";

export async function generateMetadata(): Promise<Metadata> {
  return { title: getAdminMessages(await getLocale()).meta.enrol };
}

/**
 * Enrolment in two-step verification, required before any page that moves money: a QR code drawn
 * on the server (SVG, no script), the key in text for typing, and the first code to confirm. The
 * recovery codes are shown once, in the form's answer.
 */
export default async function EnrolPage() {
  const staff = await requireStaffSession(PATH);
  // An operator's own account pages are their console's; a partner's staff go back to their security page.
  const back = staff.partner ? "/admin/security" : homeFor(staff.user.role);
  if (staff.stage === "code") redirect(codePath(back));
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const t = m.security;
  const enrolling = staff.stage === "enrol";
  // Already enrolled (and signed in with it): the page has nothing to set up; the form below only
  // shows the codes right after the confirmation that made the stage "full".
  // This session's own secret: another session of the account never sees it.
  const secret = enrolling ? await enrolmentSecret(staff.db, staff.session.tokenHash) : undefined;
  // Opened by an enrolment link: the password is chosen here too.
  const setsPassword = staff.session.enrolment === "link";
  const svg = secret ? await totpQrSvg(totpUri(secret, staff.user.email)) : undefined;
  return (
    <PlainFrame m={m} actions={{ locale, path: PATH, signOut: signOutAction }}>
      <h1 className="text-3xl font-bold">{t.enrolTitle}</h1>
      {enrolling ? <Notice tone="warning">{t.enrolRequired}</Notice> : null}
      {/*
        One SecurityForm at one place in the tree, whether the page shows the QR code or not: the
        confirmation sets a new session cookie, the page is drawn again as signed in, and the form
        must keep its answer (the recovery codes, shown once) through that.
      */}
      <section
        aria-label={t.enrolTitle}
        className={secret ? "flex flex-col gap-4 rounded-card bg-surface p-5 shadow-sm" : "flex flex-col gap-4"}
      >
        {secret && svg ? (
          <>
            {setsPassword ? <p>{t.enrolPassword}</p> : null}
            <p>{t.scan}</p>
            {/* Our own SVG, made by the qrcode package from the otpauth URI: paths only, no script. */}
            <div role="img" aria-label={t.qrLabel} className="mx-auto w-56 bg-white" dangerouslySetInnerHTML={{ __html: svg }} />
            <p>{t.manual}</p>
            <p className="font-mono text-lg break-all" data-testid="totp-secret">
              {secret.match(/.{1,4}/g)?.join(" ")}
            </p>
          </>
        ) : null}
        <SecurityForm
          action={enrolAction}
          page={PATH}
          fields={
            secret
              ? [
                  ...(setsPassword
                    ? [
                        {
                          name: "password",
                          label: t.newPassword,
                          hint: t.newPasswordHint,
                          type: "password" as const,
                          autoComplete: "new-password",
                        },
                        { name: "confirm", label: t.confirm, type: "password" as const, autoComplete: "new-password" },
                      ]
                    : []),
                  {
                    name: "code",
                    label: m.secondFactor.code,
                    hint: m.secondFactor.codeHint,
                    type: "text" as const,
                    autoComplete: "one-time-code",
                    code: true,
                  },
                ]
              : []
          }
          text={t.enrolForm}
          continueHref={homeFor(staff.user.role)}
        />
      </section>
      {secret ? null : (
        <p>
          <TextLink href={back}>{t.back}</TextLink>
        </p>
      )}
    </PlainFrame>
  );
}
