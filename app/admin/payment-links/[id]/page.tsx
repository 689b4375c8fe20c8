import type { Metadata } from "next";
import { AdminPage } from "@/app/admin/admin-page";
import { CopyLink } from "@/components/admin/copy-link";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmailField, SelectField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { TextLink } from "@/components/ui/text-link";
import { formatDateTime } from "@/lib/backoffice/common/format";
import { getPaymentLink } from "@/lib/backoffice/payment-links/payment-links";
import { qrSvg } from "@/lib/text/qr";
import { requireStaff } from "@/lib/identity/staff";
import { getAppContext } from "@/lib/app-context";
import { getEnv } from "@/lib/config/env";
import { centsFromAmount } from "@/lib/financing/money";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { formatAmount } from "@/lib/i18n/format";
import { getPaymentLinkMessages } from "@/lib/i18n/payment-link-messages";
import { getLocale } from "@/lib/i18n/server";
import { revokePaymentLinkAction, sendPaymentLinkAction } from "./actions";
import type { IdPageProps } from "@/lib/http/page-props";

export async function generateMetadata(): Promise<Metadata> {
  return { title: getPaymentLinkMessages(await getLocale()).meta.link };
}

const NOTICES = [
  "created",
  "existing",
  "sent",
  "revoked",
  "not_revocable",
  "email_invalid",
  "email_failed",
  "email_not_open",
  "email_not_configured",
  "email_needs_confirmation",
  "email_rate_limited",
] as const;
type NoticeKey = (typeof NOTICES)[number];

/**
 * One payment link: the link with a copy button, its QR code (SVG drawn on the server), the booking,
 * its state and who created it; sending it by e-mail when SMTP is configured; revoking it while the
 * customer has not sent their details. Only the partner's own: another's is "not found".
 */
export default async function PaymentLinkPage({ params, searchParams }: IdPageProps) {
  const { id } = await params;
  const query = await searchParams;
  const path = `/admin/payment-links/${encodeURIComponent(id)}`;
  const staff = await requireStaff(path);
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const t = getPaymentLinkMessages(locale);
  const ctx = await getAppContext();
  const link = await getPaymentLink(staff.db, staff.partner.id, ctx.appUrl, id);
  const notice = NOTICES.find((key) => key === query.notice) as NoticeKey | undefined;

  if (!link) {
    return (
      <AdminPage staff={staff} locale={locale} m={m} path={path} section="paymentLinks">
        <h1 className="text-3xl font-bold">{t.linkTitle}</h1>
        <Notice tone="warning">{t.notFound}</Notice>
        <p>
          <TextLink href="/admin/payment-links/new">{t.newAnother}</TextLink>
        </p>
      </AdminPage>
    );
  }

  const { session } = link;
  const svg = await qrSvg(link.url);
  const smtp = Boolean(getEnv().smtp);
  const amount = formatAmount(
    { cents: centsFromAmount(session.booking.totalPrice.amount), currency: session.booking.totalPrice.currency },
    locale,
  );
  const stateText = session.revokedAt ? t.revokedState : t.states[link.state];
  const creator = link.creator ? (link.creator.name ?? t.unknownStaff) : t.createdByApi;
  const noticeText: Record<NoticeKey, { tone: "success" | "info" | "warning" | "error"; text: string }> = {
    created: { tone: "success", text: t.created },
    existing: { tone: "info", text: t.existing },
    sent: { tone: "success", text: t.emailSent },
    revoked: { tone: "success", text: t.revoked },
    not_revocable: { tone: "warning", text: t.notRevocable },
    email_invalid: { tone: "error", text: t.emailInvalid },
    email_failed: { tone: "error", text: t.emailFailed },
    email_not_open: { tone: "warning", text: t.emailNotOpen },
    email_not_configured: { tone: "warning", text: t.noSmtp },
    email_needs_confirmation: { tone: "warning", text: t.emailNeedsConfirmation },
    email_rate_limited: { tone: "warning", text: t.emailRateLimited },
  };

  return (
    <AdminPage staff={staff} locale={locale} m={m} path={path} section="paymentLinks">
      <h1 className="text-3xl font-bold">{t.linkTitle}</h1>
      {notice ? (
        <Notice tone={noticeText[notice].tone} live>
          {noticeText[notice].text}
        </Notice>
      ) : null}

      {link.customerErased ? <Notice tone="info">{t.customerErased}</Notice> : null}
      {link.state === "open" ? (
        <section aria-labelledby="link-heading" className="flex flex-col gap-4 rounded-card bg-surface p-4 shadow-sm sm:p-5">
          <h2 id="link-heading" className="text-xl font-semibold">
            {t.linkLabel}
          </h2>
          <CopyLink url={link.url} label={t.linkLabel} text={{ copy: t.copy, copied: t.copied, copyFailed: t.copyFailed }} />
          <div className="flex flex-col items-start gap-2">
            {/* Our own SVG, made by the qrcode package from the link: paths only, no script. */}
            <div
              role="img"
              aria-label={t.qrLabel(session.bookingReference)}
              className="w-56 bg-white"
              dangerouslySetInnerHTML={{ __html: svg }}
            />
            <p className="text-muted">{t.qrHint}</p>
          </div>
        </section>
      ) : null}

      <Card title={t.details} id="details-heading">
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1">
          <dt className="text-muted">{t.reference}</dt>
          <dd>{session.bookingReference}</dd>
          <dt className="text-muted">{t.trip}</dt>
          <dd>{session.booking.packageName}</dd>
          <dt className="text-muted">{t.amount}</dt>
          <dd className="tabular-nums">{amount}</dd>
          <dt className="text-muted">{t.state}</dt>
          <dd data-testid="link-state">{stateText}</dd>
          <dt className="text-muted">{t.createdBy}</dt>
          <dd data-testid="link-created-by">{creator}</dd>
          <dt className="text-muted">{t.expires}</dt>
          <dd>{formatDateTime(session.expiresAt, locale)}</dd>
        </dl>
        {session.operationId ? (
          <p className="mt-3">
            <TextLink
              href={`/admin/operations/${encodeURIComponent(session.operationId)}?ref=${encodeURIComponent(session.bookingReference)}`}
            >
              {t.operationLink}
            </TextLink>
          </p>
        ) : null}
      </Card>

      {link.state === "open" ? (
        <section aria-labelledby="email-heading" className="flex flex-col gap-3 rounded-card bg-surface p-4 shadow-sm sm:p-5">
          <h2 id="email-heading" className="text-xl font-semibold">
            {t.emailHeading}
          </h2>
          {smtp ? (
            // noValidate: the server checks the address and says what is wrong, in the page's language.
            <form action={sendPaymentLinkAction} noValidate className="flex flex-col gap-3">
              <input type="hidden" name="sessionId" value={session.id} />
              <p className="text-muted">{t.emailHint}</p>
              <div className="grid gap-3 sm:grid-cols-2">
                <EmailField name="to" label={t.emailTo} autoComplete="off" defaultValue={link.prefilledEmail ?? ""} />
                <SelectField
                  name="locale"
                  label={t.emailLocale}
                  defaultValue={session.locale ?? locale}
                  options={Object.entries(t.locales).map(([value, label]) => ({ value, label }))}
                />
              </div>
              {/* Another address than the booking's: sent only once staff say they checked it. */}
              <label className="flex min-h-11 items-center gap-3">
                <input type="checkbox" name="confirmRecipient" value="1" className="size-5" />
                {t.emailConfirm}
              </label>
              <div>
                <Button stretch={false}>{t.emailSend}</Button>
              </div>
            </form>
          ) : (
            <Notice tone="info">{t.noSmtp}</Notice>
          )}
        </section>
      ) : null}

      {link.revocable ? (
        <section aria-labelledby="revoke-heading" className="flex flex-col gap-3 rounded-card bg-surface p-4 shadow-sm sm:p-5">
          <h2 id="revoke-heading" className="text-xl font-semibold">
            {t.revokeHeading}
          </h2>
          <p className="text-muted">{t.revokeHint}</p>
          <form action={revokePaymentLinkAction}>
            <input type="hidden" name="sessionId" value={session.id} />
            <Button variant="secondary" stretch={false}>
              {t.revoke}
            </Button>
          </form>
        </section>
      ) : null}

      <p>
        <TextLink href="/admin/payment-links/new">{t.newAnother}</TextLink>
      </p>
    </AdminPage>
  );
}
