import type { ComponentProps, ReactNode } from "react";
import { EmbedBridge } from "@/components/embed/embed-bridge";
import { PartnerTheme } from "@/components/theme/partner-theme";
import type { EmbedContext } from "@/lib/embed/context";
import type { Locale } from "@/lib/i18n/locales";
import type { Messages } from "@/lib/i18n/messages";
import type { Theme } from "@/lib/theme/theme";
import { CheckoutHeader } from "./checkout-header";

type BridgeProps = ComponentProps<typeof EmbedBridge>;

/** What the shell needs of a checkout page (app/checkout/[sessionId]/load-checkout.ts loads it). */
export interface CheckoutPageView {
  session: { id: string };
  /** Undefined when the session's partner is gone: the default look. */
  partner: { id: string } | undefined;
  partnerName: string;
  theme: Theme | undefined;
  locale: Locale;
  m: Messages;
  /** This page's address, where the language switcher comes back to (its path and what the page's query chose). */
  returnTo: string;
  embed: EmbedContext | undefined;
}

/**
 * Every checkout page: in its language (`lang`, the session's own), in the partner's colours,
 * telling the partner's page where the customer is when embedded (EmbedBridge), under the
 * checkout's banner, with the page's content as `main`.
 */
export function CheckoutShell({
  page: { session, partner, partnerName, theme, locale, m, returnTo, embed },
  step,
  bridge,
  children,
}: {
  page: CheckoutPageView;
  /** The progress bar's current step; none: no progress bar. */
  step: number | undefined;
  /** What to tell the partner's page, when embedded. */
  bridge: Omit<BridgeProps, "parentOrigin" | "sessionId">;
  children: ReactNode;
}) {
  return (
    <div lang={locale}>
      {partner ? <PartnerTheme partnerId={partner.id} theme={theme} /> : null}
      {embed ? <EmbedBridge parentOrigin={embed.parentOrigin} sessionId={session.id} {...bridge} /> : null}
      <CheckoutHeader
        partnerName={partnerName}
        logoUrl={theme?.logoUrl}
        locale={locale}
        messages={m}
        returnTo={returnTo}
        step={step}
        embed={embed}
      />
      <main id="main" tabIndex={-1} className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-6 sm:py-10">
        {children}
      </main>
    </div>
  );
}
