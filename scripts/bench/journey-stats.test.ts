import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { acceptNotification, exactlyOnce, percentileOf, procStatCpuMs, ProcessSetCpu, summarize } from "./journey-stats";

describe("the journey bench's statistics", () => {
  it("takes the nearest-rank percentile, whatever the order", () => {
    const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentileOf(values, 50)).toBe(5);
    expect(percentileOf(values, 95)).toBe(10);
    expect(percentileOf([42], 95)).toBe(42);
    expect(percentileOf([], 50)).toBeNaN();
  });

  it("summarizes count, p50, p95 and mean", () => {
    expect(summarize([10, 20, 30, 40])).toEqual({ n: 4, p50: 20, p95: 40, mean: 25 });
  });
});

describe("CPU time from /proc", () => {
  // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
  const stat = (comm: string, utime: number, stime: number) =>
    `1234 (${comm}) S 1 1234 1234 0 -1 4194560 100 0 0 0 ${utime} ${stime} 0 0 20 0 11 0 500 1000000 2000`;

  it("adds utime and stime, in ms", () => {
    expect(procStatCpuMs(stat("node", 150, 25))).toBe(1750);
  });

  it("counts the fields after the last parenthesis: a command name with spaces and parentheses", () => {
    expect(procStatCpuMs(stat("postgres: postgres bench (1) idle", 7, 3))).toBe(100);
  });

  it("refuses what is not a stat line", () => {
    expect(() => procStatCpuMs("nothing here")).toThrow();
  });

  it("keeps a changing set of processes monotonic: a new one counts from its start, a gone one keeps its last reading", () => {
    const set = new ProcessSetCpu();
    expect(set.update(new Map([[1, 100]]))).toBe(100);
    expect(
      set.update(
        new Map([
          [1, 150],
          [2, 30],
        ]),
      ),
    ).toBe(180);
    // Process 1 has gone: its 150 ms stay counted.
    expect(set.update(new Map([[2, 40]]))).toBe(190);
  });
});

describe("the agency's receiver", () => {
  const secret = `whsec_${Buffer.from("a signing key of the bench").toString("base64")}`;
  const body = JSON.stringify({ type: "checkout.session.confirmed", data: { id: "cs_1", state: "confirmed" } });
  const signed = (key: string, at: Date, raw = body) => {
    const timestamp = String(Math.floor(at.getTime() / 1000));
    const signature = createHmac("sha256", Buffer.from(key.replace(/^whsec_/, ""), "base64"))
      .update(`msg_1.${timestamp}.${raw}`)
      .digest("base64");
    return new Headers({ "webhook-id": "msg_1", "webhook-timestamp": timestamp, "webhook-signature": `v1,${signature}` });
  };

  it("accepts a notification signed with the partner's secret", () => {
    expect(acceptNotification(secret, body, signed(secret, new Date()))).toEqual({
      webhookId: "msg_1",
      type: "checkout.session.confirmed",
      sessionId: "cs_1",
    });
  });

  it("refuses another secret's signature, a changed body and a stale timestamp", () => {
    const other = `whsec_${Buffer.from("another key").toString("base64")}`;
    expect(acceptNotification(secret, body, signed(other, new Date()))).toBeUndefined();
    expect(acceptNotification(secret, body.replace("cs_1", "cs_2"), signed(secret, new Date()))).toBeUndefined();
    expect(acceptNotification(secret, body, signed(secret, new Date(Date.now() - 10 * 60_000)))).toBeUndefined();
  });
});

describe("notifications received exactly once", () => {
  const types = ["checkout.session.pending", "checkout.session.confirmed"];
  const r = (webhookId: string, type: string, sessionId: string) => ({ webhookId, type, sessionId });

  it("tells once, missing and duplicated sessions apart", () => {
    const received = [
      r("a1", types[0]!, "A"),
      r("a2", types[1]!, "A"),
      r("b1", types[0]!, "B"),
      r("c1", types[0]!, "C"),
      r("c2", types[1]!, "C"),
      r("c2", types[1]!, "C"),
      r("d1", types[0]!, "D"),
      r("d2", types[1]!, "D"),
      r("d3", types[1]!, "D"),
    ];
    expect(exactlyOnce(received, ["A", "B", "C", "D", "E"], types)).toEqual({ once: 1, missing: 2, duplicated: 2 });
  });
});
