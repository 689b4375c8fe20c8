import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/app-error";
import { toAppError } from "@/lib/http/error-response";
import { isDatabaseUnavailable } from "./unavailable";

/** What postgres.js and Node throw, in their shapes. */
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, syscall: "connect" });
const driverError = (code: string) => Object.assign(new Error(`write ${code} 127.0.0.1:5432`), { code });
const postgresError = (code: string) => Object.assign(new Error("server says no"), { name: "PostgresError", code, severity: "FATAL" });
/** drizzle's DrizzleQueryError: the query, its parameters, the driver's error as cause. */
const drizzleWrapped = (cause: unknown) =>
  Object.assign(new Error("Failed query: select 1\nparams: "), { query: "select 1", params: [], cause });

describe("isDatabaseUnavailable", () => {
  it.each(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE"])("a socket error %s", (code) => {
    expect(isDatabaseUnavailable(socketError(code))).toBe(true);
    expect(isDatabaseUnavailable(drizzleWrapped(socketError(code)))).toBe(true);
  });

  it.each(["CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED", "CONNECT_TIMEOUT"])("postgres.js's %s", (code) => {
    expect(isDatabaseUnavailable(drizzleWrapped(driverError(code)))).toBe(true);
  });

  it.each(["08006", "08001", "08003", "57P01", "57P03", "53300"])(
    "PostgreSQL's SQLSTATE %s (connection lost, shutting down, full)",
    (code) => {
      expect(isDatabaseUnavailable(drizzleWrapped(postgresError(code)))).toBe(true);
    },
  );

  it("an address tried over IPv4 and IPv6 (AggregateError), and our own AppError", () => {
    expect(isDatabaseUnavailable(new AggregateError([socketError("ECONNREFUSED"), socketError("ECONNREFUSED")]))).toBe(true);
    expect(isDatabaseUnavailable(new AppError("database_unavailable", "m"))).toBe(true);
    expect(isDatabaseUnavailable(new AppError("internal", "m", { cause: drizzleWrapped(socketError("ECONNRESET")) }))).toBe(true);
  });

  it("not: a query's own failure, a bug, or another service unreachable", () => {
    // Unique violation, syntax error, a row the code cannot read.
    expect(isDatabaseUnavailable(drizzleWrapped(postgresError("23505")))).toBe(false);
    expect(isDatabaseUnavailable(drizzleWrapped(postgresError("42601")))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'amount')"))).toBe(false);
    // fetch's failure over a refused connection (the partner API, a partner's endpoint): its cause is not followed.
    expect(isDatabaseUnavailable(new TypeError("fetch failed", { cause: socketError("ECONNREFUSED") }))).toBe(false);
    // A string code that is not a SQLSTATE of a PostgreSQL error.
    expect(isDatabaseUnavailable(Object.assign(new Error("x"), { code: "08006" }))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable("ECONNREFUSED")).toBe(false);
  });
});

describe("toAppError: every error as what it is answered", () => {
  it("database_unavailable (503) when unreachable, internal (500) otherwise, an AppError as it is", () => {
    const down = toAppError(drizzleWrapped(socketError("ECONNREFUSED")));
    expect(down).toMatchObject({ code: "database_unavailable", status: 503 });
    expect(down.toBody()).toEqual({ error: { code: "database_unavailable", message: expect.stringMatching(/try again in a moment/) } });
    expect(toAppError(new Error("bug"))).toMatchObject({ code: "internal", status: 500 });
    const notFound = new AppError("not_found", "No checkout session with this id");
    expect(toAppError(notFound)).toBe(notFound);
  });
});
