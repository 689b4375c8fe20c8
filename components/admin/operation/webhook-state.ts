import type { OperationDetail } from "@/lib/backoffice/operations";

export type WebhookEventState = "waiting" | "acknowledged" | "rejected" | "applied";

/**
 * Where a received webhook event stands, for the operation page. The one place that reads the
 * stored outcome: today its text ("applied and acknowledged", "rejected: …"); once the outcome is
 * a typed column, only this function changes.
 */
export function webhookEventState(event: Pick<OperationDetail["events"][number], "processedAt" | "outcome">): WebhookEventState {
  if (event.processedAt === null) return "waiting";
  if (event.outcome === "applied and acknowledged") return "acknowledged";
  if (event.outcome?.startsWith("rejected")) return "rejected";
  return "applied";
}
