import type { Metadata, Viewport } from "next";
import { getLocale, getMessages } from "@/lib/i18n/server";
import { noteRequestLocale } from "@/lib/ops/error-pages";
import { checkoutPageLocale } from "./checkout/[sessionId]/load-checkout";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const m = getMessages((await checkoutPageLocale()) ?? (await getLocale()));
  return {
    title: { default: m.meta.appName, template: `%s · ${m.meta.appName}` },
    description: m.meta.description,
    icons: { icon: "/favicon.svg" },
  };
}

export const viewport: Viewport = {
  width: "device-width",
  initialScale: 1,
};

/*
 * The locale here is the checkout page's (its session's, or the embedding partner's; proxy.ts hands
 * the layout the page's path and query), else the cookie's or the browser's. The checkout's content
 * also carries its own `lang`, and components/html-lang.tsx keeps <html lang> in step after
 * client-side navigations.
 */
export default async function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  const locale = (await checkoutPageLocale()) ?? (await getLocale());
  // Should the page fail, its error page (lib/ops/error-pages.ts) speaks the same language.
  noteRequestLocale(locale);
  const m = getMessages(locale);
  return (
    <html lang={locale}>
      <body className="min-h-dvh font-sans antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-surface focus:px-4 focus:py-3 focus:font-semibold focus:text-brand focus:shadow"
        >
          {m.common.skipToContent}
        </a>
        {children}
      </body>
    </html>
  );
}
