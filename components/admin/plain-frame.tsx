import type { ReactNode } from "react";
import type { AdminMessages } from "@/lib/i18n/admin-messages";
import type { Locale } from "@/lib/i18n/locales";
import { FrameActions } from "./frame-actions";

/**
 * The frame of the back-office's pages outside its sections: a session not yet signed in with both
 * factors (the second step, enrolment) gets the language and signing out (`actions`); someone not
 * signed in at all (a one-time link, a forgotten password) gets the back-office's name alone.
 */
export function PlainFrame({
  m,
  actions,
  children,
}: {
  m: AdminMessages;
  actions?: { locale: Locale; path: string; signOut: (formData: FormData) => Promise<void> };
  children: ReactNode;
}) {
  return (
    <>
      <header className="border-b border-divider bg-surface">
        <div className="mx-auto flex max-w-md flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-2">
          <p className="py-2 font-bold text-brand">{m.common.backOffice}</p>
          {actions ? <FrameActions m={m} {...actions} /> : null}
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto flex max-w-md flex-col gap-6 px-4 py-8 sm:py-12">
        {children}
      </main>
    </>
  );
}
