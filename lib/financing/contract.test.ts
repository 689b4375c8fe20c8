import { describe, expect, it } from "vitest";
import {
  ERROR_CODES,
  MAX_ITEM_DEPTH,
  OPERATION_STATUSES,
  WEBHOOK_STATUSES,
  createOperationRequestSchema,
  financialOfferSchema,
  operationsPageSchema,
  webhookEventSchema,
} from "./contract";

describe("the contract", () => {
  it("lists every status of the spec, FINISHED included, and the six webhook statuses", () => {
    // The spec's status table, in its order.
    const specStatuses =
      "GENERATED PENDING CLIENT_REQUESTED PENDING_RESPONSE FAVORABLE CONFIRMED REFUSED REFUNDED CANCELLED EXPIRED ERROR FINISHED";
    expect([...OPERATION_STATUSES].sort()).toEqual(specStatuses.split(" ").sort());
    expect([...WEBHOOK_STATUSES].sort()).toEqual(["CANCELLED", "CONFIRMED", "ERROR", "EXPIRED", "REFUNDED", "REFUSED"]);
  });

  it("names every error code of the spec with its HTTP status", () => {
    // The spec's "Named error codes" table, copied as it is written there (code | status | where).
    const SPEC_TABLE = `
      | VALIDATION_ERROR | 400 | simulation (amount not above zero), POST /financing |
      | NO_FINANCIAL_COMPANIES_CONFIGURED | 422 | simulation |
      | DATA_INTEGRITY_ERROR | 422 | simulation, health (conflict with existing data) |
      | INTERNAL_ERROR | 500 | health, simulation (unexpected error) |
      | OPERATION_NOT_FOUND | 404 | GET /financing/{operationIdentifier}, acknowledgement |
      | NOT_ELIGIBLE_FOR_FINANCING | 422 | GET /financing/{operationIdentifier} |
      | NOT_ACTIVE_OPERATION | 409 | POST /financing |
      | NOT_ELIGIBLE_FINANCIAL_OFFER | 422 | POST /financing |
      | OPERATION_NOT_CANCELLABLE | 400 | cancel of CLIENT_REQUESTED or CONFIRMED |
      | OPERATION_NOT_REFUNDABLE | 400 | refund or refund details when not CONFIRMED |
      | OPERATION_NOT_REFUNDABLE | 422 | refund rejected by the provider |
      | OPERATION_ACCESS_DENIED | 403 | acknowledgement |
      | WEBHOOK_EVENT_OPERATION_MISMATCH | 403 | acknowledgement |
      | WEBHOOK_EVENT_NOT_FOUND | 404 | acknowledgement |
      | WEBHOOK_EVENT_STATUS_MISMATCH | 409 | acknowledgement |
      | WEBHOOK_EVENT_NOT_ACKNOWLEDGEABLE | 409 | acknowledgement |`;
    const expected: Record<string, number[]> = {};
    for (const [, code, status] of SPEC_TABLE.matchAll(/\|\s*([A-Z_]+)\s*\|\s*(\d{3})\s*\|/g)) {
      (expected[code!] ??= []).push(Number(status));
    }
    expect(Object.keys(expected)).toHaveLength(15);
    expect(ERROR_CODES).toEqual(expected);
  });

  it("keeps an offer's unknown fields", () => {
    const offer = financialOfferSchema.parse({
      id: 1,
      companyName: "X",
      tae: 0,
      tin: 0,
      installments: 3,
      commonQuota: 33.33,
      differentialQuota: 33.34,
      differentialIsFirst: false,
      totalInterestPaid: 0,
      totalFinanced: 100,
      openingFee: 2.5,
    });
    expect(offer.openingFee).toBe(2.5);
  });

  it("validates the webhook body: one of the six statuses, an integer eventId", () => {
    expect(webhookEventSchema.safeParse({ operationIdentifier: "op", operationStatus: "CONFIRMED", eventId: 3 }).success).toBe(true);
    expect(webhookEventSchema.safeParse({ operationIdentifier: "op", operationStatus: "PENDING", eventId: 3 }).success).toBe(false);
    expect(webhookEventSchema.safeParse({ operationIdentifier: "op", operationStatus: "CONFIRMED", eventId: 1.5 }).success).toBe(false);
  });

  it("requires at least one flight, hotel or service in a create body", () => {
    const body = {
      packageTravel: true,
      travelersNumber: 1,
      client: {
        firstName: "A",
        lastName: "B",
        email: "a@b.es",
        prefix: "+34",
        phone: "600000000",
        documentId: "X",
        documentValidityDate: "01-01-2030",
        gender: "MALE",
        birthDate: "01-01-1990",
        nationality: "ESP",
        address: "C",
        city: "M",
        postalCode: "1",
        countryCode: "ESP",
      },
    };
    const refused = createOperationRequestSchema.safeParse(body);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toMatch(/at least one flight, hotel or service/);
    expect(createOperationRequestSchema.safeParse({ ...body, services: [{ description: "Transfer" }] }).success).toBe(true);

    // Free-form items nest up to MAX_ITEM_DEPTH levels; deeper is a field error, not a stack overflow (a 500).
    const nested = (depth: number): unknown => JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`);
    const deep = createOperationRequestSchema.safeParse({ ...body, hotels: [{ a: nested(3000) }] });
    expect(deep.success).toBe(false);
    expect(deep.error?.issues.map((issue) => [issue.path.slice(0, 3), issue.message])).toEqual([
      [["hotels", 0, "a"], `is nested more than ${MAX_ITEM_DEPTH} levels deep`],
    ]);
    expect(createOperationRequestSchema.safeParse({ ...body, hotels: [{ a: nested(MAX_ITEM_DEPTH - 1) }] }).success).toBe(true);
  });

  it("reads a Spring Data page", () => {
    const page = operationsPageSchema.parse({
      content: [],
      number: 0,
      size: 20,
      totalElements: 0,
      totalPages: 0,
      first: true,
      last: true,
      sort: { sorted: false },
    });
    expect(page.first).toBe(true);
  });
});
