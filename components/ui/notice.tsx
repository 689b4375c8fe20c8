import type { ReactNode } from "react";

const TONES = {
  info: "border-brand bg-info-soft",
  success: "border-success bg-success-soft",
  warning: "border-warning bg-warning-soft",
  error: "border-danger bg-danger-soft",
} as const;

/**
 * A message box with a coloured edge. `live` makes it announced when it appears after an action
 * (role="alert" for errors, "status" otherwise); a notice present from the first paint needs none.
 */
export function Notice({
  tone = "info",
  title,
  children,
  live = false,
}: {
  tone?: keyof typeof TONES;
  title?: string;
  children?: ReactNode;
  live?: boolean;
}) {
  const role = live ? (tone === "error" ? "alert" : "status") : undefined;
  return (
    <div role={role} className={`rounded-card border-l-4 px-4 py-3 ${TONES[tone]}`}>
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? "mt-1" : undefined}>{children}</div> : null}
    </div>
  );
}
