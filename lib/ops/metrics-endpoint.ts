import "server-only";
import { getEnv } from "@/lib/config/env";
import { sameSecret } from "@/lib/security/secrets/same-secret";
import { metrics } from "./metrics";

const noStore = { "Cache-Control": "no-store" };

/**
 * `GET /api/metrics`: 404 when METRICS_TOKEN is not set (nothing to find), 401 with a
 * `WWW-Authenticate` challenge without the right bearer token, else the Prometheus text format.
 */
export async function metricsResponse(request: Request, token: string | undefined = getEnv().METRICS_TOKEN): Promise<Response> {
  if (!token) return Response.json({ error: { code: "not_found", message: "Not found" } }, { status: 404, headers: noStore });
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  if (!match || !sameSecret(match[1]!, token)) {
    return Response.json(
      { error: { code: "unauthorized", message: "A valid bearer token is required" } },
      { status: 401, headers: { ...noStore, "WWW-Authenticate": 'Bearer realm="metrics"' } },
    );
  }
  const { registry } = metrics();
  return new Response(await registry.metrics(), { headers: { ...noStore, "Content-Type": registry.contentType } });
}
