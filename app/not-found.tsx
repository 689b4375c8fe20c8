import { LinkButton } from "@/components/ui/link-button";
import { getLocale, getMessages } from "@/lib/i18n/server";

/**
 * An unknown or malformed checkout link, and any unknown address: say so kindly, and where to go
 * (styled, and CSP-safe, unlike Next's built-in page, which uses inline styles). One boundary, the
 * root's, for the checkout's pages too: Next renders every segment's not-found page into every
 * response of the segment, so a second one cost each checkout page a render for nothing.
 */
export default async function NotFound() {
  const locale = await getLocale();
  const m = getMessages(locale);
  return (
    <>
      <header className="border-b border-divider bg-surface">
        <p className="mx-auto max-w-2xl px-4 py-3 font-bold text-brand">{m.meta.appName}</p>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto flex max-w-2xl flex-col gap-4 px-4 py-10 sm:py-16">
        <h1 className="text-3xl font-bold">{m.notFound.title}</h1>
        <p className="text-lg">{m.notFound.body}</p>
        <div>
          <LinkButton href="/">{m.notFound.home}</LinkButton>
        </div>
      </main>
    </>
  );
}
