import { errorResponse } from "@/lib/app-error";
import { handleCreateSession } from "@/lib/checkout/sessions-api";

export const dynamic = "force-dynamic";

/** POST /api/checkout-sessions: a partner's backend opens a checkout for a booking. */
export async function POST(request: Request) {
  try {
    const { status, body } = await handleCreateSession(request);
    return Response.json(body, { status, headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error, { "Cache-Control": "no-store" });
  }
}
