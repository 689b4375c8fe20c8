import type { Metadata } from "next";
import type { ReactNode } from "react";

/*
 * The partner back-office. No access check here on purpose: a layout is not re-run on every
 * navigation, so each page, route and action checks the staff session itself (requireStaff,
 * staffAction). Pages are sent with Cache-Control: no-store (next.config.mjs).
 */
export const metadata: Metadata = { robots: { index: false, follow: false } };

export default function AdminLayout({ children }: { children: ReactNode }) {
  return children;
}
