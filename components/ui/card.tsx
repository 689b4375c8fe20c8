import type { ReactNode } from "react";

/** A titled section on a surface: the building block of the checkout's and back-office's pages. */
export function Card({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-card bg-surface p-5 shadow-sm">
      <h2 id={id} className="mb-3 text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
