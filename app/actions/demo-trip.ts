import { tripDayFromToday } from "@/lib/checkout/session/trip-dates";
import type { Locale } from "@/lib/i18n/locales";

/**
 * The demo shop's sample trip: what the shop at `/` shows and what its "Pay in installments"
 * button books. Dates are a few weeks ahead of today, so the trip is always in the future.
 */

export const SAMPLE_TRIP_PRICE_CENTS = 123_450;
const DAYS_AHEAD = 45;
const NIGHTS = 4;

export function sampleTrip(locale: Locale, today = new Date()) {
  const departureDate = tripDayFromToday(DAYS_AHEAD, today);
  const returnDate = tripDayFromToday(DAYS_AHEAD + NIGHTS, today);
  return {
    packageName: locale === "es" ? "Lisboa, 4 noches" : "Lisbon, 4 nights",
    nights: NIGHTS,
    travellers: 2,
    totalPrice: { amount: SAMPLE_TRIP_PRICE_CENTS / 100, currency: "EUR" as const },
    flights: [{ origin: "MAD", destination: "LIS", departureDate, returnDate, carrier: "TAP Air Portugal" }],
    hotels: [
      { name: "Hotel Miradouro Alfama", city: locale === "es" ? "Lisboa" : "Lisbon", checkInDate: departureDate, checkOutDate: returnDate },
    ],
  };
}
