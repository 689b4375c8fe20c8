import type { ReactNode } from "react";

/**
 * The frame of a console page (the back-office, the operator console): who and where on the
 * left, the frame's actions on the right, the section navigation (and its tools) below, then the
 * page's main content, which the skip link targets.
 */
export function ConsoleFrame({
  title,
  subtitle,
  actions,
  nav,
  children,
}: {
  title: ReactNode;
  subtitle: ReactNode;
  actions: ReactNode;
  nav: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <header className="border-b border-divider bg-surface">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-2">
          <div className="min-w-0 py-1">
            <p className="font-bold text-brand">{title}</p>
            <p className="text-sm text-muted">{subtitle}</p>
          </div>
          {actions}
        </div>
        <div className="mx-auto flex max-w-6xl flex-wrap items-end justify-between gap-x-6 gap-y-3 px-4 pb-3">{nav}</div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6 sm:py-8">
        {children}
      </main>
    </>
  );
}
