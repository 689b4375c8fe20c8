import { SpanKind } from "@opentelemetry/api";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { recordSpans, type RecordedSpans } from "@/lib/testing/tracing";
import { inSpan } from "@/lib/tracing/spans";
import { createFinancingClient } from "./client";
import { createFetchDouble, json } from "./testing/fetch-double";

const KEY = "fk_live_0123456789abcdef";
const HEALTH = { status: "UP", version: "1.8.0", timestamp: "2026-11-22T10:00:00Z", partnerCode: "P1" };

function setup() {
  const double = createFetchDouble();
  const client = createFinancingClient({
    baseUrl: "https://api.financer.example/v1",
    apiKey: KEY,
    fetch: double.fetch,
    sleep: vi.fn(async () => {}),
    random: () => 0.5,
  });
  return { client, double };
}

describe("the partner API calls, traced", () => {
  let recorded: RecordedSpans;
  beforeAll(() => {
    recorded = recordSpans();
  });
  afterAll(async () => {
    await recorded.stop();
  });
  beforeEach(() => recorded.clear());

  it("each attempt is a client span named by the endpoint's template, and sends its traceparent; never the key", async () => {
    const { client, double } = setup();
    double.answer(json(503, {}), json(200, HEALTH));
    await inSpan("a customer's page", {}, () => client.health());

    const attempts = recorded.named("financing GET /health");
    const [parent] = recorded.named("a customer's page");
    expect(attempts).toHaveLength(2);
    expect(attempts.map((span) => span.attributes)).toEqual([
      expect.objectContaining({ "url.template": "/health", "http.response.status_code": 503, "http.request.resend_count": 0 }),
      expect.objectContaining({ "url.template": "/health", "http.response.status_code": 200, "http.request.resend_count": 1 }),
    ]);
    for (const [index, span] of attempts.entries()) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.parentSpanContext?.spanId).toBe(parent!.spanContext().spanId);
      // The attempt's own span is the parent the partner API sees.
      const { traceId, spanId } = span.spanContext();
      expect(double.requests[index]!.headers.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    }
    expect(JSON.stringify(recorded.spans().map((span) => [span.name, span.attributes]))).not.toContain(KEY);
  });

  it("sends no traceparent when tracing is off", async () => {
    await recorded.stop();
    const { client, double } = setup();
    double.answer(json(200, HEALTH));
    await client.health();
    expect(double.last.headers.traceparent).toBeUndefined();
    recorded = recordSpans();
  });
});
