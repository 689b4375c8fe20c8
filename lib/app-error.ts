/**
 * The app's one error type: a code that maps to an HTTP status and to a message safe to show.
 * Details (causes, identifiers) are for logs, never for the response. The platform's own codes are
 * here; a domain registers its own with defineErrorCodes (the checkout sessions API's in
 * lib/checkout/api/error-codes.ts). Answering any error as one is lib/http/error-response.ts's.
 * This module imports nothing.
 */

/** Every code registered, with its HTTP status: the platform's and each domain's. */
const registered = new Map<string, number>();

/**
 * Registers a domain's codes and their HTTP statuses with the error type, and gives them back
 * typed. A code registered twice must keep its status (two domains cannot mean two things by it).
 * The domain also adds its table to `AppErrorCodes` (declaration merging), so `new AppError(code)`
 * type-checks with its codes; a code used at run time without its definition loaded is refused.
 */
export function defineErrorCodes<const Table extends Record<string, number>>(table: Table): Table {
  for (const [code, status] of Object.entries(table)) {
    const known = registered.get(code);
    if (known !== undefined && known !== status) throw new Error(`Error code ${code} is already registered as a ${known}`);
    registered.set(code, status);
  }
  return table;
}

/** The platform's codes: what any request may be refused or failed with. */
export const PLATFORM_ERROR_STATUS = defineErrorCodes({
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  validation_failed: 400,
  payload_too_large: 413,
  conflict: 409,
  rate_limited: 429,
  internal: 500,
  database_unavailable: 503,
});
type PlatformErrorTable = typeof PLATFORM_ERROR_STATUS;

/** The codes an AppError may carry: the platform's, and each domain's own (added by `declare module`). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the interface is the registry's type, merged by each domain
export interface AppErrorCodes extends PlatformErrorTable {}
export type AppErrorCode = keyof AppErrorCodes & string;

/** A registered code's HTTP status. */
export function errorStatus(code: AppErrorCode): number {
  const status = registered.get(code);
  if (status === undefined) throw new Error(`Error code ${code} is not registered: import the module that defines it`);
  return status;
}

/** The most an error's body holds (the API's document states these): characters, and fields named. */
export const API_ERROR_LIMITS = { message: 2000, fields: 100, field: 200, fieldMessage: 500 } as const;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly details: {
      fields?: { field: string; message: string }[];
      cause?: unknown;
      /** Seconds until a retry can succeed (`Retry-After`): `rate_limited` (1 unless said), `idempotency_key_in_use`. */
      retryAfterS?: number;
      /** A checkout session's state, said with a refusal of what that state does not allow (the API's `error.state`). */
      state?: string;
      /** The scope the caller's credential lacks for what it asked (the API's `error.requiredScope`). */
      requiredScope?: string;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "AppError";
    this.status = errorStatus(code);
  }

  /**
   * The JSON body of the checkout sessions API, `{ error: { code, message, fields?, state?, requiredScope? } }`,
   * within API_ERROR_LIMITS: a request with many bad fields is still told the first ones.
   */
  toBody() {
    const { message, field, fieldMessage, fields } = API_ERROR_LIMITS;
    return {
      error: {
        code: this.code,
        message: clip(this.message, message),
        ...(this.details.fields
          ? {
              fields: this.details.fields
                .slice(0, fields)
                .map((f) => ({ field: clip(f.field, field), message: clip(f.message, fieldMessage) })),
            }
          : {}),
        ...(this.details.state ? { state: this.details.state } : {}),
        ...(this.details.requiredScope ? { requiredScope: this.details.requiredScope } : {}),
      },
    };
  }
}

/** Seconds a client is told to wait (`Retry-After`) when the database cannot be reached. */
export const DATABASE_RETRY_AFTER_S = 10;

export const INTERNAL_MESSAGE = "Something went wrong on our side. Please try again.";
export const UNAVAILABLE_MESSAGE = "The service is briefly unavailable. Please try again in a moment.";

/** The headers of an error answer: `Retry-After` when it is worth retrying soon. */
export function errorHeaders(error: AppError, headers?: HeadersInit): Headers {
  const all = new Headers(headers);
  if (error.code === "database_unavailable") all.set("Retry-After", String(DATABASE_RETRY_AFTER_S));
  if (error.code === "rate_limited" || error.details.retryAfterS !== undefined) {
    all.set("Retry-After", String(Math.max(1, Math.ceil(error.details.retryAfterS ?? 1))));
  }
  return all;
}
