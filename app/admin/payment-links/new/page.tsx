import type { Metadata } from "next";
import { AdminPage } from "@/app/admin/admin-page";
import { PaymentLinkFormView, type PaymentLinkFormText } from "@/components/admin/payment-link-form";
import { Notice } from "@/components/ui/notice";
import { parseChargeCents } from "@/lib/backoffice/refunds/review";
import { requireStaff } from "@/lib/identity/staff";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { formatAmount } from "@/lib/i18n/format";
import { getPaymentLinkMessages } from "@/lib/i18n/payment-link-messages";
import { getLocale } from "@/lib/i18n/server";
import { createPaymentLinkAction } from "./actions";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  return { title: getPaymentLinkMessages(await getLocale()).meta.new };
}

/**
 * "New payment link": staff enter the booking and what they know of the customer, and
 * get the link to the checkout. `?amount=` (the simulator's "Create a payment link" from a quote)
 * fills in the total. Signed in with both factors only (requireStaff; the action checks it again).
 */
export default async function NewPaymentLinkPage({ searchParams }: Props) {
  const query = await searchParams;
  const amountText = typeof query.amount === "string" ? query.amount.trim().slice(0, 20) : undefined;
  const cents = amountText ? parseChargeCents(amountText) : undefined;
  const quoted = cents !== undefined && cents > 0 ? cents : undefined;
  const path = quoted ? `/admin/payment-links/new?amount=${encodeURIComponent(amountText!)}` : "/admin/payment-links/new";
  const staff = await requireStaff(path);
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const t = getPaymentLinkMessages(locale);
  const { meta: _meta, fromQuote: _fromQuote, fromSimulator: _fromSimulator, qrLabel: _qrLabel, states: _states, ...strings } = t;
  const text: PaymentLinkFormText = { ...strings, errorPrefix: m.common.errorPrefix, sending: m.common.sending };
  // The total as staff type it in their language (1234,50 or 1234.50).
  const total = quoted ? (quoted / 100).toFixed(2).replace(".", locale === "es" ? "," : ".") : "";

  return (
    <AdminPage staff={staff} locale={locale} m={m} path={path} section="paymentLinks">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold">{t.newTitle}</h1>
        <p className="text-muted">{t.newIntro}</p>
      </div>
      {quoted ? <Notice tone="info">{t.fromQuote(formatAmount({ cents: quoted, currency: "EUR" }, locale))}</Notice> : null}
      {staff.partner.defaultReturnUrl ? (
        <PaymentLinkFormView action={createPaymentLinkAction} page={path} initial={{ total, locale }} text={text} />
      ) : (
        <Notice tone="warning">{t.noReturnUrl}</Notice>
      )}
    </AdminPage>
  );
}
