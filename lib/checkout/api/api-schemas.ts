import { z } from "zod";
import { operationStatusSchema } from "@/lib/financing/contract";
import { LOCALES } from "@/lib/i18n/locales";
import { bookingSchema, createSessionSchema, flightSchema, hotelSchema, moneySchema, serviceSchema } from "../session/booking";
import { CUSTOMER_DATA_ERASED_EVENT, SESSION_STATES, type StoredNotification } from "@/lib/vocabulary/session";
import type { SameType } from "@/lib/vocabulary/same-type";
import { TRIP_TIME_ZONE } from "../session/trip-dates";
import { CHECKOUT_SESSION_ID } from "@/lib/http/checkout-session-id";
import { API_ERROR_LIMITS } from "@/lib/app-error";
import { API_ERROR_CODES } from "./error-codes";
import { API_SCOPES } from "@/lib/vocabulary/api-scopes";

/**
 * The wire shapes of the checkout sessions API that `booking.ts` does not hold: what a partner
 * reads (a session), what it is told (a notification and its headers), the error format. Pure, so
 * the handlers type their answers with them and `openapi.ts` documents exactly these. The request
 * schemas of `booking.ts` get their documentation ids here (zod's global registry, as the partner
 * API's contract does), so validation and documentation stay one definition.
 */

export { SESSION_STATES };

export const sessionStateSchema = z.enum(SESSION_STATES).meta({
  id: "CheckoutSessionState",
  description: [
    "Where the session stands:",
    "- `open`: the customer has not sent their data yet;",
    "- `choosing`: the customer is choosing an installment plan;",
    "- `pending`: the customer is at the provider, or the provider is deciding;",
    "- `approved`: the provider approved the financing (FAVORABLE): issue the trip;",
    "- `confirmed`: the financing is active;",
    "- `not_eligible`: the operation can never be financed (the financing partner said it is not eligible, or offered no plan): final, go back to your other ways to pay;",
    "- `refused`, `error`, `cancelled`, `expired`, `refunded`: it ended otherwise.",
  ].join("\n"),
});

// The limits below are what the answers never exceed (the document states them; the OWASP API
// ruleset asks every string for one): ISO instants as toISOString writes them, ids as we make them.
const dateTime = () => z.iso.datetime().max(32);
/** Exported for the refund resources (refund-schemas.ts). */
export const sessionId = () => z.string().regex(CHECKOUT_SESSION_ID).max(67);
const bookingReference = () => z.string().max(64);
/** The partner API's operation identifier: at most what its requests take (lib/financing/contract.ts). */
export const operationId = () => z.string().max(200);

// Strict: a response (output) and a notification (rendered as input, a webhook's body) say the
// same of it, so the document has one schema for it rather than a `…Output` twin.
export const sessionOperationSchema = z
  .strictObject({
    id: operationId().meta({ description: "The financing operation's id at the partner API." }),
    status: operationStatusSchema.nullable().meta({
      description:
        "The operation's status at the financing partner, as last read from its API: read again as the customer goes to the provider, on their return, on the financing partner's webhooks, while the status page waits, and by a reconciliation every few minutes. `state` is the one to act on; this is for support and reconciliation with the partner's own records.",
    }),
    updatedAt: dateTime().nullable().meta({ description: "When the financing partner last changed the operation (as of that read)." }),
  })
  .meta({ id: "CheckoutSessionOperation", description: "The financing operation behind the session, once the customer sent their data." });

export const checkoutSessionSchema = z
  .object({
    id: sessionId().meta({ examples: ["cs_3q8Zb1nX2m"] }),
    url: z.url().max(2048).meta({ description: "Where to send the customer: the checkout page of this session." }),
    bookingReference: bookingReference(),
    state: sessionStateSchema,
    final: z.boolean().meta({ description: "Whether the state can no longer change for the customer." }),
    operation: sessionOperationSchema.nullable(),
    expiresAt: dateTime().meta({ description: "24 hours after it was opened: after that, an unfinished session is `expired`." }),
    createdAt: dateTime(),
    updatedAt: dateTime(),
    customerDataErasedAt: dateTime().nullable().meta({
      description:
        "When the customer's data was erased (at your request, `POST /checkout-sessions/{id}/erase`, or at the end of your retention period); null while it is kept. The session itself (booking reference, amounts, plan, states and dates) stays.",
    }),
  })
  .meta({ id: "CheckoutSession", description: "A session as its partner sees it: its state, never the customer's data." });
export type CheckoutSessionResource = z.output<typeof checkoutSessionSchema>;

export { API_ERROR_CODES };

export const apiErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(API_ERROR_CODES),
      message: z.string().max(API_ERROR_LIMITS.message).meta({ description: "For a developer; may change: branch on `code`." }),
      fields: z
        .array(
          z.object({
            field: z.string().max(API_ERROR_LIMITS.field).meta({
              description:
                "A dotted path in the body (`booking.flights.0.departureDate`), `(body)` for the body as a whole, a query parameter's name (`after`), or a request header's name (`Idempotency-Key`, `Checkout-Api-Version`).",
            }),
            message: z.string().max(API_ERROR_LIMITS.fieldMessage),
          }),
        )
        .max(API_ERROR_LIMITS.fields)
        .optional()
        .meta({ description: "With `validation_failed`: every field that was refused; with an error about a header, that header." }),
      state: sessionStateSchema.optional().meta({
        description:
          "With `not_cancellable`, `not_refundable` and `customer_data_in_use`: the session's state now, which does not allow it.",
      }),
      requiredScope: z.enum(API_SCOPES).optional().meta({
        description:
          "With `insufficient_scope`: the scope the request needs, which the secret it was sent with does not hold. Create a secret with it (or use one that has it).",
      }),
    }),
  })
  .meta({ id: "CheckoutApiError", description: "Every error of the checkout sessions API." });

export const notificationPayloadSchema = z
  .object({
    type: z
      .templateLiteral(["checkout.session.", z.enum([...SESSION_STATES, CUSTOMER_DATA_ERASED_EVENT])])
      // The longest one's: a template literal cannot take .max(), so it is stated.
      .meta({
        description: `\`checkout.session.{state}\` for the state the session reached, or \`checkout.session.${CUSTOMER_DATA_ERASED_EVENT}\` once its customer's data was erased (sent once per session; \`data.customerDataErasedAt\` says when).`,
        examples: ["checkout.session.confirmed"],
        maxLength: "checkout.session.".length + Math.max(...[...SESSION_STATES, CUSTOMER_DATA_ERASED_EVENT].map((s) => s.length)),
      }),
    timestamp: dateTime().meta({ description: "When the notification was written (the state change)." }),
    data: z.object({
      id: sessionId(),
      bookingReference: bookingReference(),
      state: sessionStateSchema,
      final: z.boolean(),
      operation: sessionOperationSchema.nullable(),
      customerDataErasedAt: dateTime()
        .optional()
        .meta({ description: `Only on \`checkout.session.${CUSTOMER_DATA_ERASED_EVENT}\`: when the customer's data was erased.` }),
    }),
  })
  .meta({
    id: "CheckoutSessionNotification",
    description:
      "The state a session reached, or the erasure of its customer's data (never the data itself). A hint: `GET /checkout-sessions/{id}` is the reference.",
  });
export type NotificationPayload = z.output<typeof notificationPayloadSchema>;
// The notification is stored as it is signed and sent: its shape is the database's.
const _notificationIsStored: SameType<NotificationPayload, StoredNotification> = true;

/** How many events one page of the feed holds at most, and unless `limit` says fewer. */
export const EVENTS_PAGE_MAX = 100;
export const EVENTS_PAGE_DEFAULT = 50;
/** Events are kept at least this long: a partner that was away longer reads GET /checkout-sessions/{id}. */
export const EVENTS_KEPT_DAYS = 30;

/** A position in the partner's event feed, as the feed hands it out: opaque, signed for the partner (events-api.ts). */
export const EVENT_CURSOR = /^[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_-]{1,64}$/;
/** A cursor of the deployment-wide sequence the feed once handed out: still accepted as `after`. */
export const LEGACY_EVENT_CURSOR = /^[0-9]{1,16}$/;
const cursor = () => z.string().regex(EVENT_CURSOR).max(129);

/**
 * A page's size as a query parameter: digits as sent, checked, and the number they stand for;
 * the document says that number (an integer), not the text.
 */
function pageLimit(limits: { default: number; max: number }, description: string) {
  const problem = `must be a whole number from 1 to ${limits.max}`;
  return z
    .string()
    .max(String(limits.max).length, problem)
    .regex(/^[0-9]+$/, problem)
    .transform(Number)
    .pipe(z.number().min(1, problem).max(limits.max, `must be at most ${limits.max}`))
    .optional()
    .meta({
      description,
      override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
        delete jsonSchema.maxLength;
        delete jsonSchema.pattern;
        Object.assign(jsonSchema, { type: "integer", format: "int32", minimum: 1, maximum: limits.max, default: limits.default });
      },
    });
}

export const eventDeliverySchema = z
  .object({
    status: z.enum(["delivered", "pending", "retrying", "not_configured"]).meta({
      description: [
        "Where sending this event to your notification URL stands:",
        "- `delivered`: your endpoint answered 2xx;",
        "- `pending`: not tried yet: it goes out within seconds;",
        "- `retrying`: the last attempt failed (`lastStatusCode`, `lastError`): tried again at `nextAttemptAt`;",
        "- `not_configured`: you have no notification URL (or signing secret): it waits, and goes out once one is saved.",
      ].join("\n"),
    }),
    attempts: z.int().min(0).max(1_000_000).meta({ format: "int32", description: "How many times it was sent." }),
    lastAttemptAt: dateTime().nullable(),
    lastStatusCode: z
      .int()
      .min(100)
      .max(599)
      .meta({ format: "int32" })
      .nullable()
      .meta({ description: "Your endpoint's HTTP status at the last attempt; null: no answer." }),
    lastError: z.string().max(300).nullable().meta({
      description: "Why the last attempt failed, short (`HTTP 503`, `timeout: …`, `connection refused`): never your endpoint's answer.",
    }),
    nextAttemptAt: dateTime().nullable().meta({ description: "When it is tried next; null once delivered, or while it waits for a URL." }),
    deliveredAt: dateTime().nullable(),
  })
  .meta({ id: "CheckoutEventDelivery", description: "What came of sending the event as a signed notification." });

export const checkoutEventSchema = z
  .object({
    id: z.string().max(64).meta({ description: "The notification's `webhook-id`: the same event when it also reaches your endpoint." }),
    cursor: cursor().meta({
      description:
        "The event's position in your feed, opaque: pass the last one you processed as `after`. Signed for you: changed in any way, or sent by another partner, it is refused.",
      examples: ["WzQyXQ.3nG8kVq1yM2bXcT0aLrE5w"],
    }),
    type: notificationPayloadSchema.shape.type,
    timestamp: notificationPayloadSchema.shape.timestamp,
    data: notificationPayloadSchema.shape.data,
    delivery: eventDeliverySchema,
  })
  .meta({
    id: "CheckoutEvent",
    description:
      "A notification we sent you, or would have: `type`, `timestamp` and `data` are the signed body's, byte for byte the same values; `id` is its `webhook-id`.",
  });
export type CheckoutEventResource = z.output<typeof checkoutEventSchema>;

export const eventListSchema = z
  .object({
    events: z.array(checkoutEventSchema).max(EVENTS_PAGE_MAX).meta({ description: "Oldest first." }),
    nextCursor: cursor().nullable().meta({
      description:
        "The last event's `cursor`, or, when there is none, the place you asked from (your `after`, in the current form): pass it as `after` next time. Null: you sent no `after`, and there is no event yet.",
    }),
    hasMore: z.boolean().meta({ description: "Whether more events follow already: ask again at once with `after=nextCursor`." }),
  })
  .meta({ id: "CheckoutEventList" });
export type EventListResource = z.output<typeof eventListSchema>;

/** The feed's query, as the handler reads it and the document states it. */
export const eventsQuerySchema = z.object({
  after: z
    .string()
    .max(129)
    .regex(new RegExp(`${EVENT_CURSOR.source}|${LEGACY_EVENT_CURSOR.source}`))
    .optional()
    .meta({
      description:
        "A `cursor` (or `nextCursor`) you were given: only the events written after it. Absent: from the oldest kept. A decimal number is a cursor of the feed's earlier form (one sequence for the whole deployment): still accepted, it resumes after your last event numbered up to it, and the answer's cursors are the current form (`0`: from the oldest kept).",
      examples: ["WzQyXQ.3nG8kVq1yM2bXcT0aLrE5w"],
    }),
  limit: pageLimit(
    { default: EVENTS_PAGE_DEFAULT, max: EVENTS_PAGE_MAX },
    `How many events at most, 1 to ${EVENTS_PAGE_MAX} (default ${EVENTS_PAGE_DEFAULT}).`,
  ),
});

export const notificationTestPayloadSchema = z
  .object({
    type: z.literal("notification.test"),
    timestamp: dateTime().meta({ description: "When it was sent." }),
    data: z.object({ test: z.literal(true) }),
  })
  .meta({
    id: "TestNotification",
    description: "Sent only when your staff ask for it in the back-office: about no session. Verify it, answer 2xx, do nothing else.",
  });
export type NotificationTestPayload = z.output<typeof notificationTestPayloadSchema>;

/** The Standard Webhooks headers of a notification. */
export const notificationHeadersSchema = z.object({
  "webhook-id": z
    .string()
    .max(64)
    .meta({ description: "Unique per notification, the same on every retry of it: deduplicate on it.", examples: ["msg_2b7f…"] }),
  "webhook-timestamp": z
    .string()
    .regex(/^[0-9]+$/)
    .max(12)
    .meta({ description: "Unix seconds of this attempt. Refuse one more than 5 minutes off your clock." }),
  "webhook-signature": z.string().max(400).meta({
    description:
      "Space-separated `v1,<base64>` signatures: HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of your `whsec_…` secret after the prefix. One signature per secret in use: for 24 hours after a rotation of your signing secret there are two (the new secret's and the old one's); accept the notification if any one matches a secret you hold.",
  }),
});

/** The request's schemas, named for the document. */
const describe = (schema: z.ZodType, meta: z.GlobalMeta) => z.globalRegistry.add(schema, meta);
describe(createSessionSchema, {
  id: "CreateCheckoutSessionRequest",
  description: "The booking, optionally what you know of the customer (prefilled; they still check it), the return URL and a locale.",
});
describe(bookingSchema, {
  id: "CheckoutBooking",
  description: "At least one flight, hotel or service. Dates are yyyy-MM-dd.",
  anyOf: ["flights", "hotels", "services"].map((list) => ({ required: [list], properties: { [list]: { minItems: 1 } } })),
});
describe(moneySchema, { id: "CheckoutMoney", description: "An amount in EUR with at most two decimals." });
describe(flightSchema, {
  id: "CheckoutFlight",
  description: `\`departureDate\` is today or later (today in ${TRIP_TIME_ZONE}); \`returnDate\`, when sent, is not before \`departureDate\` (the same day is a day trip).`,
});
describe(hotelSchema, {
  id: "CheckoutHotel",
  description: `\`checkInDate\` is today or later (today in ${TRIP_TIME_ZONE}); \`checkOutDate\` is after \`checkInDate\` (at least one night).`,
});
describe(serviceSchema, { id: "CheckoutService" });
describe(createSessionSchema.shape.customer, {
  description:
    "What you know of the customer, to prefill the form: any of these fields. `documentType` is DNI, NIE or PASSPORT, `gender` MALE or FEMALE, dates yyyy-MM-dd, `countryCode` and `nationality` ISO 3166-1 alpha-3.",
});
describe(createSessionSchema.shape.returnUrl, {
  description:
    "Where the customer goes back to when the outcome is final, with `checkoutSession` and `outcome` added to the query (a hint: read the session). Must be on one of your allowed origins.",
});
describe(createSessionSchema.shape.locale, { description: `The checkout's language (${LOCALES.join(", ")}) unless the customer chooses.` });

// ---------------------------------------------------------------------------------------------
// The partner's list of sessions (GET /checkout-sessions)

/** How many sessions a page holds unless `limit` says, and at most. */
export const LIST_LIMIT = { default: 20, max: 100 } as const;
/** An opaque cursor: base64url, and its signature after a dot (session-list.ts). */
const CURSOR = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)?$/;
const STATE_LIST = new RegExp(`^(?:${SESSION_STATES.join("|")})(?:,(?:${SESSION_STATES.join("|")}))*$`);
const INSTANT_MESSAGE = "must be an ISO 8601 date and time with a time zone, e.g. 2026-05-01T00:00:00Z";
const instant = (description: string) =>
  z.iso
    .datetime({ offset: true, error: INSTANT_MESSAGE })
    .max(40, INSTANT_MESSAGE)
    .optional()
    .meta({ description, examples: ["2026-05-01T00:00:00Z"] });

/**
 * The list's query, every parameter optional. Ranges are [from, to): `createdFrom` inclusive,
 * `createdTo` exclusive, the same for `updated…`. Read as sent (a parameter given twice, or one
 * this list does not take, is refused: list-query.ts).
 */
export const listSessionsQuerySchema = z.strictObject({
  state: z
    .string()
    .max(200, "is not a list of states")
    .regex(STATE_LIST, `must be one or more of ${SESSION_STATES.join(", ")}, separated by commas`)
    .optional()
    .meta({ description: "Only sessions in this state, or in any of these, separated by commas (`confirmed,refunded`)." }),
  createdFrom: instant("Only sessions opened at or after this instant."),
  createdTo: instant("Only sessions opened before this instant."),
  updatedFrom: instant("Only sessions last changed at or after this instant."),
  updatedTo: instant("Only sessions last changed before this instant."),
  bookingReference: z
    .string()
    .min(1, "must not be empty")
    .max(64, "must be at most 64 characters")
    .optional()
    .meta({ description: "Only the session of this booking reference (exactly)." }),
  limit: pageLimit(LIST_LIMIT, `Sessions a page holds: ${LIST_LIMIT.default} unless said, at most ${LIST_LIMIT.max}.`),
  cursor: z
    .string()
    .max(200, "is not a cursor of this list")
    .regex(CURSOR, "is not a cursor of this list")
    .optional()
    .meta({ description: "The `nextCursor` of the page before, with the same filters: the page after it." }),
});
export type ListSessionsQuery = z.output<typeof listSessionsQuerySchema>;

export const checkoutSessionListSchema = z
  .object({
    data: z.array(checkoutSessionSchema).max(LIST_LIMIT.max).meta({ description: "Newest first (by `createdAt`, then `id`)." }),
    hasMore: z.boolean().meta({ description: "Whether there are sessions after this page." }),
    nextCursor: z
      .string()
      .max(200)
      .regex(CURSOR)
      .nullable()
      .meta({ description: "Send it as `cursor` (with the same filters) for the next page; null on the last page." }),
  })
  .meta({
    id: "CheckoutSessionList",
    description:
      "A page of your sessions. Pages follow each other by the last session's place, not by a count: sessions opened while you page come before the first page, never into a later one, so a walk through the pages neither repeats nor skips a session.",
  });
export type CheckoutSessionList = z.output<typeof checkoutSessionListSchema>;
