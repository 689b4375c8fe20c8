/**
 * The badge is public: nobody may spend a partner's API quota through it at will. A made-up
 * country is refused before any call; cache misses (new prices) are limited per partner and per
 * client IP; what is cached is still served.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "@/lib/app-context";
import { openDatabase, type Database } from "@/lib/db";
import { DEMO_PARTNER_ID, seedDemoPartner } from "@/lib/demo/seed";
import type { FinancingClient } from "@/lib/financing/client";
import type { FinancialOffer, Money } from "@/lib/financing/types";
import { sharedBuckets } from "@/lib/security/limits/shared-token-bucket";
import { SOCKET_ADDRESS_HEADER, socketStampValue } from "@/lib/security/network/client-ip";
import { createBadgeQuotes } from "./badge";
import { badgeResponse, type BadgeDeps } from "./badge-response";

let database: Database;
let calls: { cents: number; country: string | undefined }[] = [];
let time = 1_000_000;

function offerFor(price: Money): FinancialOffer {
  const monthly = Math.round(price.cents / 12);
  return {
    id: 1,
    companyName: "Financiera Olivo",
    tae: 0,
    tin: 0,
    installments: 12,
    commonQuota: { cents: monthly, currency: "EUR" },
    differentialQuota: { cents: monthly, currency: "EUR" },
    differentialIsFirst: false,
    totalInterestPaid: { cents: 0, currency: "EUR" },
    totalFinanced: price,
    extra: {},
  };
}

const client = {
  async simulate(price: Money, params: { countryCode?: string } = {}) {
    calls.push({ cents: price.cents, country: params.countryCode });
    return { currency: "EUR", offers: [offerFor(price)] };
  },
} as unknown as FinancingClient;

let ctx: Pick<AppContext, "db" | "clientFor">;

let family = 0;

/**
 * One instance's badge: its own cache, and the buckets of `prefix` in the test's database (two
 * instances of one configuration: the same prefix).
 */
function deps(perPartner: number, perIp: number, prefix = `badge-test-${(family += 1)}`): BadgeDeps {
  const now = () => time;
  return {
    quotes: createBadgeQuotes({ now }),
    perPartner: sharedBuckets(`${prefix}:partner`, perPartner),
    perIp: sharedBuckets(`${prefix}:ip`, perIp),
    now: () => new Date(time),
  };
}

/** A request from `ip` (the socket's address, as the server stamps it), with any headers the client adds. */
function get(query: string, ip = "198.51.100.7", d?: BadgeDeps, headers: Record<string, string> = {}) {
  return badgeResponse(
    ctx,
    new Request(`http://127.0.0.1:3999/api/badge?${query}`, { headers: { ...headers, [SOCKET_ADDRESS_HEADER]: socketStampValue(ip) } }),
    d,
  );
}

beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory://" });
  await seedDemoPartner(database.db, { secret: "test_partner_secret_0123456789", appUrl: "http://127.0.0.1:3999" });
  ctx = { db: database.db, clientFor: () => client };
});

afterAll(async () => {
  await database?.close();
});

describe("the badge's budget of partner API calls", () => {
  it("refuses a made-up country with a 400 naming the field, and calls nobody", async () => {
    calls = [];
    const d = deps(100, 100);
    for (const country of ["XYZ", "AAA", "ZZZ", "QQQ"]) {
      const response = await get(`partner=${DEMO_PARTNER_ID}&amount=1234.50&country=${country}`, undefined, d);
      expect(response.status, country).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: "validation_failed", fields: [{ field: "country" }] } });
    }
    expect(calls).toEqual([]);
    const real = await get(`partner=${DEMO_PARTNER_ID}&amount=1234.50&country=PRT`, undefined, d);
    expect(real.status).toBe(200);
    expect(calls).toEqual([{ cents: 123450, country: "PRT" }]);
  });

  it("a client writing a new X-Forwarded-For on every request does not get a new budget", async () => {
    calls = [];
    const d = deps(1_000, 3);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const forged = { "X-Forwarded-For": `10.9.${i}.1` };
      statuses.push((await get(`partner=${DEMO_PARTNER_ID}&amount=${3000 + i}`, "203.0.113.77", d, forged)).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    expect(calls).toHaveLength(3);
  });

  it("one client asking for many new amounts gets 429 with Retry-After once its budget is spent; cached amounts are still served", async () => {
    calls = [];
    const d = deps(1_000, 5);
    for (let i = 0; i < 5; i++) expect((await get(`partner=${DEMO_PARTNER_ID}&amount=${100 + i}`, "203.0.113.9", d)).status).toBe(200);
    const refused = await get(`partner=${DEMO_PARTNER_ID}&amount=999.99`, "203.0.113.9", d);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(await refused.json()).toEqual({ error: { code: "rate_limited", message: expect.any(String) } });
    for (let i = 0; i < 20; i++) expect((await get(`partner=${DEMO_PARTNER_ID}&amount=${2000 + i}`, "203.0.113.9", d)).status).toBe(429);
    expect(calls).toHaveLength(5);

    // Amounts already asked for: served from the cache, no call, whatever the budget.
    const cached = await get(`partner=${DEMO_PARTNER_ID}&amount=102`, "203.0.113.9", d);
    expect(cached.status).toBe(200);
    expect(await cached.json()).toMatchObject({ visible: true, installments: 12 });
    // Out of range: answered without a call, never limited.
    expect((await get(`partner=${DEMO_PARTNER_ID}&amount=6000`, "203.0.113.9", d)).status).toBe(200);
    expect(calls).toHaveLength(5);

    // Another client is not held back by this one; after the wait, this one gets a new price again.
    expect((await get(`partner=${DEMO_PARTNER_ID}&amount=999.99`, "203.0.113.10", d)).status).toBe(200);
    time += Number(refused.headers.get("retry-after")) * 1000;
    expect((await get(`partner=${DEMO_PARTNER_ID}&amount=1999.99`, "203.0.113.9", d)).status).toBe(200);
  });

  it("is shared by every instance: a client spreading new prices over two gets no more, nor does the partner", async () => {
    calls = [];
    const [one, two] = [deps(1_000, 4, "badge-shared"), deps(1_000, 4, "badge-shared")];
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await get(`partner=${DEMO_PARTNER_ID}&amount=${4000 + i}`, "203.0.113.40", i % 2 === 0 ? one : two)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
    expect(calls).toHaveLength(4);

    const [a, b] = [deps(6, 1_000, "badge-shared-partner"), deps(6, 1_000, "badge-shared-partner")];
    const spread: number[] = [];
    for (let i = 0; i < 10; i++)
      spread.push((await get(`partner=${DEMO_PARTNER_ID}&amount=${4100 + i}`, `192.0.2.${100 + i}`, i % 2 === 0 ? a : b)).status);
    expect(spread.filter((status) => status === 200)).toHaveLength(6);
  });

  it("counts an IPv6 client by its /64: a new address of the same line spends the same budget", async () => {
    calls = [];
    const d = deps(1_000, 3);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await get(`partner=${DEMO_PARTNER_ID}&amount=${4200 + i}`, `2001:db8:7:1::${i + 1}`, d)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    // Another line is another client.
    expect((await get(`partner=${DEMO_PARTNER_ID}&amount=4299`, "2001:db8:7:2::1", d)).status).toBe(200);
  });

  it("many clients together cannot spend more than the partner's budget", async () => {
    calls = [];
    const d = deps(10, 3);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await get(`partner=${DEMO_PARTNER_ID}&amount=${300 + i}`, `192.0.2.${i}`, d)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    expect(calls).toHaveLength(10);
  });
});
