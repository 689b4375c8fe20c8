"use client";

import type { ReactNode } from "react";
import { useFormStatus } from "react-dom";
import { buttonClass } from "./button";

/**
 * A form's submit button that is disabled while its form is being sent, so a second tap sends
 * nothing (the server also ignores a repeat). Without JavaScript it is a plain submit button.
 */
export function SubmitButton({
  children,
  pendingLabel,
  variant = "primary",
  label,
  size,
}: {
  children: ReactNode;
  pendingLabel: string;
  variant?: "primary" | "secondary";
  /**
   * The accessible name when the visible words need their context ("Choose this plan: 12
   * installments with …"): it starts with the visible words, so speech input finds the button.
   */
  label?: string;
  /** `sm` where the button shares a narrow column (the offers' comparison): as wide as the column. */
  size?: "md" | "sm";
}) {
  const { pending } = useFormStatus();
  return (
    <button
      type="submit"
      disabled={pending}
      aria-label={pending ? undefined : label}
      className={size === "sm" ? `${buttonClass({ variant, size, stretch: false })} w-full` : buttonClass({ variant })}
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

/**
 * The submit button that closes a form, in a block of its own: the forms are flex columns, which
 * would stretch a button standing directly in them to the column's width.
 */
export function SubmitRow(props: Parameters<typeof SubmitButton>[0]) {
  return (
    <div>
      <SubmitButton {...props} />
    </div>
  );
}
