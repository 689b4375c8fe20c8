import { describe, expect, it } from "vitest";
import { metricsResponse } from "./metrics-endpoint";
import { metrics, observePartnerCall } from "./metrics";

const TOKEN = "metrics_test_token_0123456789abcdef";
const scrape = (authorization?: string, token: string | null = TOKEN) =>
  metricsResponse(new Request("http://app.test/api/metrics", { headers: authorization ? { authorization } : {} }), token ?? "");

describe("/api/metrics", () => {
  it("does not exist without METRICS_TOKEN", async () => {
    expect((await scrape(`Bearer ${TOKEN}`, null)).status).toBe(404);
  });

  it("refuses a scrape without the bearer token, or with another one", async () => {
    for (const authorization of [undefined, "Bearer wrong_token_0123456789abcdefgh", `Basic ${TOKEN}`, TOKEN, `Bearer ${TOKEN}x`]) {
      const answer = await scrape(authorization);
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await answer.text()).not.toContain("http_requests_total");
    }
  });

  it("answers the Prometheus text format with the token, with partner API calls by endpoint template", async () => {
    observePartnerCall({ endpoint: "GET /operations/{id}/status", outcome: 200, durationMs: 42 });
    observePartnerCall({ endpoint: "GET /operations/{id}/status", outcome: "timeout", durationMs: 10_000 });
    metrics().webhooksReceived.inc({ outcome: "stored" });
    const answer = await scrape(`Bearer ${TOKEN}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("text/plain");
    const text = await answer.text();
    expect(text).toContain('partner_api_requests_total{endpoint="GET /operations/{id}/status",outcome="200"} 1');
    expect(text).toContain('partner_api_requests_total{endpoint="GET /operations/{id}/status",outcome="timeout"} 1');
    expect(text).toContain('webhook_events_received_total{outcome="stored"} 1');
    for (const name of [
      "http_requests_total",
      "webhook_events_processed_total",
      "reconciler_runs_total",
      "process_resident_memory_bytes",
    ]) {
      expect(text).toContain(`# TYPE ${name}`);
    }
  });
});
