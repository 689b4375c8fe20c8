import { allOperations } from "@/lib/backoffice/operations/operations";
import { parseOperationFilters } from "@/lib/backoffice/operations/filters";
import { operationsCsv, operationsCsvFileName } from "@/lib/backoffice/operations/operations-csv";
import { apiProblem } from "@/lib/financing/api-problem";
import { staffForRequest } from "@/lib/identity/staff";
import { routeHandler } from "@/lib/http/request-scope";
import { createWorkGate } from "@/lib/security/limits/work-gate";

export const dynamic = "force-dynamic";

const noStore = { "Cache-Control": "no-store" };

/**
 * An export is up to EXPORT_MAX_PAGES partner API calls on the partner's key, whose rate limit its
 * checkouts share: one export at a time per partner, and at most 5 started a minute.
 */
const exportGate = createWorkGate({ perMinute: 5, burst: 5, maxInFlight: 1 });

/**
 * The operations list's current filters as CSV (every page of them, not only the one shown).
 * Staff only: without a session, the way to the sign-in page; nothing else.
 */
async function get(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const staff = await staffForRequest();
  if (!staff) {
    return new Response(null, {
      status: 303,
      headers: { Location: `/admin/login?next=${encodeURIComponent(`/admin/operations${url.search}`)}`, ...noStore },
    });
  }
  const parsed = parseOperationFilters(Object.fromEntries(url.searchParams));
  if (!parsed.ok) {
    return new Response(`Invalid filters: ${parsed.problems.join(", ")}\n`, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", ...noStore },
    });
  }
  const gate = exportGate.enter(staff.partner.id);
  if (!gate.ok) {
    return new Response("Too many exports at once. Try again in a moment.\n", {
      status: 429,
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Retry-After": String(Math.max(1, Math.ceil(gate.retryAfterMs / 1000))),
        ...noStore,
      },
    });
  }
  let rows;
  try {
    rows = await allOperations(staff, parsed.filters);
  } catch (error) {
    apiProblem(error, "exporting operations");
    return new Response("The financing API is not answering right now. Try again in a moment.\n", {
      status: 502,
      headers: { "Content-Type": "text/plain; charset=utf-8", ...noStore },
    });
  } finally {
    gate.release();
  }
  const body = operationsCsv(rows);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${operationsCsvFileName(new Date())}"`,
      ...noStore,
    },
  });
}

export const GET = routeHandler("GET /admin/operations/export", get);
