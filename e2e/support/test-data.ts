import { randomUUID } from "node:crypto";
import type { ClientData } from "@/lib/financing/types";

/*
 * The one test customer and the one test booking every spec uses, in the app's own terms (dates
 * yyyy-MM-dd, countries by their ISO 3166-1 alpha-3 code). The clients of the checkout sessions API
 * (checkout-sessions.ts) and of the financing API's sandbox (sandbox.ts) put them into their wire
 * formats; the details form's page object types them in.
 */

/** A day `years` years (and `days` days) away from today (UTC), as yyyy-MM-dd. */
export function isoDayFromToday({ years = 0, days = 0 }: { years?: number; days?: number }): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear() + years, now.getUTCMonth(), now.getUTCDate() + days)).toISOString().slice(0, 10);
}

/** The customer's details as the form takes them (and as the checkout sessions API prefills them). */
export type CustomerDetails = ClientData & { documentType: "DNI" | "NIE" | "PASSPORT" };

/**
 * The test customer: an adult Spanish customer with a valid DNI, everything the form asks for.
 * Tests change what they exercise, e.g. `aCustomer({ email: "ana+refuse_all@example.com" })` for
 * the sandbox's triggers (docs/qa/README.md, "Triggers").
 */
export function aCustomer(overrides: Partial<CustomerDetails> = {}): CustomerDetails {
  return {
    firstName: "Ana",
    lastName: "García López",
    email: "ana@example.com",
    prefix: "+34",
    phone: "612345678",
    documentType: "DNI",
    documentId: "12345678Z",
    documentValidityDate: isoDayFromToday({ years: 5 }),
    gender: "FEMALE",
    birthDate: "1990-07-04",
    nationality: "ESP",
    address: "Calle Mayor 1, 3º B",
    city: "Madrid",
    postalCode: "28013",
    countryCode: "ESP",
    ...overrides,
  };
}

/** The name lists and pages show: "Ana García López". */
export function fullName(customer: Pick<CustomerDetails, "firstName" | "lastName">): string {
  return `${customer.firstName} ${customer.lastName}`;
}

export interface Flight {
  origin: string;
  destination: string;
  departureDate: string;
  returnDate?: string;
}

export interface TestBooking {
  packageName: string;
  travellers: number;
  /** In EUR, as both APIs take it. */
  totalPrice: number;
  flights: readonly Flight[];
}

/** The test booking: a trip for two of 1,234.50 EUR, flying out a year from today. */
export const TEST_BOOKING: Readonly<TestBooking> = {
  packageName: "Lisboa, 4 noches",
  travellers: 2,
  totalPrice: 1234.5,
  flights: [
    { origin: "MAD", destination: "LIS", departureDate: isoDayFromToday({ years: 1 }), returnDate: isoDayFromToday({ years: 1, days: 4 }) },
  ],
};

/** A unique booking reference (the financing API's externalId), e.g. "E2E-LIST-3F9A0B1C". */
export function aBookingReference(prefix = "E2E"): string {
  return `${prefix}-${randomUUID().slice(0, 8).toUpperCase()}`;
}

/** A valid Spanish DNI no other test uses: 8 random digits and their check letter. */
export function aDni(): string {
  return dniOf(Math.floor(10_000_000 + Math.random() * 89_999_999));
}

/** A DNI with its check letter, from its eight digits. */
export function dniOf(digits: number): string {
  return `${digits}${"TRWAGMYFPDXBNJZSQVHLCKE"[digits % 23]}`;
}
