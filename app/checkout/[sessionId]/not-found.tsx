import { LinkButton } from "@/components/ui/link-button";
import { getLocale, getMessages } from "@/lib/i18n/server";

/** An unknown or malformed checkout link: say so kindly, and where to go. */
export default async function CheckoutNotFound() {
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
