import { describe, expect, it } from "vitest";
import { operationsCsv, operationsCsvFileName } from "./operations-csv";
import type { ListedOperation } from "./operations";

const operation: ListedOperation["operation"] = {
  id: "op_1",
  operationNumber: 42,
  externalId: "BK-1",
  status: "CONFIRMED",
  totalPrice: { cents: 123450, currency: "EUR" },
  totalReserve: { cents: 5000, currency: "EUR" },
  financingUrl: null,
  updatedAt: "2026-03-01T10:00:00Z",
};

describe("the operations export", () => {
  it("gives one line per operation, amounts in units, the checkout's session id only as a hint", () => {
    const csv = operationsCsv([
      {
        operation,
        session: {
          sessionId: "cs_0123456789abcdef",
          bookingReference: "BK-1",
          packageName: "Lisboa",
          customerName: "Ana Ruiz",
          customerData: "present",
          createdBy: null,
        },
      },
      { operation: { ...operation, id: "op_2", externalId: null }, session: undefined },
    ]);
    const lines = csv.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines[0]).toBe(
      '"operationId","operationNumber","bookingReference","status","totalPrice","totalReserve","currency","updatedAt","customerName","packageName","checkoutSessionId"',
    );
    expect(lines[1]).toBe(
      '"op_1","42","BK-1","CONFIRMED","1234.50","50.00","EUR","2026-03-01T10:00:00Z","Ana Ruiz","Lisboa","cs_0123456…"',
    );
    expect(lines[2]).toBe('"op_2","42","","CONFIRMED","1234.50","50.00","EUR","2026-03-01T10:00:00Z","","",""');
    expect(lines.slice(3)).toEqual([""]);
  });

  it("names the file by the day it was made, in UTC", () => {
    expect(operationsCsvFileName(new Date("2026-03-01T23:30:00-02:00"))).toBe("operations-2026-03-02.csv");
  });
});
