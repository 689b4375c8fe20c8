import { describe, expect, it } from "vitest";
import { tripDayFromToday } from "@/lib/checkout/session/trip-dates";
import { PAYMENT_LINK_MESSAGES } from "@/lib/i18n/payment-link-messages";
import { paymentLinkFormSchema, parsePaymentLinkForm } from "./payment-link-form";

/** The "New payment link" form goes through the checkout sessions API's own schema. */

const RETURN_URL = "https://agency.example/";
const DEPARTURE = tripDayFromToday(60);

function form(values: Record<string, string>) {
  return paymentLinkFormSchema.parse({
    bookingReference: "PHONE-1",
    packageName: "Lisboa, 4 noches",
    travellers: "2",
    total: "1234,50",
    packageTravel: "1",
    flightOrigin: "MAD",
    flightDestination: "LIS",
    flightDepartureDate: DEPARTURE,
    locale: "es",
    ...values,
  });
}

describe("parsePaymentLinkForm", () => {
  it("turns the form into what the API takes, with the partner's return URL and the prefill, never a document or birth date", () => {
    // A post that still carries them (an old page, a hand-made request): they go nowhere.
    const posted = paymentLinkFormSchema.parse({ ...form({ email: "ana@example.com" }), documentId: "12345678Z", birthDate: "1985-03-14" });
    const parsed = parsePaymentLinkForm(posted, RETURN_URL);
    expect(parsed).toEqual({
      ok: true,
      input: {
        booking: {
          bookingReference: "PHONE-1",
          packageName: "Lisboa, 4 noches",
          packageTravel: true,
          travellers: 2,
          totalPrice: { amount: 1234.5, currency: "EUR" },
          flights: [{ origin: "MAD", destination: "LIS", departureDate: DEPARTURE }],
          hotels: [],
          services: [],
        },
        customer: { email: "ana@example.com" },
        returnUrl: RETURN_URL,
        locale: "es",
      },
    });
  });

  it("takes a hotel or a service instead of a flight, and an unticked package box", () => {
    const parsed = parsePaymentLinkForm(
      form({
        flightOrigin: "",
        flightDestination: "",
        flightDepartureDate: "",
        serviceDescription: "Seguro de viaje",
        packageTravel: undefined as never,
      }),
      RETURN_URL,
    );
    expect(parsed.ok && parsed.input.booking).toMatchObject({
      packageTravel: false,
      flights: [],
      services: [{ description: "Seguro de viaje" }],
    });
  });

  it("names the form's fields with the API's rules: no item, a bad amount, travellers, a reference, a half-filled flight", () => {
    const none = parsePaymentLinkForm(form({ flightOrigin: "", flightDestination: "", flightDepartureDate: "" }), RETURN_URL);
    expect(none).toEqual({
      ok: false,
      problems: [{ field: "flightOrigin", message: "at least one flight, hotel or service is required" }],
    });

    const bad = parsePaymentLinkForm(
      form({ total: "12,345", travellers: "two", bookingReference: "bad ref!", flightDestination: "", hotelName: "Hotel Sol" }),
      RETURN_URL,
    );
    expect(bad.ok).toBe(false);
    const fields = !bad.ok ? bad.problems.map((problem) => problem.field).sort() : [];
    expect(fields).toEqual(
      ["bookingReference", "flightDestination", "hotelCheckInDate", "hotelCheckOutDate", "total", "travellers"].sort(),
    );

    const zero = parsePaymentLinkForm(form({ total: "" }), RETURN_URL);
    expect(zero).toMatchObject({ ok: false, problems: [{ field: "total", message: "must be at least 0.01" }] });
  });

  it("shows a trip in the past, a return before the departure and a check-out not after the check-in on their own fields", () => {
    const yesterday = tripDayFromToday(-1);
    const parsed = parsePaymentLinkForm(
      form({
        flightDepartureDate: yesterday,
        flightReturnDate: tripDayFromToday(-2),
        hotelName: "Hotel Sol",
        hotelCheckInDate: yesterday,
        hotelCheckOutDate: yesterday,
      }),
      RETURN_URL,
    );
    expect(parsed.ok).toBe(false);
    const fields = !parsed.ok ? parsed.problems.map((problem) => problem.field).sort() : [];
    expect(fields).toEqual(["flightDepartureDate", "flightReturnDate", "hotelCheckInDate", "hotelCheckOutDate"]);

    const inverted = parsePaymentLinkForm(form({ flightReturnDate: tripDayFromToday(59) }), RETURN_URL);
    expect(inverted).toEqual({ ok: false, problems: [{ field: "flightReturnDate", message: "must not be before departureDate" }] });
    expect(parsePaymentLinkForm(form({ flightReturnDate: DEPARTURE }), RETURN_URL).ok).toBe(true);
  });

  it("tells staff, in both languages, what each date field needs", () => {
    for (const messages of Object.values(PAYMENT_LINK_MESSAGES)) {
      const { flightDepartureDate, flightReturnDate, hotelCheckInDate, hotelCheckOutDate } = messages.fieldErrors;
      expect(
        [flightDepartureDate, hotelCheckInDate].every((text) => /hoy|today/.test(text)),
        flightDepartureDate,
      ).toBe(true);
      expect(flightReturnDate).toMatch(/ida|departure/);
      expect(hotelCheckOutDate).toMatch(/entrada|check-in/);
    }
  });

  it("refuses a language the checkout does not speak", () => {
    expect(parsePaymentLinkForm(form({ locale: "fr" }), RETURN_URL)).toMatchObject({ ok: false, problems: [{ field: "locale" }] });
  });
});
