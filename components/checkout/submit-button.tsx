"use client";

import type { ReactNode } from "react";
import { useFormStatus } from "react-dom";

/**
 * A form's submit button that is disabled while its form is being sent, so a second tap sends
 * nothing (the server also ignores a repeat). Without JavaScript it is a plain submit button.
 */
export function SubmitButton({
  children,
  pendingLabel,
  variant = "primary",
}: {
  children: ReactNode;
  pendingLabel: string;
  variant?: "primary" | "secondary";
}) {
  const { pending } = useFormStatus();
  const look =
    variant === "primary"
      ? "bg-brand text-brand-contrast hover:bg-brand-strong"
      : "border-2 border-brand bg-surface text-brand hover:bg-brand-soft";
  return (
    <button
      type="submit"
      disabled={pending}
      className={`inline-flex min-h-11 w-full items-center justify-center rounded-lg px-5 py-2 text-base font-semibold disabled:cursor-progress disabled:opacity-70 sm:w-auto ${look}`}
    >
      {pending ? (
        <span role="status" className="inline-flex items-center gap-2">
          <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-current border-r-transparent" />
          {pendingLabel}
        </span>
      ) : (
        children
      )}
    </button>
  );
}
