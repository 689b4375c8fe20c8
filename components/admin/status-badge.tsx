import type { AdminMessages } from "@/lib/i18n/admin-messages";

const TONE: Record<string, string> = {
  CONFIRMED: "border-success bg-success-soft",
  FAVORABLE: "border-success bg-success-soft",
  FINISHED: "border-success bg-success-soft",
  REFUSED: "border-danger bg-danger-soft",
  ERROR: "border-danger bg-danger-soft",
  CANCELLED: "border-warning bg-warning-soft",
  EXPIRED: "border-warning bg-warning-soft",
  REFUNDED: "border-brand bg-info-soft",
};

/** An operation status in words, with the API's own code beside it (what support will ask for). */
export function StatusBadge({ status, m }: { status: string; m: AdminMessages }) {
  const statuses: Record<string, string> = m.common.statuses;
  const label = statuses[status];
  return (
    <span
      className={`inline-flex flex-wrap items-baseline gap-x-1.5 rounded-md border px-2 py-0.5 text-sm ${TONE[status] ?? "border-line bg-surface"}`}
    >
      {label ? <span className="font-semibold">{label}</span> : null}
      <code className="text-xs">{status}</code>
    </span>
  );
}

/** A status in words with its code ("Confirmada (CONFIRMED)"), or the bare code when it has no words. */
export function statusWords(statuses: Record<string, string>, status: string): string {
  const label = statuses[status];
  return label ? `${label} (${status})` : status;
}
