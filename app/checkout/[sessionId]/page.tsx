import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { BookingSummary } from "@/components/checkout/booking-summary";
import { CheckoutHeader } from "@/components/checkout/checkout-header";
import { CustomerForm } from "@/components/checkout/customer-form";
import { LinkButton } from "@/components/checkout/link-button";
import { Notice } from "@/components/checkout/notice";
import { countryOptions } from "@/lib/checkout/countries";
import { guessDocumentType } from "@/lib/checkout/customer";
import { getCheckoutContext, getCustomerDraft, returnUrlFor } from "@/lib/checkout/flow";
import { partnerById } from "@/lib/checkout/partners";
import { getSession, sessionState } from "@/lib/checkout/sessions";
import { getLocale, getMessages } from "@/lib/i18n/server";
import { submitCustomerForm } from "./actions";

/**
 * Step 2 of the flow (design.md §3): the booking, then the customer's data. A session that is
 * past this step sends the customer on (offers, or the status page).
 */

type Props = { params: Promise<{ sessionId: string }> };

const loadSession = cache(async (sessionId: string) => {
  const ctx = await getCheckoutContext();
  return { ctx, session: await getSession(ctx.db, sessionId) };
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { session } = await loadSession((await params).sessionId);
  const m = getMessages(await getLocale(session?.locale));
  return { title: m.meta.customerTitle, robots: { index: false, follow: false } };
}

export default async function CustomerPage({ params }: Props) {
  const { sessionId } = await params;
  const { ctx, session } = await loadSession(sessionId);
  if (!session) notFound();

  const state = sessionState(session);
  if (state === "choosing") redirect(`/checkout/${session.id}/offers`);
  if (state !== "open" && state !== "expired") redirect(`/checkout/${session.id}/status`);

  const locale = await getLocale(session.locale);
  const m = getMessages(locale);
  const partner = await partnerById(ctx.db, session.partnerId);
  const partnerName = partner?.name ?? "";
  const path = `/checkout/${session.id}`;
  // The partner's prefill, or what the customer sent last (the data stays on the server).
  const prefill = state === "open" ? ((await getCustomerDraft(ctx.db, session.id))?.draft ?? {}) : {};

  return (
    <div lang={locale}>
      <CheckoutHeader partnerName={partnerName} locale={locale} messages={m} returnTo={path} step={1} />
      <main id="main" tabIndex={-1} className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-6 sm:py-10">
        {state === "expired" ? (
          <>
            <h1 className="text-3xl font-bold">{m.form.expiredTitle}</h1>
            <Notice tone="warning">{m.form.expiredBody}</Notice>
            <div>
              <LinkButton href={returnUrlFor(session, state)} external>
                {m.common.payAnotherWay(partnerName)}
              </LinkButton>
            </div>
          </>
        ) : (
          <>
            <div className="flex flex-col gap-2">
              <h1 className="text-3xl font-bold">{m.form.title}</h1>
              <p className="text-muted">{m.form.intro}</p>
            </div>
            <CustomerForm
              action={submitCustomerForm}
              sessionId={session.id}
              permalink={path}
              prefill={prefill}
              // Most customers are Spanish: with no number yet, DNI (guessDocumentType would say passport).
              documentType={prefill.documentId ? guessDocumentType(prefill.documentId) : "DNI"}
              countries={countryOptions(locale)}
              text={m.form}
              today={ctx.today()}
              statusHref={`${path}/status`}
            >
              <BookingSummary booking={session.booking} locale={locale} messages={m} />
            </CustomerForm>
          </>
        )}
      </main>
    </div>
  );
}
