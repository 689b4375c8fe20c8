import Link from "next/link";
import type { ReactNode } from "react";

const LOOKS = {
  primary: "bg-brand text-brand-contrast hover:bg-brand-strong",
  secondary: "border-2 border-brand bg-surface text-brand hover:bg-brand-soft",
} as const;

/** A link that looks like a button (the way forward or back), 44 px high. */
export function LinkButton({
  href,
  children,
  variant = "primary",
  external = false,
  target,
}: {
  href: string;
  children: ReactNode;
  variant?: keyof typeof LOOKS;
  /** Outside this app (the partner's site): a plain <a>, no client-side navigation. */
  external?: boolean;
  /**
   * `_top` in the embedded checkout for what must leave the frame (the partner's page, the
   * provider's checkout): a plain <a> that navigates the partner's whole page.
   */
  target?: "_top";
}) {
  const className = `inline-flex min-h-11 w-full items-center justify-center rounded-lg px-5 py-2 text-center text-base font-semibold no-underline sm:w-auto ${LOOKS[variant]}`;
  return external || target ? (
    <a href={href} className={className} target={target}>
      {children}
    </a>
  ) : (
    <Link href={href} className={className}>
      {children}
    </Link>
  );
}
