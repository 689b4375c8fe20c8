import { describe, expect, it } from "vitest";
import {
  ERROR_CODES,
  OPERATION_STATUSES,
  WEBHOOK_STATUSES,
  createOperationRequestSchema,
  financialOfferSchema,
  operationsPageSchema,
  webhookEventSchema,
} from "./contract";

describe("the contract", () => {
  it("lists every status of the spec, FINISHED included, and the six webhook statuses", () => {
    expect([...OPERATION_STATUSES].sort()).toEqual(
      [
        "GENERATED",
        "PENDING",
        "CLIENT_REQUESTED",
        "PENDING_RESPONSE",
        "FAVORABLE",
        "CONFIRMED",
        "REFUSED",
        "REFUNDED",
        "CANCELLED",
        "EXPIRED",
        "ERROR",
        "FINISHED",
      ].sort(),
    );
    expect([...WEBHOOK_STATUSES].sort()).toEqual(["CANCELLED", "CONFIRMED", "ERROR", "EXPIRED", "REFUNDED", "REFUSED"]);
  });

  it("names every error code of the spec with its HTTP status", () => {
    expect(ERROR_CODES).toEqual({
      VALIDATION_ERROR: [400],
      NO_FINANCIAL_COMPANIES_CONFIGURED: [422],
      DATA_INTEGRITY_ERROR: [422],
      INTERNAL_ERROR: [500],
      OPERATION_NOT_FOUND: [404],
      NOT_ELIGIBLE_FOR_FINANCING: [422],
      NOT_ACTIVE_OPERATION: [409],
      NOT_ELIGIBLE_FINANCIAL_OFFER: [422],
      OPERATION_NOT_CANCELLABLE: [400],
      OPERATION_NOT_REFUNDABLE: [400, 422],
      OPERATION_ACCESS_DENIED: [403],
      WEBHOOK_EVENT_OPERATION_MISMATCH: [403],
      WEBHOOK_EVENT_NOT_FOUND: [404],
      WEBHOOK_EVENT_STATUS_MISMATCH: [409],
      WEBHOOK_EVENT_NOT_ACKNOWLEDGEABLE: [409],
    });
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
