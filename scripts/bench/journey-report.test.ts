import { describe, expect, it } from "vitest";
import { levelRow, slowestStep, type Journey, type Level } from "./journey-report";

const journey = (notifiedAfterReturn: number): Journey => ({
  sessionId: "cs_x",
  latency: new Map(),
  cpu: new Map(),
  appRequests: 8,
  notifiedAfterReturn,
});

/** The row's columns: the figures are separated by two spaces or more. */
const columns = (row: string) => row.trim().split(/ {2,}/);

describe("the journey bench's row per build and concurrency", () => {
  it("prints the rate, the CPU per journey and the app's CPU against the empty page's floor", () => {
    const level: Level = {
      customers: 4,
      journeys: Array.from({ length: 10 }, (_, i) => journey(10 * (i + 1))),
      errors: ["offers: 500"],
      seconds: 5,
      appCpu: 200,
      dbCpu: 50,
      floorCpuPerRequest: 0.5,
    };
    // 10 journeys in 5 s; 200 ms of app CPU over 10 journeys of 8 requests each, against 0.5 ms a request: 5 ×.
    expect(columns(levelRow("app", 4, level))).toEqual([
      "app",
      "4",
      "10",
      "2.00",
      "1",
      "20.0 ms",
      "5.0 ms",
      "8.0",
      "0.5 ms",
      "5.0 ×",
      "50.0 / 100.0 ms",
    ]);
  });

  it("says n/a for what was not measured: no database CPU on PGlite, no journey done", () => {
    const level: Level = { customers: 1, journeys: [], errors: [], seconds: 20, appCpu: 30, dbCpu: Number.NaN, floorCpuPerRequest: 0.5 };
    const row = columns(levelRow("baseline 0123456789abcdef0123", 1, level));
    expect(row[0]).toBe("baseline 0123456789abc");
    expect(row[6]).toBe("n/a");
    expect(row.at(-1)).toBe("n/a / n/a ms");
  });
});

describe("the journey bench's slowest step", () => {
  it("names the one step, of any journey, that took longest: a stall the percentiles hide", () => {
    const a: Journey = {
      ...journey(5),
      sessionId: "cs_a",
      latency: new Map([
        ["offers", 20],
        ["return", 35],
      ]),
    };
    const b: Journey = {
      ...journey(5),
      sessionId: "cs_b",
      latency: new Map([
        ["offers", 31_000],
        ["return", 40],
      ]),
    };
    expect(slowestStep({ journeys: [a, b] })).toEqual({ step: "offers", ms: 31_000, sessionId: "cs_b" });
    expect(slowestStep({ journeys: [] })).toBeUndefined();
  });
});
