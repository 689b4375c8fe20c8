import type { OperationDetail } from "@/lib/backoffice/operations/operations";

export type WebhookEventState = "waiting" | "acknowledged" | "rejected" | "applied";

/**
 * Where a received webhook event stands, for the operation page: from its typed result. A status
 * mismatch or a superseded event was applied (the real status was read) but not acknowledged.
 */
export function webhookEventState(event: Pick<OperationDetail["events"][number], "processedAt" | "result">): WebhookEventState {
  if (event.processedAt === null) return "waiting";
  if (event.result === "acknowledged" || event.result === "rejected") return event.result;
  return "applied";
}
