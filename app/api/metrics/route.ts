import { routeHandler } from "@/lib/http/request-scope";
import { metricsResponse } from "@/lib/ops/metrics-endpoint";

// Prometheus scrapes this with the bearer token from METRICS_TOKEN; without one set it does not exist.
export const dynamic = "force-dynamic";

export const GET = routeHandler("GET /api/metrics", (request: Request) => metricsResponse(request));
