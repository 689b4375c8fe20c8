import { tripDayFromToday } from "@/lib/checkout/session/trip-dates";

/*
 * The valid bodies the fuzz's hostile ones are mutated from (lib/testing/fuzz/surfaces.ts): a
 * checkout session the partner API takes, and a financing webhook's event.
 */

// Weeks ahead of today: a fixed date would make the valid body invalid once it passed.
const departure = tripDayFromToday(60);
const back = tripDayFromToday(64);

export const validSessionBody = {
  booking: {
    bookingReference: "FUZZ-1",
    packageName: "Lisboa, 4 noches",
    packageTravel: true,
    travellers: 2,
    totalPrice: { amount: 1234.5, currency: "EUR" },
    flights: [{ origin: "MAD", destination: "LIS", departureDate: departure, returnDate: back, carrier: "TP" }],
    hotels: [{ name: "Hotel", city: "Lisboa", checkInDate: departure, checkOutDate: back }],
    services: [{ description: "Transfer", type: "transfer" }],
  },
  customer: {
    firstName: "Ana",
    lastName: "García",
    email: "ana@example.com",
    phone: "612345678",
    documentId: "12345678Z",
    birthDate: "1990-07-04",
    address: "Calle Mayor 1",
  },
  returnUrl: "https://shop.example.com/back",
  locale: "es",
};

/** A webhook's event of the financing API (also the body of the sandbox's acknowledgement). */
export const validWebhookEvent = { operationIdentifier: "op_fuzz", operationStatus: "CONFIRMED", eventId: 42 };
