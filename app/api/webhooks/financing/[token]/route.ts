import { after } from "next/server";
import { getAppContext } from "@/lib/app-context";
import { processWebhookEvent, receiveWebhook } from "@/lib/checkout/webhooks";

export const dynamic = "force-dynamic";

/**
 * The partner API's webhooks. Stored once per (eventId, operation) and answered at once; the status is then
 * read from the API, applied and acknowledged after the response (`after`). A wrong token is a
 * 404 (the URL does not exist for a guesser); a bad body is a 400. Neither stores anything.
 */
export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }) {
  const ctx = await getAppContext();
  const result = await receiveWebhook(ctx, (await params).token, request);
  if (result.status === 404) return Response.json({ error: { code: "not_found", message: "Not found" } }, { status: 404 });
  if (result.status !== 200) {
    return Response.json({ error: { code: "validation_failed", message: result.message } }, { status: result.status });
  }
  if (result.process) {
    const { eventId, operationId } = result;
    after(async () => {
      await processWebhookEvent(ctx, { eventId, operationId });
    });
  }
  return Response.json({ received: true, duplicate: result.duplicate });
}
