import { processSingleton } from "@/lib/process/singleton";

/**
 * What may be logged of an error, by allow-list: codes, names, endpoints, ids, table and constraint
 * names. Never a message that can carry what was sent: a database error's message and detail hold
 * the query's values (an e-mail, a document number), drizzle's wrapper holds the query and its
 * parameters, so those are logged by their SQLSTATE code and the table only.
 */
export interface SafeError {
  type: string;
  code?: string;
  status?: number;
  message?: string;
  table?: string;
  constraint?: string;
  column?: string;
  fields?: string[];
  /** An outside system's error, its own safe shape (the partner API's: endpoint, kind, status, errorCode…). */
  api?: Record<string, unknown>;
  cause?: SafeError;
}

/**
 * How a domain's own error class is logged: the logging code knows no domain, so a domain whose
 * errors have a safe shape of their own (the partner API client's) registers it here.
 */
export interface ErrorDescriber {
  /** The error's safe shape, or undefined when the error is not of this kind. */
  describe(error: unknown): SafeError | undefined;
  /** True for a refusal its caller handles (logged at info, not as a failure). */
  isRefusal?(error: unknown): boolean;
}

// One per process (lib/process/singleton.ts): Next bundles the start-up code and the routes apart,
// and the logger meets the errors of every bundle. Keyed by name, so a second bundle's copy replaces.
function describers(): Map<string, ErrorDescriber> {
  return processSingleton("logging.error-describers", () => new Map<string, ErrorDescriber>());
}

/** Registers how errors of one kind are logged (called by the module that defines the error class). */
export function registerErrorDescriber(name: string, describer: ErrorDescriber): void {
  describers().set(name, describer);
}

/** Whether a registered describer calls this error a refusal its caller handles. */
export function isRefusal(error: unknown): boolean {
  for (const describer of describers().values()) if (describer.isRefusal?.(error)) return true;
  return false;
}

/** An outside system's safe record, its free-text values scrubbed (ids and endpoints kept). */
export function scrubRecord(record: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(record), (key, value: unknown) =>
    typeof value === "string" && key !== "requestId" && key !== "endpoint" ? scrub(value) : value,
  ) as Record<string, unknown>;
}

/** What safeError needs of lib/app-error's AppError, by shape (see isAppError). */
interface AppErrorShape extends Error {
  code: string;
  status: number;
  details: { fields?: { field: string }[]; cause?: unknown };
}

const MAX_DEPTH = 4;
const MESSAGE_MAX = 300;

export function safeError(error: unknown, depth = 0): SafeError {
  if (depth >= MAX_DEPTH) return { type: "(cause chain cut)" };
  for (const describer of describers().values()) {
    const described = describer.describe(error);
    if (described) return described;
  }
  if (isAppError(error)) {
    return withCause(
      {
        type: "AppError",
        code: error.code,
        status: error.status,
        // Our own messages; the fields by name only (their messages may quote a value some day).
        message: scrub(error.message),
        ...(error.details.fields ? { fields: error.details.fields.map((field) => field.field) } : {}),
      },
      error.details.cause,
      depth,
    );
  }
  // The driver's error (PGlite's also holds the query and its parameters) before drizzle's wrapper.
  const database = databaseError(error);
  if (database) return database;
  if (isQueryWrapper(error)) {
    // drizzle's DrizzleQueryError: its message is the query and its parameters. The driver's error is the cause.
    return withCause({ type: "DatabaseQueryError" }, error.cause, depth);
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return withCause(
      {
        type: className(error),
        ...(typeof code === "string" && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? { code } : {}),
        message: scrub(error.message),
      },
      error.cause,
      depth,
    );
  }
  if (typeof error === "string") return { type: "string", message: scrub(error) };
  return { type: error === null ? "null" : typeof error };
}

// Not `instanceof`: each bundle of the build has its own copy of the class, and lib/app-error.ts
// logs through the logger, which uses this module (an import of it would be a circle).
function isAppError(error: unknown): error is AppErrorShape {
  return (
    error instanceof Error && error.name === "AppError" && typeof (error as { code?: unknown }).code === "string" && "details" in error
  );
}

function withCause(shape: SafeError, cause: unknown, depth: number): SafeError {
  return cause === undefined ? shape : { ...shape, cause: safeError(cause, depth + 1) };
}

function isQueryWrapper(error: unknown): error is Error & { cause?: unknown } {
  return error instanceof Error && typeof (error as { query?: unknown }).query === "string" && "params" in error;
}

/** A PostgreSQL error, from postgres.js (`PostgresError`: table_name…) or PGlite (pg-protocol's: table…). */
function databaseError(error: unknown): SafeError | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const e = error as Record<string, unknown>;
  if (typeof e.code !== "string" || !/^[0-9A-Z]{5}$/.test(e.code) || typeof e.severity !== "string") return undefined;
  const name = (value: unknown) => (typeof value === "string" && /^[\w.]{1,128}$/.test(value) ? value : undefined);
  const table = name(e.table_name ?? e.table);
  const constraint = name(e.constraint_name ?? e.constraint);
  const column = name(e.column_name ?? e.column);
  return {
    type: "DatabaseError",
    code: e.code,
    ...(table ? { table } : {}),
    ...(constraint ? { constraint } : {}),
    ...(column ? { column } : {}),
  };
}

/** The error's own name (TypeError, AbortError…) before its class's: a production build minifies class names. */
function className(error: Error): string {
  const name = error.name && error.name !== "Error" ? error.name : (error.constructor?.name ?? "Error");
  return /^[\w$.-]{1,64}$/.test(name) ? name : "Error";
}

const EMAIL = /[^\s@"'<>(),;:[\]]+@[^\s@"'<>(),;:[\]]+/g;
// A long number, spaced or not: a phone, a document or card number, an amount with many digits.
const NUMBER = /\+?\d(?:[\s().-]?\d){5,}/g;
const DATE = /\b\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}\b/g;
// A document number with its letter (12345678Z, X1234567L) is caught above; this is a secret-like run.
const TOKEN = /\b(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{24,}\b/g;
const BEARER = /\b(bearer|basic)\s+\S+/gi;

// An IPv4 address, captured so that split() keeps it as its own part.
const IPV4 = /\b((?:\d{1,3}\.){3}\d{1,3})\b/;
// Our own infrastructure's addresses (loopback, private ranges): what an operator needs in
// "connect ECONNREFUSED 127.0.0.1:5432". Any other may be a customer's, which is personal data.
const INFRASTRUCTURE_IP = /^(?:127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|0\.0\.0\.0$)/;

/** Removes what looks like personal data or a secret from a free-text message. */
export function scrub(text: string): string {
  const out = text
    .replace(BEARER, "$1 [redacted]")
    .replace(EMAIL, "[email]")
    .replace(TOKEN, "[token]")
    // An address's dots and digits read as a date or a long number: addresses are judged first.
    .split(IPV4)
    .map((part, i) =>
      i % 2 === 1 ? (INFRASTRUCTURE_IP.test(part) ? part : "[ip]") : part.replace(DATE, "[date]").replace(NUMBER, "[number]"),
    )
    .join("");
  return out.length > MESSAGE_MAX ? `${out.slice(0, MESSAGE_MAX)}…` : out;
}
