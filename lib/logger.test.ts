import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { FinancingApiError } from "./financing/errors";
import { createLogger, logError, routeConsoleToLogger } from "./logger";
import { withLogContext, withRequestId } from "./logging/context";
import { logLevelFrom } from "./logging/levels";

function capture(level = "info") {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  const log = createLogger({ level, destination, pretty: false });
  return { log, lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("the logger", () => {
  it("writes JSON lines with the level's name, a time, and the request id of the request being served", async () => {
    const { log, records } = capture();
    log.info("outside");
    await withRequestId("req-1234567890", async () => {
      await Promise.resolve();
      log.child({ component: "checkout" }).info({ sessionId: "cs_0123456789" }, "inside");
    });
    const [outside, inside] = records();
    expect(outside).toMatchObject({ level: "info", msg: "outside" });
    expect(outside).not.toHaveProperty("requestId");
    expect(inside).toMatchObject({
      level: "info",
      msg: "inside",
      requestId: "req-1234567890",
      component: "checkout",
      sessionId: "cs_0123456789",
    });
    expect(typeof inside!.time).toBe("string");
  });

  it("replaces a malformed incoming request id with a new one", () => {
    const { log, records } = capture();
    withRequestId("bad id\nwith a newline", () => log.info("x"));
    expect(records()[0]!.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("puts background work's ids on its lines", () => {
    const { log, records } = capture();
    withLogContext({ eventId: "42" }, () => log.warn("retry"));
    expect(records()[0]).toMatchObject({ level: "warn", eventId: "42" });
  });

  it("logs an error by its safe shape, whatever is passed", () => {
    const { log, lines } = capture();
    const error = Object.assign(new Error("Failed query: insert … params: ana@example.com,612345678"), {
      query: "insert into x",
      params: ["ana@example.com", "612345678"],
    });
    logError(log, "saving failed", error, { sessionId: "cs_0123456789" });
    log.error(error);
    expect(lines.join("\n")).not.toMatch(/ana@example\.com|612345678|insert into/);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: "saving failed", sessionId: "cs_0123456789", err: { type: "DatabaseQueryError" } });
  });

  it("logs a refusal the partner API names by its code at info, and a failure of the API at error", () => {
    const { log, records } = capture();
    const refusal = new FinancingApiError({
      kind: "business",
      message: "POST /operations/{id}/cancel failed with 400 OPERATION_NOT_CANCELLABLE",
      endpoint: "POST /operations/{id}/cancel",
      requestId: "req-1",
      status: 400,
      errorCode: "OPERATION_NOT_CANCELLABLE",
    });
    const down = new FinancingApiError({
      kind: "http",
      message: "GET /operations/{id}/status failed with 503",
      endpoint: "GET /operations/{id}/status",
      requestId: "req-2",
      status: 503,
    });
    logError(log, "cancel failed", refusal);
    logError(log, "status failed", down);
    expect(records().map((record) => [record.level, record.msg])).toEqual([
      ["info", "cancel failed"],
      ["error", "status failed"],
    ]);
    expect(records()[0]).toMatchObject({ err: { api: { errorCode: "OPERATION_NOT_CANCELLABLE" } } });
  });

  it("redacts fields that must never be logged, as a second net", () => {
    const { log, lines } = capture();
    log.info({ email: "ana@example.com", customer: { phone: "612345678" }, nested: { password: "hunter2hunter2", token: "t" } }, "oops");
    const line = lines[0]!;
    expect(line).not.toMatch(/ana@example\.com|612345678|hunter2/);
    expect(JSON.parse(line)).toMatchObject({
      email: "[redacted]",
      customer: "[redacted]",
      nested: { password: "[redacted]", token: "[redacted]" },
    });
  });

  it("respects the level", () => {
    const { log, lines } = capture("warn");
    log.info("quiet");
    log.warn("loud");
    expect(lines).toHaveLength(1);
  });
});

describe("logLevelFrom", () => {
  it("reads LOG_LEVEL, defaults to info, and to silent in tests", () => {
    expect(logLevelFrom({ LOG_LEVEL: "debug" })).toBe("debug");
    expect(logLevelFrom({})).toBe("info");
    expect(logLevelFrom({ NODE_ENV: "production" })).toBe("info");
    expect(logLevelFrom({ NODE_ENV: "test" })).toBe("silent");
    expect(logLevelFrom({ NODE_ENV: "test", LOG_LEVEL: "warn" })).toBe("warn");
    // A bad value is refused at start by lib/config/env.ts; the logger itself falls back.
    expect(logLevelFrom({ LOG_LEVEL: "loud" })).toBe("info");
  });
});

describe("routeConsoleToLogger", () => {
  const original = { error: console.error, warn: console.warn };
  afterEach(() => Object.assign(console, original));

  it("turns what Next prints into safe JSON lines", () => {
    const { log, records } = capture();
    routeConsoleToLogger(log);
    console.error("⨯ Error: failed for ana@example.com", new Error("duplicate key (email)=(ana@example.com)"));
    console.warn("slow", { body: "secret" });
    const [error, warning] = records();
    expect(JSON.stringify(records())).not.toContain("ana@example.com");
    expect(error).toMatchObject({
      level: "error",
      msg: "⨯ Error: failed for [email]",
      err: { type: "Error", message: "duplicate key (email)=([email])" },
    });
    expect(warning).toMatchObject({ level: "warn", msg: "slow [object]" });
  });
});
