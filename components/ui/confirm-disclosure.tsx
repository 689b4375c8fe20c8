import type { ReactNode } from "react";
import { buttonClass } from "./button";

/**
 * An action that cannot simply be taken back (revoking a secret, disabling a partner), one step
 * away: the first press opens what it will do and the button that does it, so nothing happens on
 * one click and the person reads the consequence first. A <details>: it works without JavaScript.
 */
export function ConfirmDisclosure({
  summary,
  summaryLabel,
  consequence,
  children,
}: {
  summary: string;
  /** Its accessible name when the visible words need their context ("Revoke Production backend"). */
  summaryLabel?: string;
  consequence: string;
  children: ReactNode;
}) {
  return (
    <details className="group flex flex-col">
      <summary aria-label={summaryLabel} className={`${buttonClass({ variant: "secondary", stretch: false })} cursor-pointer list-none`}>
        {summary}
      </summary>
      <div className="mt-2 flex max-w-md flex-col gap-2 rounded-md border-2 border-warning bg-warning-soft p-3">
        <p>{consequence}</p>
        {children}
      </div>
    </details>
  );
}
