import Link from "next/link";
import type { ReactNode } from "react";
import { cx } from "./cx";

/** The look of a link in running text or beside a form: the brand colour, underlined. */
export const TEXT_LINK = "font-semibold text-brand underline underline-offset-4";

/** A link within the app, in the text-link look (`className` adds to it: a size, a margin). */
export function TextLink({ href, className, children, rel }: { href: string; className?: string; children: ReactNode; rel?: string }) {
  return (
    <Link href={href} className={cx(TEXT_LINK, className)} rel={rel}>
      {children}
    </Link>
  );
}
