import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { storedSession } from "@/lib/checkout/testing/context";
import { openDatabase, type Database } from "@/lib/db";
import { checkoutSessions, customerData, partners, sessionStatusHistory } from "@/lib/db/schema";
import { throwawayDatabase } from "@/lib/db/testing/throwaway";
import type { OperationStatus } from "@/lib/financing/contract";
import { partnerOverview } from "./overview";

const OURS = "overview_ours";
const THEIRS = "overview_theirs";
// 13:00 in Madrid (CET, UTC+1): today there is 2026-11-22, the window's first day 2026-10-24 (still CEST).
const NOW = new Date("2026-11-22T12:00:00Z");
const FUTURE = new Date(NOW.getTime() + 86_400_000);

interface SessionSpec {
  name: string;
  partnerId?: string;
  createdAt?: Date;
  expiresAt?: Date;
  submitted?: boolean;
  operationStatus?: OperationStatus;
  history?: OperationStatus[];
  chosenOfferId?: number;
  financingStatus?: "REQUESTED" | "REFUSED";
  operationAttempt?: number;
}

function overviewSuite(label: string, open: () => Promise<Database>) {
  describe(`the overview's aggregation (${label})`, () => {
    let database: Database;
    const db = () => database.db;

    async function insertSession(spec: SessionSpec): Promise<void> {
      const id = `cs_${spec.name}_0000000000`;
      const base = storedSession({ id, reference: `REF-${spec.name}`, partnerId: spec.partnerId ?? OURS });
      await db()
        .insert(checkoutSessions)
        .values({
          ...base,
          createdAt: spec.createdAt ?? NOW,
          expiresAt: spec.expiresAt ?? FUTURE,
          ...(spec.operationStatus
            ? { operationId: `op_${spec.name}`, operationStatus: spec.operationStatus, operationUpdatedAt: NOW }
            : {}),
          chosenOfferId: spec.chosenOfferId ?? null,
          financingStatus: spec.financingStatus ?? null,
          operationAttempt: spec.operationAttempt ?? 0,
        });
      if (spec.submitted !== undefined) await db().insert(customerData).values({ sessionId: id, data: "{}", submitted: spec.submitted });
      for (const status of spec.history ?? []) {
        await db().insert(sessionStatusHistory).values({ sessionId: id, status, source: "webhook", operationUpdatedAt: NOW });
      }
    }

    beforeAll(async () => {
      database = await open();
      for (const id of [OURS, THEIRS]) {
        await db()
          .insert(partners)
          .values({ id, name: id, allowedOrigins: ["http://127.0.0.1"] });
      }
    });
    afterAll(async () => {
      await database.close();
    });
    beforeEach(async () => {
      await db().delete(checkoutSessions);
    });

    it("counts each step as reached (or passed), the outcomes as they stand now", async () => {
      const sessions: SessionSpec[] = [
        { name: "opened" },
        { name: "prefilled", submitted: false },
        { name: "submitted", submitted: true },
        { name: "generated", submitted: true, operationStatus: "GENERATED", history: ["GENERATED"] },
        {
          name: "atprovider",
          submitted: true,
          operationStatus: "CLIENT_REQUESTED",
          history: ["GENERATED", "CLIENT_REQUESTED"],
          chosenOfferId: 7,
          financingStatus: "REQUESTED",
        },
        // Only the final status seen (a webhook after the provider's decision): it implies every step before.
        { name: "confirmed", operationStatus: "CONFIRMED", history: ["CONFIRMED"] },
        {
          name: "signedrefused",
          submitted: true,
          operationStatus: "REFUSED",
          history: ["CLIENT_REQUESTED", "PENDING_RESPONSE", "REFUSED"],
        },
        { name: "declined", submitted: true, operationStatus: "REFUSED", history: ["CLIENT_REQUESTED", "REFUSED"] },
        { name: "lapsed", expiresAt: new Date(NOW.getTime() - 1000) },
        { name: "opexpired", submitted: true, operationStatus: "EXPIRED", history: ["GENERATED", "EXPIRED"] },
        // The customer corrected their details: the first operation was cancelled and unlinked.
        { name: "corrected", operationAttempt: 1, history: ["GENERATED", "CANCELLED"] },
        // Another partner's sessions, however far they went, are not ours.
        { name: "theirs1", partnerId: THEIRS, operationStatus: "CONFIRMED", history: ["CONFIRMED"], submitted: true },
        { name: "theirs2", partnerId: THEIRS },
      ];
      for (const spec of sessions) await insertSession(spec);

      const overview = await partnerOverview(db(), OURS, NOW);
      expect(overview.funnel).toEqual({ opened: 11, detailsGiven: 8, planChosen: 4, signed: 2, confirmed: 1, refused: 2, expired: 2 });
      expect(overview.days.at(-1)).toEqual({ day: "2026-11-22", opened: 11, confirmed: 1 });

      const theirs = await partnerOverview(db(), THEIRS, NOW);
      expect(theirs.funnel).toEqual({ opened: 2, detailsGiven: 1, planChosen: 1, signed: 1, confirmed: 1, refused: 0, expired: 0 });
    });

    it("covers today and the 29 days before, in Madrid's calendar days, with zeros on days without sessions", async () => {
      const sessions: SessionSpec[] = [
        // 2026-10-24 00:00 in Madrid is 2026-10-23 22:00 UTC (summer time until the 25th).
        { name: "beforefirst", createdAt: new Date("2026-10-23T21:59:59.999Z") },
        { name: "firstday", createdAt: new Date("2026-10-23T22:00:00.000Z"), operationStatus: "CONFIRMED" },
        // 00:30 on the 22nd in Madrid, still the 21st in UTC.
        { name: "justaftermidnight", createdAt: new Date("2026-11-21T23:30:00Z") },
        { name: "lastbeforemidnight", createdAt: new Date("2026-11-21T22:59:59Z") },
        // The end of today in Madrid (23:59:59 CET), and tomorrow.
        { name: "endoftoday", createdAt: new Date("2026-11-22T22:59:59Z") },
        { name: "tomorrow", createdAt: new Date("2026-11-22T23:00:00Z") },
      ];
      for (const spec of sessions) await insertSession(spec);

      const overview = await partnerOverview(db(), OURS, NOW);
      expect(overview.timeZone).toBe("Europe/Madrid");
      expect(overview.days).toHaveLength(30);
      expect([overview.firstDay, overview.lastDay]).toEqual(["2026-10-24", "2026-11-22"]);
      // Consecutive days, each once, across the change from summer time (2026-10-25).
      const expectedDays = Array.from({ length: 30 }, (_, i) => new Date(Date.UTC(2026, 9, 24 + i)).toISOString().slice(0, 10));
      expect(overview.days.map((d) => d.day)).toEqual(expectedDays);

      const byDay = new Map(overview.days.map((d) => [d.day, d]));
      expect(byDay.get("2026-10-24")).toEqual({ day: "2026-10-24", opened: 1, confirmed: 1 });
      expect(byDay.get("2026-11-21")).toEqual({ day: "2026-11-21", opened: 1, confirmed: 0 });
      expect(byDay.get("2026-11-22")).toEqual({ day: "2026-11-22", opened: 2, confirmed: 0 });
      expect(overview.days.filter((d) => d.opened === 0)).toHaveLength(27);
      expect(overview.funnel.opened).toBe(4);
    });

    it("is thirty zero days for a partner without sessions", async () => {
      const overview = await partnerOverview(db(), OURS, NOW);
      expect(overview.days).toHaveLength(30);
      expect(overview.days.every((d) => d.opened === 0 && d.confirmed === 0)).toBe(true);
      expect(overview.funnel).toEqual({ opened: 0, detailsGiven: 0, planChosen: 0, signed: 0, confirmed: 0, refused: 0, expired: 0 });
    });
  });
}

overviewSuite("PGlite", () => openDatabase({ dataDir: "memory://" }));

const testDatabaseUrl = process.env.TEST_DATABASE_URL;
// Without TEST_DATABASE_URL there is no server: skipping is expected on a laptop; CI sets it.
describe.runIf(testDatabaseUrl)("on PostgreSQL", () => {
  const throwaway = throwawayDatabase("overview_test");
  overviewSuite("PostgreSQL", () => openDatabase({ databaseUrl: throwaway.url, dataDir: "unused" }));
});
