import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { BookingSummary } from "@/components/checkout/booking-summary";
import { CheckoutHeader } from "@/components/checkout/checkout-header";
import { CustomerForm } from "@/components/checkout/customer-form";
import { LinkButton } from "@/components/ui/link-button";
import { Notice } from "@/components/ui/notice";
import { EmbedBridge } from "@/components/embed/embed-bridge";
import { PartnerTheme } from "@/components/theme/partner-theme";
import { countryOptions } from "@/lib/checkout/countries";
import { guessDocumentType } from "@/lib/checkout/customer";
import { getCheckoutContext, getCustomerDraft, returnUrlFor } from "@/lib/checkout/flow";
import { partnerById } from "@/lib/checkout/partners";
import { getSession, sessionState } from "@/lib/checkout/sessions";
import { embedContext, embedFields, embedHref, embedLocaleHint } from "@/lib/embed/context";
import { getLocale, getMessages } from "@/lib/i18n/server";
import { partnerTheme } from "@/lib/theme/store";
import { submitCustomerForm } from "./actions";

/**
 * Step 2 of the flow (design.md §3): the booking, then the customer's data. A session that is
 * past this step sends the customer on (offers, or the status page).
 *
 * In the partner's colours (its theme), and, inside the partner's page (`?embed=<its origin>`),
 * in embedded mode: links keep the mode, and EmbedBridge tells the page where the customer is.
 */

type Props = {
  params: Promise<{ sessionId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const loadSession = cache(async (sessionId: string) => {
  const ctx = await getCheckoutContext();
  return { ctx, session: await getSession(ctx.db, sessionId) };
});

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { session } = await loadSession((await params).sessionId);
  const m = getMessages(embedLocaleHint(await searchParams) ?? (await getLocale(session?.locale)));
  return { title: m.meta.customerTitle, robots: { index: false, follow: false } };
}

export default async function CustomerPage({ params, searchParams }: Props) {
  const { sessionId } = await params;
  const { ctx, session } = await loadSession(sessionId);
  if (!session) notFound();

  const partner = await partnerById(ctx.db, session.partnerId);
  const embed = partner ? embedContext(await searchParams, partner.allowedOrigins) : undefined;
  const state = sessionState(session);
  if (state === "choosing") redirect(embedHref(`/checkout/${session.id}/offers`, embed));
  if (state !== "open" && state !== "expired") redirect(embedHref(`/checkout/${session.id}/status`, embed));

  const locale = embed?.locale ?? (await getLocale(session.locale));
  const m = getMessages(locale);
  const theme = partner ? partnerTheme(partner) : undefined;
  const partnerName = partner?.name ?? "";
  const path = `/checkout/${session.id}`;
  // The partner's prefill, or what the customer sent last (the data stays on the server).
  const prefill = state === "open" ? ((await getCustomerDraft(ctx.db, session.id))?.draft ?? {}) : {};

  return (
    <div lang={locale}>
      {partner ? <PartnerTheme partnerId={partner.id} theme={theme} /> : null}
      {embed ? (
        <EmbedBridge parentOrigin={embed.parentOrigin} sessionId={session.id} step="details" state={state} final={state === "expired"} />
      ) : null}
      <CheckoutHeader partnerName={partnerName} logoUrl={theme?.logoUrl} locale={locale} messages={m} returnTo={path} step={1} embed={embed} />
      <main id="main" tabIndex={-1} className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-6 sm:py-10">
        {state === "expired" ? (
          <>
            <h1 className="text-3xl font-bold">{m.form.expiredTitle}</h1>
            <Notice tone="warning">{m.form.expiredBody}</Notice>
            <div>
              <LinkButton href={returnUrlFor(session, state)} external target={embed ? "_top" : undefined}>
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
              permalink={embedHref(path, embed)}
              prefill={prefill}
              // Most customers are Spanish: with no number yet, DNI (guessDocumentType would say passport).
              documentType={prefill.documentId ? guessDocumentType(prefill.documentId) : "DNI"}
              countries={countryOptions(locale)}
              text={m.form}
              today={ctx.today()}
              statusHref={embedHref(`${path}/status`, embed)}
              hiddenFields={embedFields(embed)}
            >
              <BookingSummary booking={session.booking} locale={locale} messages={m} />
            </CustomerForm>
          </>
        )}
      </main>
    </div>
  );
}
