import { afterEach, describe, expect, it, vi } from "vitest";
import { validSessionBody } from "@/lib/testing/fuzz/valid-bodies";
import { createSessionSchema } from "./booking";
import { isoDayAfter, tripDayFromToday, tripToday } from "./trip-dates";

/** The fields a body with this prefill is refused for (none: accepted). */
function refusedFields(customer: Record<string, unknown>): string[] {
  const result = createSessionSchema.safeParse({ ...validSessionBody, customer });
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join("."));
}

describe("the return URL of a checkout session", () => {
  const refused = (returnUrl: string) => {
    const result = createSessionSchema.safeParse({ ...validSessionBody, returnUrl });
    return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  };

  it("refuses one carrying a user name or password, and one longer than 2048 characters, naming the field", () => {
    expect(refused("http://user:pw@localhost:3000/")).toEqual(["returnUrl: must not carry a user name or password"]);
    expect(refused(`http://localhost:3000/${"a".repeat(2100)}`)).toEqual(["returnUrl: must be at most 2048 characters"]);
    expect(refused("http://localhost:3000/booking/BK-1?step=done")).toEqual([]);
  });
});

describe("the booking of a checkout session", () => {
  const refused = (booking: Record<string, unknown>) => {
    const result = createSessionSchema.safeParse({ ...validSessionBody, booking: { ...validSessionBody.booking, ...booking } });
    return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  };
  const price = (amount: unknown) => ({ totalPrice: { amount, currency: "EUR" } });

  it("refuses a price under a cent, which would be shown and sent as 0.00 EUR, naming the field", () => {
    for (const amount of [1e-9, 5e-324, 0.000000009]) {
      expect(refused(price(amount)), String(amount)).toEqual(["booking.totalPrice.amount: must be at least 0.01"]);
    }
    expect(refused(price(0))).toEqual(["booking.totalPrice.amount: must be at least 0.01"]);
    expect(refused(price(-5))).toEqual(["booking.totalPrice.amount: must be at least 0.01"]);
    expect(refused(price(0.01))).toEqual([]);
    expect(refused(price(1234.5))).toEqual([]);
  });

  it("refuses a booking reference that is a dot segment: the partner API's lookup by externalId could never reach it", () => {
    expect(refused({ bookingReference: "." })).toEqual(["booking.bookingReference: must not be . or .."]);
    expect(refused({ bookingReference: ".." })).toEqual(["booking.bookingReference: must not be . or .."]);
    expect(refused({ bookingReference: "..." })).toEqual([]);
    expect(refused({ bookingReference: "BK.2026/11#7" })).toEqual([]);
  });
});

describe("the dates of a checkout session's booking", () => {
  const refused = (items: { flights?: unknown[]; hotels?: unknown[] }) => {
    const booking = { ...validSessionBody.booking, flights: [], hotels: [], services: [{ description: "Transfer" }], ...items };
    const result = createSessionSchema.safeParse({ ...validSessionBody, booking });
    return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  };
  const flight = (departureDate: string, returnDate?: string) => ({ origin: "MAD", destination: "LIS", departureDate, returnDate });
  const hotel = (checkInDate: string, checkOutDate: string) => ({ name: "Hotel Tejo", checkInDate, checkOutDate });
  const day = tripDayFromToday;

  afterEach(() => {
    vi.useRealTimers();
  });

  it("refuses a flight that returns before it departs, naming returnDate; a same-day return is a day trip", () => {
    expect(refused({ flights: [flight(day(10), day(9))] })).toEqual(["booking.flights.0.returnDate: must not be before departureDate"]);
    expect(refused({ flights: [flight(day(10), day(10))] })).toEqual([]);
    expect(refused({ flights: [flight(day(10))] })).toEqual([]);
  });

  it("refuses a hotel whose check-out is not after its check-in (no night), naming checkOutDate", () => {
    expect(refused({ hotels: [hotel(day(10), day(9))] })).toEqual(["booking.hotels.0.checkOutDate: must be after checkInDate"]);
    expect(refused({ hotels: [hotel(day(10), day(10))] })).toEqual(["booking.hotels.0.checkOutDate: must be after checkInDate"]);
    expect(refused({ hotels: [hotel(day(10), day(11))] })).toEqual([]);
  });

  it("refuses a departure or a check-in before today, naming the field and the day it was checked against", () => {
    const today = tripToday();
    const past = `must not be before today (${today} in Europe/Madrid)`;
    expect(refused({ flights: [flight(day(-1), day(3))], hotels: [hotel(day(-1), day(3))] })).toEqual([
      `booking.flights.0.departureDate: ${past}`,
      `booking.hotels.0.checkInDate: ${past}`,
    ]);
    expect(refused({ flights: [flight(today, today)], hotels: [hotel(today, day(1))] })).toEqual([]);
    // Every problem in one answer: a past departure does not hide an inverted return.
    expect(refused({ flights: [flight(day(-1), day(-2))] })).toEqual([
      `booking.flights.0.departureDate: ${past}`,
      "booking.flights.0.returnDate: must not be before departureDate",
    ]);
    // A date that is no date is told so, once.
    expect(refused({ flights: [flight("2020-02-30")] })).toEqual(["booking.flights.0.departureDate: must be a date as yyyy-MM-dd"]);
  });

  it("reads today in Europe/Madrid, whatever the server's zone: just after midnight there, yesterday is past", () => {
    // 23:30 UTC on 2026-11-21 is 00:30 on 2026-11-22 in Madrid (CET, UTC+1).
    vi.useFakeTimers({ now: new Date("2026-11-21T23:30:00Z"), toFake: ["Date"] });
    expect(tripToday()).toBe("2026-11-22");
    expect(refused({ flights: [flight("2026-11-21")] })).toEqual([
      "booking.flights.0.departureDate: must not be before today (2026-11-22 in Europe/Madrid)",
    ]);
    expect(refused({ flights: [flight("2026-11-22")] })).toEqual([]);
    // 21:30 UTC in summer is 23:30 in Madrid (CEST, UTC+2): still the same day.
    vi.setSystemTime(new Date("2027-07-01T21:30:00Z"));
    expect(tripToday()).toBe("2027-07-01");
    expect(refused({ hotels: [hotel("2027-07-01", "2027-07-02")] })).toEqual([]);
    expect(isoDayAfter("2028-02-28", 1)).toBe("2028-02-29");
  });
});

describe("the customer prefill of a checkout session", () => {
  it("takes the documented values where the form offers a choice or reads a format", () => {
    expect(
      refusedFields({
        firstName: "Ana",
        email: "ana@example.com",
        documentType: "NIE",
        gender: "FEMALE",
        birthDate: "1990-07-04",
        documentValidityDate: "2030-01-31",
        nationality: "PRT",
        countryCode: "ESP",
      }),
    ).toEqual([]);
  });

  it("refuses, naming each field, a value the form could not show (it was dropped without a word)", () => {
    expect(
      refusedFields({
        email: "not-an-email",
        documentType: "FOO",
        gender: "X",
        birthDate: "31/12/1990",
        documentValidityDate: "2030-02-30",
        nationality: "ES",
        countryCode: "XXX",
      }).sort(),
    ).toEqual([
      "customer.birthDate",
      "customer.countryCode",
      "customer.documentType",
      "customer.documentValidityDate",
      "customer.email",
      "customer.gender",
      "customer.nationality",
    ]);
  });

  it("still takes free text as the customer would type it, checked for characters and length only", () => {
    expect(refusedFields({ address: "Calle Mayor 1, 3º B", city: "A Coruña", postalCode: "28013", phone: "612 345 678" })).toEqual([]);
    expect(refusedFields({ city: "x".repeat(255) })).toEqual(["customer.city"]);
  });
});
