import { expect, type APIRequestContext } from "@playwright/test";

/*
 * The app's Prometheus metrics (`/api/metrics`, docs/operators/metrics.md), read with the throwaway token
 * playwright.config.ts gives the server under test: for tests that prove what happened inside a
 * request (which path it took, how many partner API calls it made).
 */

/** A series' value (0 when it has not been written yet); `series` as exposed, labels included. */
export async function metricValue(request: APIRequestContext, series: string): Promise<number> {
  const scraped = await request.get("/api/metrics", { headers: { Authorization: `Bearer ${process.env.E2E_METRICS_TOKEN}` } });
  expect(scraped.status()).toBe(200);
  const line = (await scraped.text()).split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}
