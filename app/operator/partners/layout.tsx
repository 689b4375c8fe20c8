import type { Metadata } from "next";
import type { ReactNode } from "react";

/*
 * The operator console's partner pages. No access check here on purpose (a layout is not re-run on
 * every navigation): each page and action checks the operator itself (requireOperator,
 * operatorAction). Sent with Cache-Control: no-store (next.config.mjs), never indexed.
 */
export const metadata: Metadata = { robots: { index: false, follow: false } };

export default function OperatorPartnersLayout({ children }: { children: ReactNode }) {
  return children;
}
