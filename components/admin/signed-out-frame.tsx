import type { ReactNode } from "react";

/**
 * A back-office page for someone not signed in (a one-time link, a forgotten password): the
 * back-office's name and nothing to navigate to, one narrow column under it.
 */
export function SignedOutFrame({ backOffice, children }: { backOffice: string; children: ReactNode }) {
  return (
    <>
      <header className="border-b border-divider bg-surface">
        <div className="mx-auto flex max-w-md px-4 py-2">
          <p className="py-2 font-bold text-brand">{backOffice}</p>
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto flex max-w-md flex-col gap-6 px-4 py-8 sm:py-12">
        {children}
      </main>
    </>
  );
}
