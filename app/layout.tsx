import type { Metadata, Viewport } from "next";
import { getLocale, getMessages } from "@/lib/i18n/server";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const m = getMessages(await getLocale());
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
 * The locale here is the cookie's or the browser's: a layout cannot see the checkout session. A
 * checkout page whose session asks for another language marks its own content with `lang` and
 * corrects <html lang> in the browser (components/html-lang.tsx); the customer's choice in the
 * switcher sets the cookie, after which both agree.
 */
export default async function RootLayout({ children }: Readonly<{ children: React.ReactNode }>) {
  const locale = await getLocale();
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
