import { sessionIdHint } from "@/lib/backoffice/common/format";
import { amountFromCents } from "@/lib/financing/money";
import { toCsv } from "./csv";
import type { ListedOperation } from "./operations";

/** The export's columns, in the partner API's and the checkout's own words. */
const HEADER = [
  "operationId",
  "operationNumber",
  "bookingReference",
  "status",
  "totalPrice",
  "totalReserve",
  "currency",
  "updatedAt",
  "customerName",
  "packageName",
  "checkoutSessionId",
] as const;

/** The operations list's rows as the CSV export gives them: one line per operation, amounts in units. */
export function operationsCsv(rows: readonly ListedOperation[]): string {
  return toCsv(
    HEADER,
    rows.map(({ operation, session }) => [
      operation.id,
      operation.operationNumber,
      operation.externalId,
      operation.status,
      amountFromCents(operation.totalPrice.cents).toFixed(2),
      amountFromCents(operation.totalReserve.cents).toFixed(2),
      operation.totalPrice.currency,
      operation.updatedAt,
      session?.customerName,
      session?.packageName,
      // Its first characters only: enough to match, not to open the customer's checkout.
      session && sessionIdHint(session.sessionId),
    ]),
  );
}

/** The export's file name: the day it was made (UTC). */
export function operationsCsvFileName(now: Date): string {
  return `operations-${now.toISOString().slice(0, 10)}.csv`;
}
