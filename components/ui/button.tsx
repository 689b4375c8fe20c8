import type { ButtonHTMLAttributes } from "react";
import { cx } from "./cx";

const VARIANTS = {
  primary: "bg-brand text-brand-contrast hover:bg-brand-strong",
  secondary: "border-2 border-brand bg-surface text-brand hover:bg-brand-soft",
} as const;

const SIZES = {
  /** The way forward: a page's main actions. */
  md: "rounded-lg px-5 py-2 text-base",
  /** A toolbar's (the back-office header's). */
  sm: "rounded-md px-3 text-sm",
} as const;

export interface ButtonLook {
  variant?: keyof typeof VARIANTS;
  size?: keyof typeof SIZES;
  /** As wide as the screen on a phone (an easy target), as wide as its text from `sm` up. */
  stretch?: boolean;
}

/** The one look of buttons and of links that act as buttons: 44 px high at least. */
export function buttonClass({ variant = "primary", size = "md", stretch = size === "md" }: ButtonLook = {}): string {
  return cx(
    "inline-flex min-h-11 items-center justify-center text-center font-semibold no-underline disabled:cursor-progress disabled:opacity-70",
    SIZES[size],
    stretch && "w-full sm:w-auto",
    VARIANTS[variant],
  );
}

/** A plain button (a GET form's submit, or a form posting to a server action with no pending state). */
export function Button({
  variant,
  size,
  stretch,
  type = "submit",
  className,
  ...button
}: ButtonLook & ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button type={type} className={cx(buttonClass({ variant, size, stretch }), className)} {...button} />;
}
