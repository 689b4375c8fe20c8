import Link from "next/link";
import type { ReactNode } from "react";
import { buttonClass, type ButtonLook } from "./button";

/** A link that looks like a button (the way forward or back), 44 px high. */
export function LinkButton({
  href,
  children,
  variant = "primary",
  stretch,
  external = false,
  target,
}: {
  href: string;
  children: ReactNode;
  variant?: ButtonLook["variant"];
  stretch?: boolean;
  /** Outside this app (the partner's site): a plain <a>, no client-side navigation. */
  external?: boolean;
  /**
   * `_top` in the embedded checkout for what must leave the frame (the partner's page, the
   * provider's checkout): a plain <a> that navigates the partner's whole page.
   */
  target?: "_top";
}) {
  const className = buttonClass({ variant, stretch });
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
