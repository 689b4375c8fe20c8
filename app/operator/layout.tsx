import type { Metadata } from "next";
import type { ReactNode } from "react";

/*
 * The platform operator's console. No access check here on purpose: a layout is not re-run on
 * every navigation, so each page, route and action checks the operator itself (requireOperator,
 * operatorAction, lib/operator/session.ts). Pages are sent with Cache-Control: no-store
 * (next.config.mjs).
 */
export const metadata: Metadata = { robots: { index: false, follow: false } };

export default function OperatorLayout({ children }: { children: ReactNode }) {
  return children;
}
