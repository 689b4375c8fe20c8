import { otherMethods } from "@/lib/http/method-not-allowed";
import { routeHandler } from "@/lib/http/request-scope";
import { metricsResponse } from "@/lib/ops/metrics-endpoint";

// Prometheus scrapes this with the bearer token from METRICS_TOKEN; without one set it does not exist.
export const dynamic = "force-dynamic";

export const GET = routeHandler("GET /api/metrics", (request: Request) => metricsResponse(request));

// Any other method: 405 in the API's error format, with Allow (lib/http/method-not-allowed.ts).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("/api/metrics", ["GET"]);
