import { dataRequestQuerySchema, exportCustomerData, exportFileName } from "@/lib/backoffice/data-requests/data-requests";
import { requestIp, staffForRequest } from "@/lib/identity/staff";
import { readBodyText } from "@/lib/http/body";
import { routeHandler } from "@/lib/http/request-scope";

export const dynamic = "force-dynamic";

const noStore = { "Cache-Control": "no-store" };
/** The search form is two short fields (an URL-encoded post). */
const FORM_LIMIT = 4096;

function text(status: number, body: string): Response {
  return new Response(`${body}\n`, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...noStore } });
}

/**
 * Everything held on a customer in the partner's sessions, as a JSON download (the customer's
 * portability request). A form post (the searched value never in a URL); staff holding the
 * "data-requests" permission only; audited by the domain (who, how many sessions).
 */
async function post(request: Request): Promise<Response> {
  const staff = await staffForRequest();
  if (!staff) return new Response(null, { status: 303, headers: { Location: "/admin/login?next=%2Fadmin%2Fdata-requests", ...noStore } });
  const body = await readBodyText(request, FORM_LIMIT);
  if (!body.ok) return text(body.problem === "too_large" ? 413 : 400, "The form is not a data request's search.");
  const form = new URLSearchParams(body.text);
  const parsed = dataRequestQuerySchema.safeParse({ by: form.get("by") ?? undefined, value: form.get("value") ?? undefined });
  if (!parsed.success) return text(400, `Invalid ${parsed.error.issues.map((issue) => issue.path.join(".") || "form").join(", ")}`);
  const now = new Date();
  const result = await exportCustomerData(staff, parsed.data, "json", { ip: await requestIp(), now });
  if (!result.ok) return text(403, "This account may not answer data requests.");
  return new Response(`${JSON.stringify(result.export, null, 2)}\n`, {
    status: 200,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName(now)}"`,
      ...noStore,
    },
  });
}

export const POST = routeHandler("POST /admin/data-requests/export", post);
