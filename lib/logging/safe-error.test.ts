import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AppError } from "@/lib/app-error";
import { openDatabase, type Database } from "@/lib/db";
import { partners, staffUsers } from "@/lib/db/schema";
import { FinancingApiError } from "@/lib/financing/errors";
import { safeError, scrub } from "./safe-error";

const EMAIL = "ana.garcia+vip@example.com";
const PHONE = "+34 612 345 678";
const DOCUMENT = "12345678Z";
const BIRTH_DATE = "1990-05-17";

describe("safeError: database errors", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: "memory://" });
    await database.db.insert(partners).values({ id: "p1", name: "P", allowedOrigins: [] });
  });
  afterAll(async () => {
    await database.close();
  });

  it("logs a refused insert by its SQLSTATE, table and constraint; never the query or its parameters", async () => {
    const row = { id: "u1", partnerId: "p1", role: "admin" as const, email: EMAIL, name: `${DOCUMENT} ${PHONE}`, passwordHash: BIRTH_DATE };
    await database.db.insert(staffUsers).values(row);
    const error: unknown = await database.db
      .insert(staffUsers)
      .values({ ...row, id: "u2" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    // The driver's and drizzle's messages do carry the values: this is what must not reach a log.
    expect(String(error)).toContain(EMAIL);

    const safe = safeError(error);
    const text = JSON.stringify(safe);
    for (const secret of [EMAIL, DOCUMENT, PHONE, BIRTH_DATE, "insert into"]) expect(text).not.toContain(secret);
    expect(safe).toMatchObject({ type: "DatabaseQueryError", cause: { type: "DatabaseError", code: "23505", table: "staff_users" } });
    expect(safe.cause?.constraint).toMatch(/email/);
  });

  it("reads postgres.js's field names too, and nothing else of the error", () => {
    const error = Object.assign(new Error(`duplicate key value violates unique constraint: Key (email)=(${EMAIL})`), {
      name: "PostgresError",
      severity: "ERROR",
      code: "23505",
      detail: `Key (email)=(${EMAIL}) already exists.`,
      table_name: "staff_users",
      constraint_name: "staff_users_email_unique",
      parameters: [EMAIL],
    });
    expect(safeError(error)).toEqual({
      type: "DatabaseError",
      code: "23505",
      table: "staff_users",
      constraint: "staff_users_email_unique",
    });
  });
});

describe("safeError: our errors and the rest", () => {
  it("keeps FinancingApiError's safe shape", () => {
    const error = new FinancingApiError({
      kind: "business",
      endpoint: "POST /operations",
      requestId: "8f0e3c1a-1111-4222-8333-444455556666",
      status: 422,
      errorCode: "INVALID_CLIENT",
      message: `client.email ${EMAIL} is not valid`,
    });
    const safe = safeError(error);
    expect(safe.type).toBe("FinancingApiError");
    expect(safe.api).toMatchObject({
      endpoint: "POST /operations",
      status: 422,
      errorCode: "INVALID_CLIENT",
      requestId: "8f0e3c1a-1111-4222-8333-444455556666",
    });
    expect(JSON.stringify(safe)).not.toContain(EMAIL);
  });

  it("keeps that shape for an error from another bundle's copy of the class (a production build has several)", async () => {
    vi.resetModules();
    const copy = await import("@/lib/financing/errors");
    const error = new copy.FinancingApiError({
      kind: "business",
      endpoint: "POST /operations/{id}/cancel",
      requestId: "8f0e3c1a-1111-4222-8333-444455556666",
      status: 400,
      errorCode: "OPERATION_NOT_CANCELLABLE",
      message: "Operation op_c1b55f8eb6644fcaaa34 cannot be cancelled",
    });
    expect(error).not.toBeInstanceOf(FinancingApiError);
    const safe = safeError(error);
    expect(safe.type).toBe("FinancingApiError");
    expect(safe.api).toMatchObject({ endpoint: "POST /operations/{id}/cancel", status: 400, errorCode: "OPERATION_NOT_CANCELLABLE" });
  });

  it("names an error by its own name when its class name is minified", () => {
    class b extends Error {
      constructor() {
        super("the operation took too long");
        this.name = "TimeoutError";
      }
    }
    expect(safeError(new b()).type).toBe("TimeoutError");
    expect(safeError(new TypeError("x")).type).toBe("TypeError");
  });

  it("logs an AppError by its code, status and field names, and its cause safely", () => {
    const cause = Object.assign(new Error(`x ${EMAIL}`), { severity: "ERROR", code: "22P05", table: "checkout_sessions" });
    const error = new AppError("validation_failed", "Invalid session", {
      fields: [{ field: "customer.email", message: `${EMAIL} is not an e-mail` }],
      cause,
    });
    const safe = safeError(error);
    expect(safe).toMatchObject({ type: "AppError", code: "validation_failed", status: 400, fields: ["customer.email"] });
    expect(safe.cause).toEqual({ type: "DatabaseError", code: "22P05", table: "checkout_sessions" });
    expect(JSON.stringify(safe)).not.toContain(EMAIL);
  });

  it("keeps any other error's class and a scrubbed message", () => {
    const safe = safeError(new TypeError(`cannot read ${EMAIL} ${PHONE} ${DOCUMENT} born ${BIRTH_DATE}`));
    expect(safe.type).toBe("TypeError");
    expect(safe.message).toBe("cannot read [email] [number]Z born [date]");
  });

  it("cuts a cause chain that never ends", () => {
    const error = new Error("loop");
    (error as { cause?: unknown }).cause = error;
    expect(JSON.stringify(safeError(error))).toContain("(cause chain cut)");
  });
});

describe("scrub", () => {
  it("removes secrets and tokens but keeps a plain sentence", () => {
    expect(scrub("Authorization: Bearer demo_partner_secret_sandbox_only")).toBe("Authorization: Bearer [redacted]");
    expect(scrub("token Ab3dEf6hIj9kLm2nOp5qRs8tUv")).toBe("token [token]");
    expect(scrub("the partner API could not be reached")).toBe("the partner API could not be reached");
  });

  it("keeps our infrastructure's addresses readable and hides any other, as it may be a customer's", () => {
    expect(scrub("connect ECONNREFUSED 127.0.0.1:5432")).toBe("connect ECONNREFUSED 127.0.0.1:5432");
    expect(scrub("getaddrinfo failed for 10.0.12.7 and 172.20.0.3, 192.168.1.20")).toBe(
      "getaddrinfo failed for 10.0.12.7 and 172.20.0.3, 192.168.1.20",
    );
    expect(scrub("request from 83.45.120.9 refused")).toBe("request from [ip] refused");
    // 172.32.x is outside the private range.
    expect(scrub("via 172.32.0.1")).toBe("via [ip]");
    // What is around an address is still scrubbed.
    expect(scrub(`127.0.0.1 ${PHONE} born ${BIRTH_DATE}`)).toBe("127.0.0.1 [number] born [date]");
  });
});
