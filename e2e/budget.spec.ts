import { gzipSync } from "node:zlib";
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { aBookingReference } from "./support/test-data";

/**
 * Budget: the JavaScript a checkout page loads first stays within 25 KB (gzip) of what an empty
 * App Router page loads. Sizes, not timings: the same build gives the same figures. The empty
 * page is the app's not-found page (the root layout and nothing else).
 */
const BUDGET_BYTES = 25 * 1024;

async function scriptBytes(request: APIRequestContext, path: string): Promise<{ files: number; gzip: number }> {
  const html = await (await request.get(path)).text();
  const sources = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
  let gzip = 0;
  for (const src of new Set(sources)) {
    const response = await request.get(src);
    expect(response.ok(), `${src} loads`).toBe(true);
    gzip += gzipSync(await response.body()).length;
  }
  return { files: new Set(sources).size, gzip };
}

test("a checkout page's first JavaScript stays within 25 KB gzip of an empty page's", async ({ request, checkoutSessions }) => {
  const { id } = await checkoutSessions.open({ reference: aBookingReference("BUDGET"), customer: null });

  const empty = await scriptBytes(request, "/this-page-does-not-exist");
  const checkout = await scriptBytes(request, `/checkout/${id}`);
  const extra = checkout.gzip - empty.gzip;
  console.log(
    `budget: empty App Router page ${(empty.gzip / 1024).toFixed(1)} KB gzip (${empty.files} files); ` +
      `checkout page ${(checkout.gzip / 1024).toFixed(1)} KB gzip (${checkout.files} files); ` +
      `difference ${(extra / 1024).toFixed(1)} KB of ${BUDGET_BYTES / 1024} KB allowed`,
  );
  expect(empty.files).toBeGreaterThan(0);
  expect(extra).toBeLessThanOrEqual(BUDGET_BYTES);
});
