import { createHash } from "node:crypto";
import type { SameType } from "@/lib/vocabulary/same-type";
import type { StoredBooking } from "@/lib/vocabulary/session";
import { z } from "zod";
import { queryDateSchema } from "@/lib/financing/contract";
import { centsFromAmount } from "@/lib/financing/money";
import type { CreateOperationInput } from "@/lib/financing/types";
import { isCountryCode } from "./countries";
import { CUSTOMER_FIELDS, DOCUMENT_TYPES } from "./customer";
import { LOCALES } from "@/lib/i18n/locales";
import { safeText } from "@/lib/validation/text";
import { TRIP_TIME_ZONE, tripToday } from "./trip-dates";

/**
 * What a partner's backend sends to open a checkout session (`POST /api/checkout-sessions`): the
 * booking, optionally what it knows of the customer, where to send the customer back, a locale.
 * Dates are ISO (yyyy-MM-dd), money is `{amount, currency}` with at most two decimals.
 */

// Checked before trimming: a control character or a lone surrogate is refused, never stored (PostgreSQL
// refuses a NUL, and a lone surrogate in JSON).
const plain = () => z.string().check(safeText());
const text = (max: number) => plain().trim().min(1, "is required").max(max, `must be at most ${max} characters`);
const DATE_MESSAGE = "must be a date as yyyy-MM-dd";
// The length first, and alone (`abort`): the document states it (maxLength 10), the calendar check follows.
const isoDate = z
  .string()
  .max(10, { error: DATE_MESSAGE, abort: true })
  .refine((value) => queryDateSchema.safeParse(value).success, DATE_MESSAGE)
  .meta({ format: "date" });

/**
 * Where a trip starts: not before today in Europe/Madrid (trip-dates.ts), read when the request is
 * checked. A date that is no date gets only the format's message.
 */
const tripStartDate = isoDate.check((ctx) => {
  const today = tripToday();
  if (isoDate.safeParse(ctx.value).success && ctx.value < today) {
    ctx.issues.push({ code: "custom", input: ctx.value, message: `must not be before today (${today} in ${TRIP_TIME_ZONE})` });
  }
});

// yyyy-MM-dd compares as text in calendar order. A same-day return is a day trip; a hotel stay
// needs at least one night.
export const flightSchema = z
  .object({
    origin: text(100),
    destination: text(100),
    departureDate: tripStartDate,
    returnDate: isoDate.optional(),
    carrier: plain().trim().max(100).optional(),
  })
  .refine((flight) => flight.returnDate === undefined || flight.returnDate >= flight.departureDate, {
    message: "must not be before departureDate",
    path: ["returnDate"],
    when: bothDates("departureDate", "returnDate"),
  });
export const hotelSchema = z
  .object({
    name: text(200),
    city: plain().trim().max(100).optional(),
    checkInDate: tripStartDate,
    checkOutDate: isoDate,
  })
  .refine((hotel) => hotel.checkOutDate > hotel.checkInDate, {
    message: "must be after checkInDate",
    path: ["checkOutDate"],
    when: bothDates("checkInDate", "checkOutDate"),
  });

/**
 * Compare two dates whenever both are dates, even if another field of the item is wrong: every
 * problem of the request in one answer. A past start does not hide an inverted pair either.
 */
function bothDates(start: string, end: string) {
  return (payload: { value: unknown }) => {
    const item = payload.value as Record<string, unknown> | null;
    if (typeof item !== "object" || item === null) return false;
    const endValue = item[end];
    return isoDate.safeParse(item[start]).success && (endValue === undefined || isoDate.safeParse(endValue).success);
  };
}
export const serviceSchema = z.object({ description: text(200), type: plain().trim().max(50).optional() });

export const moneySchema = z.object({
  amount: z
    .number()
    // At least a cent: above zero yet under it (1e-9) passed the decimals check below within its
    // tolerance, and became 0.00 EUR, which the partner API refuses when the customer sends their details.
    .min(0.01, "must be at least 0.01")
    .max(1_000_000, "is too large")
    // Cents, not fractions of them: 12.345 would be rounded somewhere, and the customer would see it.
    .refine((amount) => Math.abs(amount * 100 - Math.round(amount * 100)) < 1e-6, "must have at most two decimals"),
  currency: z.literal("EUR", { error: "must be EUR" }),
});

export const bookingSchema = z
  .object({
    bookingReference: plain()
      .trim()
      .min(1, "is required")
      .max(64, "must be at most 64 characters")
      .regex(/^[\w.\-/#]+$/, "may contain letters, digits and . _ - / # only")
      // A path segment of "." or "..": GET /operations/by-external-id/{externalId} could never name it.
      .refine((reference) => reference !== "." && reference !== "..", "must not be . or .."),
    packageName: text(200),
    packageTravel: z.boolean().default(true),
    travellers: z.number().int("must be a whole number").min(1).max(99).meta({ format: "int32" }),
    totalPrice: moneySchema,
    flights: z.array(flightSchema).max(20).default([]),
    hotels: z.array(hotelSchema).max(20).default([]),
    services: z.array(serviceSchema).max(20).default([]),
  })
  // Run on any input (see `when`): a booking that is null, or whose items are not lists, has none.
  .refine((b: unknown) => typeof b !== "object" || b === null || itemCount(b) > 0, {
    message: "at least one flight, hotel or service is required",
    path: ["flights"],
    when: () => true,
  });
export type Booking = z.output<typeof bookingSchema>;
// The booking is stored as it is: its shape is the database's (a change to the schema shows here).
const _bookingIsStored: SameType<Booking, StoredBooking> = true;

function itemCount(booking: object): number {
  const { flights, hotels, services } = booking as Record<string, unknown>;
  return [flights, hotels, services].reduce<number>((sum, items) => sum + (Array.isArray(items) ? items.length : 0), 0);
}

const COUNTRY_MESSAGE = "must be an ISO 3166-1 alpha-3 country code, e.g. ESP";
const countryCode = plain()
  .max(3, { error: COUNTRY_MESSAGE, abort: true })
  .refine(isCountryCode, COUNTRY_MESSAGE)
  .meta({ pattern: "^[A-Z]{3}$" });

/**
 * The prefill: free text where the customer types free text, and the documented values where the
 * form offers a choice (a document type, a gender, a country) or reads a format (an e-mail, a
 * date): a value the form could not show is a 400 naming the field, not a prefill quietly dropped.
 */
const prefillShape = {
  ...(Object.fromEntries(CUSTOMER_FIELDS.map((field) => [field, plain().max(254).optional()])) as Record<
    (typeof CUSTOMER_FIELDS)[number],
    z.ZodOptional<z.ZodString>
  >),
  email: plain().max(254).pipe(z.email("must be an e-mail address")).optional(),
  documentType: z.enum(DOCUMENT_TYPES).optional(),
  gender: z.enum(["MALE", "FEMALE"]).optional(),
  birthDate: isoDate.optional(),
  documentValidityDate: isoDate.optional(),
  nationality: countryCode.optional(),
  countryCode: countryCode.optional(),
};

/** No `user:password@` in the URL (one that does not parse is refused by z.url already). */
function withoutCredentials(value: string): boolean {
  // URL.parse is Node 22's: Node 20 has canParse.
  if (!URL.canParse(value)) return true;
  const url = new URL(value);
  return url.username === "" && url.password === "";
}

export const createSessionSchema = z.object({
  booking: bookingSchema,
  /** What the partner already knows of the customer: prefilled, and still checked on submit. */
  customer: z.object(prefillShape).partial().optional(),
  // URL parsing would keep a control character or a lone surrogate in the path as it came.
  returnUrl: z
    .url({ protocol: /^https?$/, error: "must be an http or https URL" })
    .check(safeText())
    .max(2048, "must be at most 2048 characters")
    // Credentials in a URL the customer's browser is sent to: never needed, and they mislead the reader.
    .refine(withoutCredentials, "must not carry a user name or password"),
  locale: z.enum(LOCALES).optional(),
});
export type CreateSessionInput = z.output<typeof createSessionSchema>;

/** A stable fingerprint of a booking: the same reference with another booking is a conflict. */
export function bookingHash(booking: Booking): string {
  return createHash("sha256").update(canonicalJson(booking)).digest("hex");
}

/** JSON with object keys sorted (undefined values left out): equal values, equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function bookingTotalCents(booking: Booking): number {
  return centsFromAmount(booking.totalPrice.amount);
}

/**
 * The externalId of a session's operation: the booking reference for the first, and
 * `{reference}~{n}` for the n-th replacement (the customer corrected their details after the
 * operation existed; creation is idempotent per externalId, so a corrected operation needs its own).
 * `~` is not allowed in a booking reference, so a derived id never names another booking.
 */
export function operationExternalId(bookingReference: string, attempt: number): string {
  return attempt === 0 ? bookingReference : `${bookingReference}~${attempt}`;
}

/** A stable fingerprint of the customer data an operation is created with: a correction changes it. */
export function clientDataHash(client: unknown): string {
  return createHash("sha256").update(canonicalJson(client)).digest("hex");
}

/** The booking's part of the create-operation request (the `attempt`-th operation of its session). */
export function operationBooking(
  booking: Booking,
  attempt = 0,
): Omit<CreateOperationInput, "client" | "successRedirectUrl" | "errorRedirectUrl" | "webhookUrl"> {
  return {
    externalId: operationExternalId(booking.bookingReference, attempt),
    packageName: booking.packageName,
    packageTravel: booking.packageTravel,
    travelersNumber: booking.travellers,
    totalPrice: { cents: bookingTotalCents(booking), currency: booking.totalPrice.currency },
    flights: booking.flights.length > 0 ? booking.flights : undefined,
    hotels: booking.hotels.length > 0 ? booking.hotels : undefined,
    services: booking.services.length > 0 ? booking.services : undefined,
  };
}
