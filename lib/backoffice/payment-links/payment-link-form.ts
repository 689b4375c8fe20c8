import { z } from "zod";
import { createSessionSchema, type CreateSessionInput } from "@/lib/checkout/session/booking";
import { LOCALES, type Locale } from "@/lib/i18n/locales";
import { safeText } from "@/lib/validation/text";
import { parseChargeCents } from "../refunds/review";

/**
 * The back-office's "New payment link" form, flat as a form posts it, turned into exactly what
 * `POST /api/checkout-sessions` takes and checked by the same schema (`createSessionSchema`): one
 * set of rules for a booking, whoever opens the session. Pure (no I/O): tested on its own.
 *
 * The form has one flight, one hotel and one service: a group counts when any of its fields is
 * filled. The total is typed as people write it (1234,50). Errors come back named by the form's
 * field, whatever path the schema gave them.
 */

const field = () => z.string().check(safeText()).max(1000).default("");

/**
 * What staff may prefill for the customer. Never the identity document or the birth date: a payment
 * link travels by e-mail and chat, and whoever holds it would see them; the customer types those.
 */
export const PREFILL_FIELDS = ["firstName", "lastName", "email", "phone"] as const;
export type PrefillField = (typeof PREFILL_FIELDS)[number];

export const paymentLinkFormSchema = z.object({
  bookingReference: field(),
  packageName: field(),
  travellers: field(),
  total: field(),
  /** A checkbox: present when ticked. */
  packageTravel: z.string().max(10).optional(),
  flightOrigin: field(),
  flightDestination: field(),
  flightDepartureDate: field(),
  flightReturnDate: field(),
  hotelName: field(),
  hotelCity: field(),
  hotelCheckInDate: field(),
  hotelCheckOutDate: field(),
  serviceDescription: field(),
  locale: z.string().max(10).default(""),
  firstName: field(),
  lastName: field(),
  email: field(),
  phone: field(),
});
export type PaymentLinkForm = z.output<typeof paymentLinkFormSchema>;
export type PaymentLinkFormField = keyof PaymentLinkForm;

/** The form's field for a path of createSessionSchema (`booking.flights.0.origin` → flightOrigin). */
const FIELD_OF_PATH: Record<string, PaymentLinkFormField> = {
  "booking.bookingReference": "bookingReference",
  "booking.packageName": "packageName",
  "booking.travellers": "travellers",
  "booking.totalPrice": "total",
  "booking.totalPrice.amount": "total",
  "booking.flights": "flightOrigin",
  "booking.flights.0.origin": "flightOrigin",
  "booking.flights.0.destination": "flightDestination",
  "booking.flights.0.departureDate": "flightDepartureDate",
  "booking.flights.0.returnDate": "flightReturnDate",
  "booking.hotels.0.name": "hotelName",
  "booking.hotels.0.city": "hotelCity",
  "booking.hotels.0.checkInDate": "hotelCheckInDate",
  "booking.hotels.0.checkOutDate": "hotelCheckOutDate",
  "booking.services.0.description": "serviceDescription",
  locale: "locale",
};

export interface FormProblem {
  field: PaymentLinkFormField;
  message: string;
}

const filled = (...values: string[]) => values.some((value) => value.trim() !== "");
const optional = (value: string) => (value.trim() === "" ? undefined : value.trim());

/** The request body the API would get for this form (before validation), with the partner's return URL. */
export function paymentLinkRequest(form: PaymentLinkForm, returnUrl: string): unknown {
  const cents = parseChargeCents(form.total);
  const travellers = /^\d{1,3}$/.test(form.travellers.trim())
    ? Number(form.travellers.trim())
    : form.travellers.trim() === ""
      ? undefined
      : NaN;
  const customer = Object.fromEntries(
    PREFILL_FIELDS.map((name) => [name, optional(form[name])]).filter(([, value]) => value !== undefined),
  ) as Partial<Record<PrefillField, string>>;
  return {
    booking: {
      bookingReference: form.bookingReference,
      packageName: form.packageName,
      packageTravel: form.packageTravel !== undefined,
      travellers,
      // "" is no amount (0 for parseChargeCents), refused below as "must be at least 0.01".
      totalPrice: { amount: cents === undefined ? NaN : cents / 100, currency: "EUR" },
      flights: filled(form.flightOrigin, form.flightDestination, form.flightDepartureDate, form.flightReturnDate)
        ? [
            {
              origin: form.flightOrigin,
              destination: form.flightDestination,
              departureDate: form.flightDepartureDate,
              returnDate: optional(form.flightReturnDate),
            },
          ]
        : [],
      hotels: filled(form.hotelName, form.hotelCity, form.hotelCheckInDate, form.hotelCheckOutDate)
        ? [
            {
              name: form.hotelName,
              city: optional(form.hotelCity),
              checkInDate: form.hotelCheckInDate,
              checkOutDate: form.hotelCheckOutDate,
            },
          ]
        : [],
      services: filled(form.serviceDescription) ? [{ description: form.serviceDescription }] : [],
    },
    customer: Object.keys(customer).length > 0 ? customer : undefined,
    returnUrl,
    locale: optional(form.locale),
  };
}

/**
 * The form checked by the checkout sessions API's own schema: the input for createSession, or the
 * problems by form field (a path the form has no field for is reported on the reference).
 */
export function parsePaymentLinkForm(
  form: PaymentLinkForm,
  returnUrl: string,
): { ok: true; input: CreateSessionInput } | { ok: false; problems: FormProblem[] } {
  const parsed = createSessionSchema.safeParse(paymentLinkRequest(form, returnUrl));
  if (parsed.success) return { ok: true, input: parsed.data };
  const problems: FormProblem[] = [];
  for (const issue of parsed.error.issues) {
    const path = issue.path.map(String).join(".");
    const name = FIELD_OF_PATH[path] ?? (path.startsWith("customer.") ? (path.slice(9) as PaymentLinkFormField) : "bookingReference");
    // One message per field: the first the schema gave.
    if (!problems.some((problem) => problem.field === name)) problems.push({ field: name, message: messageOf(path, issue.message) });
  }
  return { ok: false, problems };
}

/** NaN stands for "not a number" typed by staff: said in words rather than zod's "expected number". */
function messageOf(path: string, message: string): string {
  if (path === "booking.totalPrice.amount" && /expected number|NaN/i.test(message)) return "must be an amount like 1234,50";
  if (path === "booking.travellers" && /expected number|NaN/i.test(message)) return "must be a whole number";
  if (path === "booking.travellers" && /received undefined|required/i.test(message)) return "is required";
  return message;
}

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}
