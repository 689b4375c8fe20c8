import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGlite, types, type QueryOptions } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { date, interval, jsonb, numeric, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/pglite";
import { CLIENT_PARSERS, mapQueryOptions, withClientParsers, withoutClientParsers } from "./pglite-parsers";

const things = pgTable("things", {
  id: text("id").primaryKey(),
  at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
  localAt: timestamp("local_at", { mode: "string" }).notNull(),
  day: date("day").notNull(),
  lasts: interval("lasts").notNull(),
  amount: numeric("amount").notNull(),
  data: jsonb("data").$type<{ n: number }>().notNull(),
  ats: timestamp("ats", { withTimezone: true, mode: "string" }).array().notNull(),
});

const CREATE = `create table things (id text primary key, at timestamptz not null, local_at timestamp not null,
  day date not null, lasts interval not null, amount numeric not null, data jsonb not null, ats timestamptz[] not null)`;
const ROW = {
  id: "a",
  at: new Date("2026-11-24T10:11:12.345Z"),
  localAt: "2026-11-24 10:11:12.345",
  day: "2026-11-24",
  lasts: "1 day 02:00:00",
  amount: "1234.50",
  data: { n: 1 },
  ats: ["2026-11-24 10:11:12+00", "2026-11-25 00:00:00+00"],
};

/** What reaches PGlite's own `query` (under the wrapper), per call. */
const seen: (QueryOptions | undefined)[] = [];
let plain: PGlite;
let lean: PGlite;

beforeAll(async () => {
  plain = await PGlite.create("memory://");
  const client = mapQueryOptions(await PGlite.create("memory://"), (options) => {
    seen.push(options);
    return options;
  });
  lean = withClientParsers(client);
  for (const db of [plain, lean]) {
    await db.exec(CREATE);
    await drizzle({ client: db }).insert(things).values(ROW);
  }
}, 60_000);

afterAll(async () => {
  await plain?.close();
  await lean?.close();
});

describe("PGlite opened with drizzle's parsers", () => {
  it("sends drizzle's queries without their parsers, in and out of a transaction", async () => {
    seen.length = 0;
    const db = drizzle({ client: lean });
    await db.select().from(things);
    await db.transaction(async (tx) => {
      await tx.select().from(things);
      await tx.execute(sql`select now() as at`);
    });
    expect(seen).toHaveLength(3);
    for (const options of seen) {
      expect(options).toBeDefined();
      expect(options?.parsers).toBeUndefined();
      expect(options?.rowMode).toMatch(/^(array|object)$/);
    }
  });

  it("reads the very same values as drizzle on a PGlite left as it is (dates, timestamps, intervals, numeric, jsonb, arrays)", async () => {
    const [before] = await drizzle({ client: plain }).select().from(things);
    const [after] = await drizzle({ client: lean }).select().from(things);
    expect(after).toEqual(before);
    expect(after).toEqual(ROW);
    const raw = sql`select at, day, lasts, ats from things`;
    expect((await drizzle({ client: lean }).execute(raw)).rows).toEqual((await drizzle({ client: plain }).execute(raw)).rows);
  });
});

describe("withoutClientParsers", () => {
  it("passes on any parser the client does not have, or that does not leave the text as it is", () => {
    const numericAsNumber: QueryOptions = { parsers: { [types.NUMERIC]: Number } };
    const dateAsDate: QueryOptions = { parsers: { [types.DATE]: (value: string) => new Date(value) } };
    const both: QueryOptions = { rowMode: "array", parsers: { ...CLIENT_PARSERS, [types.NUMERIC]: Number } };
    expect(withoutClientParsers(numericAsNumber)).toBe(numericAsNumber);
    expect(withoutClientParsers(dateAsDate)).toBe(dateAsDate);
    expect(withoutClientParsers(both)).toBe(both);
    expect(withoutClientParsers({ rowMode: "array", parsers: { [types.TIMESTAMPTZ]: (value: string) => value } })).toEqual({
      rowMode: "array",
    });
    expect(withoutClientParsers(undefined)).toBeUndefined();
  });

  it("keeps a parser given to one query in force", async () => {
    const { rows } = await lean.query<{ amount: number }>("select amount from things", [], { parsers: { [types.NUMERIC]: Number } });
    expect(rows).toEqual([{ amount: 1234.5 }]);
  });
});
