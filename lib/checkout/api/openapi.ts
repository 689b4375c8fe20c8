// Over 400 lines: the checkout sessions API's OpenAPI document, every route's description next to the conventions all routes share, kept whole to read as the reference it generates.
import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject } from "zod-openapi";
import { errorStatus, type AppErrorCode } from "@/lib/app-error";
import { generateDocument, jsonContent, routesToPaths, type OpenApiDocument, type Route } from "@/lib/openapi/document";
import { createSessionSchema } from "../session/booking";
import {
  apiErrorSchema,
  checkoutSessionListSchema,
  checkoutSessionSchema,
  EVENTS_KEPT_DAYS,
  eventListSchema,
  eventsQuerySchema,
  LIST_LIMIT,
  listSessionsQuerySchema,
  notificationHeadersSchema,
  notificationPayloadSchema,
  notificationTestPayloadSchema,
} from "./api-schemas";
import {
  cancelSessionRequestSchema,
  eraseSessionRequestSchema,
  refundBreakdownSchema,
  refundSessionRequestSchema,
  sessionRefundSchema,
} from "./refund-schemas";
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_PATTERN, REPLAYED_HEADER } from "./idempotency-key";
import { CHECKOUT_API_VERSIONS, CURRENT_CHECKOUT_API_VERSION, VERSION_HEADER } from "./versions";
import { scopeOfOperation } from "./route-scopes";

/**
 * Our checkout sessions API (`/api/checkout-sessions`) as an OpenAPI 3.1 document, generated with
 * zod-openapi from the schemas its handlers validate and answer with (booking.ts, api-schemas.ts),
 * served at `/api/openapi.json` and shown at `/docs`. What is written here is what the schemas
 * cannot say: the routes, which answers each one gives and why, and the notifications we send
 * (as `webhooks`).
 */

const description = (
  demoSecret: string | undefined,
) => `The API a travel agency's backend uses to open a checkout for a booking and follow it.

1. \`POST /checkout-sessions\` with the booking: send your customer to the \`url\` it answers.
2. When the outcome is final the customer comes back to your \`returnUrl\`; meanwhile you receive a signed **notification** (see *Webhooks*) at each state the session reaches.
3. \`GET /checkout-sessions/{id}\` is the reference: read it whenever a notification or a return tells you something changed.
4. \`GET /events\` lists every notification we sent you, or would have (no notification URL yet, your endpoint down), in order: catch up from the last \`cursor\` you processed.

Beyond one session: \`GET /checkout-sessions\` lists yours (by state, dates and booking reference, a page at a time); \`POST /checkout-sessions/{id}/cancel\` cancels one before its customer signs; \`POST /checkout-sessions/{id}/erase\` erases its customer's data once it ended; once it is confirmed, \`GET /checkout-sessions/{id}/refund\` says what a refund would give back and \`POST\` makes it. Cancels, erasures and refunds are in your audit log in the back-office, under the name of the secret that made them.

Authentication: your partner secret as a bearer token${demoSecret ? ` (on this sandbox, the demo partner's is \`${demoSecret}\`)` : ""}.

Errors are always \`{ "error": { "code", "message", "fields"?, "state"? } }\`: branch on \`code\`. A method an address does not take answers 405 \`method_not_allowed\` with \`Allow\` (and \`OPTIONS\` answers 204 with the same \`Allow\`); an address under \`/api/\` that does not exist answers 404 \`not_found\`.

**Versions.** Every answer says in which version of this API it is given (\`${VERSION_HEADER}\`, now \`${CURRENT_CHECKOUT_API_VERSION}\`, the only one). Send the same header to pin the version your code was written for: a version this API does not have is a 400 \`unsupported_api_version\`.

**Retries.** Send an \`${IDEMPOTENCY_KEY_HEADER}\` (a UUID, say) with any \`POST\`: sending the same request again with the same key within 24 hours answers what the first one was answered, marked \`${REPLAYED_HEADER}: true\`, and does nothing twice. The same key with another body is a 422 \`idempotency_key_reused\`; while the first is still being answered, a 409 \`idempotency_key_in_use\` (retry after \`Retry-After\`). Answers 5xx and 429 are not kept: retrying them with the same key runs the request again.`;

/**
 * The headers of every answer of the two operations (lib/checkout/api/sessions-api.ts,
 * `sessionsApiHeaders`): never cached; readable by no other site's page (the API is for partners'
 * backends, with a secret no browser should hold); and the budget of requests of its kind.
 */
const apiHeaders = z.object({
  "Cache-Control": z.literal("no-store").meta({ header: { id: "NoStore", description: "Answers are never cached." } }),
  "Access-Control-Allow-Origin": z
    .url()
    .max(2048)
    .meta({
      header: {
        // Named as the header itself (the OWASP ruleset also looks for it among the header components).
        id: "Access-Control-Allow-Origin",
        description:
          "This deployment's own origin: no other website's page may read an answer (call the API from your backend, never from a browser, which would hold your secret).",
      },
    }),
  "X-RateLimit-Limit": z
    .string()
    .regex(/^[0-9]+$/)
    .max(6)
    .meta({
      header: {
        id: "RateLimitLimit",
        description:
          "Requests of this kind allowed a minute with your secrets (a token bucket, a burst of as many): sessions opened for `POST /checkout-sessions`, reads for every `GET`, cancels, refunds and erasures for their `POST`s. Over it: 429 `rate_limited`.",
      },
    }),
});

const retryAfter = (id: string) =>
  z.object({
    "Retry-After": z
      .string()
      .regex(/^[0-9]+$/)
      .max(6)
      .meta({ header: { id, description: "Seconds to wait before retrying." } }),
  });

/** An error answer in the API's one format; the codes it can carry are listed (and checked against the app's table). */
function errorResponse(status: number, description: string, codes: AppErrorCode[]): ZodOpenApiResponseObject {
  for (const code of codes) {
    if (errorStatus(code) !== status) throw new Error(`Error code ${code} is not a ${status}`);
  }
  return {
    description: `${description}\n\n${codes.map((code) => `- \`${code}\``).join("\n")}`,
    "x-error-codes": codes,
    headers: apiHeaders,
    content: jsonContent(apiErrorSchema),
  };
}

const noStore = apiHeaders;

const COMMON: Record<string, ZodOpenApiResponseObject> = {
  "401": {
    ...errorResponse(
      401,
      "No `Authorization: Bearer <secret>` header, or not a working secret: unknown, revoked, expired after a rotation, or of a disabled partner.",
      ["unauthorized"],
    ),
    id: "Unauthorized",
  },
  "429": {
    ...errorResponse(
      429,
      "Too many requests: more of this kind with your secrets than `X-RateLimit-Limit` a minute, or too many requests (or wrong secrets) from your address. Retry after `Retry-After` seconds.",
      ["rate_limited"],
    ),
    headers: apiHeaders.extend(retryAfter("RateLimitRetryAfter").shape),
    id: "RateLimited",
  },
  "500": {
    ...errorResponse(500, "Something failed on our side: retry later (opening a session again is safe: it is idempotent).", ["internal"]),
    id: "InternalError",
  },
  "503": {
    ...errorResponse(
      503,
      "Our database cannot be reached for a moment: retry after `Retry-After` seconds (opening a session again is safe: it is idempotent).",
      ["database_unavailable"],
    ),
    headers: apiHeaders.extend(retryAfter("RetryAfter").shape),
    id: "DatabaseUnavailable",
  },
};

const sessionIdParam = checkoutSessionSchema.shape.id.meta({ param: { description: "The session's `id`." } });

/** The 400 of a path that cannot be read, which the proxy gives before any route. */
const unreadablePath = () =>
  errorResponse(400, "The path cannot be read (a malformed percent-encoding): `fields` names `(path)`.", ["validation_failed"]);
const notFound = () =>
  errorResponse(404, "No session with this id among yours (another partner's session is not found either).", ["not_found"]);
const financingUnavailable = (what: string) =>
  errorResponse(502, `The financing partner could not be reached ${what}.`, ["financing_unavailable"]);
const tooLarge = () => errorResponse(413, "The body is larger than 64 KB; nothing was read.", ["payload_too_large"]);

function routes(): Route[] {
  return [
    {
      method: "post",
      path: "/checkout-sessions",
      operation: {
        operationId: "createCheckoutSession",
        summary: "Open a checkout session",
        description:
          "Opens a checkout for a booking. Idempotent per `bookingReference`: the same request again answers 200 with the same session; the same reference with a different booking is a 409. The body is read as JSON whatever its `Content-Type`, up to 64 KB.",
        tags: ["Checkout sessions"],
        requestBody: { required: true, content: jsonContent(createSessionSchema) },
        responses: {
          "201": { description: "Opened: send the customer to `url`.", headers: noStore, content: jsonContent(checkoutSessionSchema) },
          "200": {
            description: "This booking already has a session: the same one.",
            headers: noStore,
            content: jsonContent(checkoutSessionSchema),
          },
          "400": errorResponse(
            400,
            "The body is not valid JSON or not UTF-8, or fields are invalid: `fields` names every one (`(body)` for the body as a whole).",
            ["validation_failed"],
          ),
          "409": errorResponse(409, "A session with this `bookingReference` exists for a different booking.", ["conflict"]),
          "413": tooLarge(),
          ...COMMON,
        },
      },
    },
    {
      method: "get",
      path: "/checkout-sessions/{id}",
      operation: {
        operationId: "getCheckoutSession",
        summary: "Read a checkout session",
        description:
          "Where your customer's checkout stands. The reference for the outcome: notifications and the return's query are hints.",
        tags: ["Checkout sessions"],
        requestParams: { path: z.object({ id: sessionIdParam }) },
        responses: {
          "200": { description: "The session.", headers: noStore, content: jsonContent(checkoutSessionSchema) },
          "400": unreadablePath(),
          "404": notFound(),
          ...COMMON,
        },
      },
    },
    {
      method: "get",
      path: "/checkout-sessions",
      operation: {
        operationId: "listCheckoutSessions",
        summary: "List your checkout sessions",
        description: [
          `Your sessions, newest first (by \`createdAt\`, then \`id\`), ${LIST_LIMIT.default} to a page unless \`limit\` says (at most ${LIST_LIMIT.max}). Every filter is optional; those given all apply.`,
          "",
          "- Dates are instants in ISO 8601 with a time zone (`2026-05-01T00:00:00Z`, `2026-05-01T02:00:00+02:00`); each range runs from its `…From`, included, to its `…To`, excluded.",
          "- `state` is a session's state now: an open session past its 24 hours is `expired`.",
          "- The next page: the same request with `cursor` set to the page's `nextCursor`, the filters unchanged (a cursor sent with other filters is refused). Sessions opened while you page come before the first page, never into a later one: a walk through the pages neither repeats nor skips a session. With `updatedFrom` or `updatedTo`, a session that changes while you page may leave or enter the range.",
        ].join("\n"),
        tags: ["Checkout sessions"],
        requestParams: { query: listSessionsQuerySchema },
        responses: {
          "200": { description: "A page of your sessions.", headers: noStore, content: jsonContent(checkoutSessionListSchema) },
          "400": errorResponse(
            400,
            "A parameter is invalid, given twice, or not one of this list (or the cursor is not one, or was made for other filters): `fields` names each.",
            ["validation_failed"],
          ),
          ...COMMON,
        },
      },
    },
    {
      method: "post",
      path: "/checkout-sessions/{id}/cancel",
      operation: {
        operationId: "cancelCheckoutSession",
        summary: "Cancel a checkout session",
        description: [
          "Cancels a session before its customer signs: while it is `open` (it ends here: the customer can no longer send their data) or `choosing` (its financing operation is cancelled at the financing partner, which has the last word). The session is then `cancelled`, and you are notified as for any state.",
          "",
          "Once the customer asked a provider for the financing (`pending`), or when the session has ended, it is a 409 `not_cancellable` with the session's `state`: a confirmed session is refunded instead. Cancelling again is that 409 too, with `state` `cancelled`.",
        ].join("\n"),
        tags: ["Checkout sessions"],
        requestParams: { path: z.object({ id: sessionIdParam }) },
        requestBody: { required: false, content: jsonContent(cancelSessionRequestSchema) },
        responses: {
          "200": { description: "Cancelled: the session now.", headers: noStore, content: jsonContent(checkoutSessionSchema) },
          "400": errorResponse(
            400,
            "The body is not valid JSON, or a field is invalid or unknown (or the path cannot be read): `fields` names each.",
            ["validation_failed"],
          ),
          "404": notFound(),
          "409": errorResponse(409, "The session cannot be cancelled in its state (`error.state`).", ["not_cancellable"]),
          "413": tooLarge(),
          "502": financingUnavailable("to cancel the operation: nothing was cancelled; try again in a moment"),
          ...COMMON,
        },
      },
    },
    {
      method: "post",
      path: "/checkout-sessions/{id}/erase",
      operation: {
        operationId: "eraseCheckoutSessionCustomerData",
        summary: "Erase a session's customer data",
        description: [
          "Erases the personal data the customer gave (or you prefilled) for this session: names, contact, document, address. What stays is the accounting record: the session, its booking reference, amounts, plan, states and dates. The session then says when (`customerDataErasedAt`), and you are notified once (`checkout.session.customer_data_erased`). Erasing again answers the same session: nothing more is erased or sent.",
          "",
          "Not while the customer's outcome is open (`open`, `choosing`, `pending`: the customer may still send their data, choose a plan or sign at the provider): a 409 `customer_data_in_use` with the session's `state` and a `Retry-After`, the session's expiry or a few minutes. Retry then, with a new `Idempotency-Key` (the 409 is kept for the key, like any answer below 500).",
          "",
          "Without a request of yours, customers' data is erased at the end of your retention period (the operator sets it: 90 days unless agreed otherwise) after the session ended.",
        ].join("\n"),
        tags: ["Checkout sessions"],
        requestParams: { path: z.object({ id: sessionIdParam }) },
        requestBody: { required: false, content: jsonContent(eraseSessionRequestSchema) },
        responses: {
          "200": {
            description: "Erased, now or before: the session, with `customerDataErasedAt`.",
            headers: noStore,
            content: jsonContent(checkoutSessionSchema),
          },
          "400": errorResponse(400, "The body is not valid JSON or not empty (or the path cannot be read): `fields` names each.", [
            "validation_failed",
          ]),
          "404": notFound(),
          "409": {
            ...errorResponse(409, "The customer's outcome is still open (`error.state`): retry after `Retry-After` seconds.", [
              "customer_data_in_use",
            ]),
            headers: apiHeaders.extend(retryAfter("ErasureRetryAfter").shape),
          },
          "413": tooLarge(),
          ...COMMON,
        },
      },
    },
    {
      method: "get",
      path: "/checkout-sessions/{id}/refund",
      operation: {
        operationId: "getCheckoutSessionRefund",
        summary: "Read what a refund would give back",
        description:
          "For a confirmed session: the financing partner's breakdown of a refund made now, in cents. `totalToRefundCents` already deducts the financing's non-refundable fees and its cancellation fee; the charges you keep in the refund lower it by as much.",
        tags: ["Checkout sessions"],
        requestParams: { path: z.object({ id: sessionIdParam }) },
        responses: {
          "200": { description: "The breakdown.", headers: noStore, content: jsonContent(refundBreakdownSchema) },
          "400": unreadablePath(),
          "404": notFound(),
          "409": errorResponse(409, "The session is not confirmed (`error.state`): only a confirmed session can be refunded.", [
            "not_refundable",
          ]),
          "502": financingUnavailable("to read the breakdown: try again in a moment"),
          ...COMMON,
        },
      },
    },
    {
      method: "post",
      path: "/checkout-sessions/{id}/refund",
      operation: {
        operationId: "refundCheckoutSession",
        summary: "Refund a confirmed checkout session",
        description: [
          "Refunds the customer's financing through its provider, keeping your agency's and the travel provider's cancellation charges (in cents, 0 unless sent; together at most the breakdown's `totalToRefundCents`). The amounts are checked against a breakdown read now; send `expectedTotalToRefundCents` to refund only if the total is still the one you computed. The session becomes `refunded`.",
          "",
          "Made once: while a refund of the session is under way (from the API or from your back-office), another is a 409 `refund_in_progress`, and a refunded session is a 409 `not_refundable`. The provider may reject a refund: a 422 `refund_rejected`, nothing refunded, no charge recorded. A 502 means the financing partner did not answer: the refund may or may not have been made, so read the session (it becomes `refunded` if it was) before trying again.",
        ].join("\n"),
        tags: ["Checkout sessions"],
        requestParams: { path: z.object({ id: sessionIdParam }) },
        requestBody: { required: false, content: jsonContent(refundSessionRequestSchema) },
        responses: {
          "200": { description: "Refunded: what, and the session now.", headers: noStore, content: jsonContent(sessionRefundSchema) },
          "400": errorResponse(
            400,
            "The body is not valid JSON, a field is invalid or unknown, or the charges exceed what can be refunded (or the path cannot be read): `fields` names each.",
            ["validation_failed"],
          ),
          "404": notFound(),
          "409": errorResponse(
            409,
            "Nothing refunded: the session is not confirmed (`not_refundable`, with `error.state`), another refund of it is under way (`refund_in_progress`), or the total is not `expectedTotalToRefundCents` any more (`conflict`).",
            ["not_refundable", "refund_in_progress", "conflict"],
          ),
          "413": tooLarge(),
          "422": errorResponse(
            422,
            "The provider rejected the refund: nothing was refunded and no charge recorded (`error.state` is still `confirmed`).",
            ["refund_rejected"],
          ),
          "502": financingUnavailable("to answer the refund: whether it was made is not known yet; read the session before trying again"),
          ...COMMON,
        },
      },
    },
    {
      method: "get",
      path: "/events",
      operation: {
        operationId: "listEvents",
        summary: "List your events",
        description: [
          "Every notification of your sessions, in the order they were written, whether it reached your notification URL or not (none configured, your endpoint down, retries still to come), each with what came of sending it. The same `type`, `timestamp` and `data` as the signed notification, and its `webhook-id` as `id`.",
          "",
          `Keep the \`cursor\` of the last event you processed and ask with \`after=<cursor>\`: you get the events written after it, oldest first, at most \`limit\`. Cursors are opaque and signed for you: store them as text. While \`hasMore\` is true, ask again with \`after=nextCursor\`. Events are kept at least ${EVENTS_KEPT_DAYS} days. Reads count against the same per-minute budget as \`GET /checkout-sessions/{id}\`.`,
        ].join("\n"),
        tags: ["Events"],
        requestParams: { query: eventsQuerySchema },
        responses: {
          "200": { description: "A page of your events, oldest first.", headers: noStore, content: jsonContent(eventListSchema) },
          "400": errorResponse(
            400,
            "`after` is not a cursor this feed gave you (altered, made up, or another partner's), `limit` is out of range, or either is given twice: `fields` names it.",
            ["validation_failed"],
          ),
          ...COMMON,
        },
      },
    },
  ];
}

// ---------------------------------------------------------------------------------------------
// What every operation has, added to each as the document is built (an operation added to
// routes() gets them without saying so): the version header, on the request and on every answer;
// on every POST, Idempotency-Key and the replay header; the scope it needs (route-scopes.ts) and its
// 403; and the errors they bring.

const versionParam = z
  .enum(CHECKOUT_API_VERSIONS)
  .optional()
  .meta({
    param: {
      id: "CheckoutApiVersion",
      description: `The version of this API your code was written for; without it, the current one (\`${CURRENT_CHECKOUT_API_VERSION}\`). One this API does not have: 400 \`unsupported_api_version\`.`,
    },
  });

const idempotencyKeyParam = z
  .string()
  .min(1)
  .max(IDEMPOTENCY_KEY_MAX_LENGTH)
  .regex(IDEMPOTENCY_KEY_PATTERN)
  .optional()
  .meta({
    param: {
      id: "IdempotencyKey",
      description: `A key of yours for this request (a UUID, say; 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters), to send it again safely: within 24 hours, the same key with the same body answers what the first request was answered (\`${REPLAYED_HEADER}: true\`), without doing it again. Keys are yours alone, per method and path. The same key with another body: 422 \`idempotency_key_reused\`; while the first request is being answered: 409 \`idempotency_key_in_use\`. A 5xx or 429 is not kept: the same key runs the request again. Malformed: 400 \`validation_failed\` naming the header.`,
    },
    examples: ["4f8c1d52-9f0e-4d53-9a55-2c1b0f1e7a10"],
  });

const versionHeader = z.object({
  [VERSION_HEADER]: z.enum(CHECKOUT_API_VERSIONS).meta({
    header: {
      id: "CheckoutApiVersion",
      description: "The version of this API the answer is given in: the one you pinned, or the current one.",
    },
  }),
});

const replayedHeader = z.object({
  [REPLAYED_HEADER]: z
    .literal("true")
    .optional()
    .meta({
      header: {
        id: "IdempotentReplayed",
        description: `Present when this answer is the one kept for your \`${IDEMPOTENCY_KEY_HEADER}\`: the request was not run again.`,
      },
    }),
});

/**
 * The errors every operation, and every POST, may answer besides its own (never kept for replays:
 * each is given before a key is claimed).
 */
const CONVENTION_ERRORS: {
  status: number;
  code: AppErrorCode;
  description: string;
  posts: boolean;
  headers?: z.ZodObject;
}[] = [
  {
    status: 400,
    code: "unsupported_api_version",
    description: `\`${VERSION_HEADER}\` names a version this API does not have: \`fields\` names the header.`,
    posts: false,
  },
  {
    status: 400,
    code: "validation_failed",
    description: `\`${IDEMPOTENCY_KEY_HEADER}\` is not 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters: \`fields\` names the header.`,
    posts: true,
  },
  {
    status: 409,
    code: "idempotency_key_in_use",
    description: `A request with this \`${IDEMPOTENCY_KEY_HEADER}\` is still being answered: retry after \`Retry-After\` seconds to get its answer.`,
    posts: true,
    headers: z.object({
      "Retry-After": z
        .string()
        .regex(/^[0-9]+$/)
        .max(6)
        .optional()
        .meta({ header: { id: "IdempotencyRetryAfter", description: "With `idempotency_key_in_use`: seconds to wait before retrying." } }),
    }),
  },
  {
    status: 422,
    code: "idempotency_key_reused",
    description: `This \`${IDEMPOTENCY_KEY_HEADER}\` was used with another body in the last 24 hours: a new request needs a new key.`,
    posts: true,
  },
];

type HeaderShape = z.ZodObject | undefined;

function withHeaders(headers: ZodOpenApiResponseObject["headers"], ...more: z.ZodObject[]): z.ZodObject {
  if (headers !== undefined && !(headers instanceof z.ZodObject)) throw new Error("An answer's headers must be a z.object");
  return more.reduce<z.ZodObject>((all, extra) => all.extend(extra.shape), (headers as HeaderShape) ?? z.object({}));
}

/**
 * The route with the conventions added. One instance per document: an answer shared by several
 * operations (a component, `id`) is changed once, into one object, as generation requires.
 */
export function withApiConventions(): (route: Route) => Route {
  const shared = new Map<object, ZodOpenApiResponseObject>();
  const withVersion = (response: ZodOpenApiResponseObject): ZodOpenApiResponseObject => {
    const known = shared.get(response);
    if (known) return known;
    const changed = { ...response, headers: withHeaders(response.headers, versionHeader) };
    shared.set(response, changed);
    return changed;
  };

  return ({ method, path, operation }) => {
    const post = method === "post";
    const responses: Record<string, ZodOpenApiResponseObject> = {};
    for (const [status, response] of Object.entries(operation.responses)) {
      if (!response || "$ref" in response) throw new Error(`${method.toUpperCase()} ${path} ${status}: give the answer, not a $ref`);
      // 401 is refused before a key is looked at; 429 and 5xx are never kept (idempotency-key.ts).
      const kept = post && /^[1-4]/.test(status) && status !== "401" && status !== "429";
      // A kept answer of a POST also says when it is a replay; a component shared with other
      // operations is then written in place (it differs from theirs).
      responses[status] = kept
        ? { ...withoutId(withVersion(response)), headers: withHeaders(response.headers, versionHeader, replayedHeader) }
        : withVersion(response);
    }
    for (const error of CONVENTION_ERRORS.filter((e) => post || !e.posts)) {
      const status = String(error.status);
      responses[status] = withError(responses[status], error);
    }
    const scope = scopeOfOperation(method, path);
    if (!scope) throw new Error(`${method.toUpperCase()} ${path}: give its scope in ROUTE_SCOPES (route-scopes.ts)`);
    // Given before a key is claimed: never kept for a replay.
    responses["403"] = withError(responses["403"], {
      status: 403,
      code: "insufficient_scope",
      description: `The secret you sent does not hold the scope \`${scope}\`, which this operation needs: \`requiredScope\` names it. Nothing was done.`,
      posts: false,
    });
    const header = withHeaders(
      operation.requestParams?.header as HeaderShape,
      z.object({ [VERSION_HEADER]: versionParam }),
      ...(post ? [z.object({ [IDEMPOTENCY_KEY_HEADER]: idempotencyKeyParam })] : []),
    );
    const withParams: ZodOpenApiOperationObject = {
      ...operation,
      description:
        `${operation.description ?? ""}\n\nNeeds a secret with the scope \`${scope}\` (or one from before scopes, which holds \`all\`).`.trimStart(),
      "x-required-scope": scope,
      requestParams: { ...operation.requestParams, header },
      responses,
    };
    return { method, path, operation: withParams };
  };
}

function withoutId(response: ZodOpenApiResponseObject): ZodOpenApiResponseObject {
  const { id: _id, ...rest } = response;
  return rest;
}

/** An operation's error answer with one more code, or that error's answer alone. */
function withError(response: ZodOpenApiResponseObject | undefined, error: (typeof CONVENTION_ERRORS)[number]): ZodOpenApiResponseObject {
  // An answer of the operation's own with this status already says when it is a replay.
  const extraHeaders = [versionHeader, ...(error.headers ? [error.headers] : [])];
  if (response === undefined) {
    const alone = errorResponse(error.status, error.description, [error.code]);
    return { ...alone, headers: withHeaders(alone.headers, ...extraHeaders) };
  }
  const codes = (response["x-error-codes"] as AppErrorCode[] | undefined) ?? [];
  if (codes.length === 0) throw new Error(`An answer ${error.status} without x-error-codes cannot take \`${error.code}\``);
  return {
    ...withoutId(response),
    description: codes.includes(error.code)
      ? `${response.description}\n\nAlso \`${error.code}\` when ${error.description}`
      : `${response.description}\n- \`${error.code}\`: ${error.description}`,
    "x-error-codes": codes.includes(error.code) ? codes : [...codes, error.code],
    headers: withHeaders(response.headers, ...extraHeaders),
  };
}

export interface CheckoutApiDocumentOptions {
  /** The API's base URL: the app's public URL followed by `/api`. */
  serverUrl?: string;
  /** Which partner API the deployment uses: said in the server's description (default sandbox). */
  environment?: "sandbox" | "production";
  /**
   * The demo partner's published secret, named only on a sandbox deployment that uses it: a
   * production document (or one whose demo secret was changed) names no secret.
   */
  demoSecret?: string;
}

export function buildCheckoutApiDocument(options: CheckoutApiDocumentOptions = {}): OpenApiDocument {
  return generateDocument({
    openapi: "3.1.0",
    info: { title: "Checkout sessions API", version: CURRENT_CHECKOUT_API_VERSION, description: description(options.demoSecret) },
    servers: [
      {
        url: options.serverUrl ?? "http://localhost:3000/api",
        description:
          (options.environment ?? "sandbox") === "production"
            ? "This deployment: production, on the financing partner's production API"
            : "This deployment: sandbox, on the financing partner's test API (no real money)",
        // Public: for partners' backends (documentation tools read this).
        "x-internal": false,
      },
    ],
    security: [{ PartnerSecret: [] }],
    tags: [
      {
        name: "Checkout sessions",
        description:
          "Open a checkout for a booking, read where it stands, list yours; cancel one before its customer signs, refund one once confirmed.",
      },
      { name: "Events", description: "The notifications of your sessions, as a feed you read: to catch up on what you missed." },
      { name: "Notifications", description: "What we POST to your notification URL." },
    ],
    paths: routesToPaths(routes().map(withApiConventions())),
    webhooks: {
      checkoutSessionNotification: {
        post: {
          operationId: "checkoutSessionNotification",
          summary: "A session reached a state",
          description: [
            "POSTed to your notification URL at each state a session reaches, and once when its customer's data is erased (`checkout.session.customer_data_erased`), in the [Standard Webhooks](https://www.standardwebhooks.com/) format, signed with your `whsec_…` signing secret.",
            "",
            "- Verify the signature on the **raw** body (the bytes received, before any JSON parsing), with the three headers.",
            "- Delivery is at least once: deduplicate on `webhook-id`.",
            "- Answer 2xx within 5 seconds; anything else is retried after 10 s, 1 min, 5 min, 30 min, 2 h, then every 6 h.",
            "- Act on the session you read with `GET /checkout-sessions/{id}`: the payload is a hint.",
            "- Missed some (your endpoint was down, or had no URL yet)? `GET /events` lists every one, in order, with the same payload.",
          ].join("\n"),
          tags: ["Notifications"],
          // Signed, not authenticated with a credential of yours.
          security: [],
          requestParams: { header: notificationHeadersSchema },
          requestBody: { required: true, content: jsonContent(notificationPayloadSchema) },
          responses: {
            "2XX": { description: "Received: not sent again." },
            default: { description: "Anything else (or no answer within 5 seconds): sent again later." },
          },
        },
      },
      testNotification: {
        post: {
          operationId: "testNotification",
          summary: "A test notification",
          description: [
            "Sent when your staff press *Send a test notification* in the back-office (Notifications): the same headers and signatures as every notification, type `notification.test`, about no session.",
            "",
            "- Sent once, right away, and never retried: the back-office shows your endpoint's status code (or why it got none).",
            "- Verify it like any notification and answer 2xx; there is nothing to look up.",
          ].join("\n"),
          tags: ["Notifications"],
          security: [],
          requestParams: { header: notificationHeadersSchema },
          requestBody: { required: true, content: jsonContent(notificationTestPayloadSchema) },
          responses: {
            "2XX": { description: "Received: the back-office says so." },
            default: { description: "Anything else: the back-office shows it. Not sent again." },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        PartnerSecret: {
          type: "http",
          scheme: "bearer",
          description: `Your partner secret (not the financing key).${options.demoSecret ? ` On this sandbox, the demo partner's: \`${options.demoSecret}\`.` : ""}`,
        },
      },
    },
  });
}
