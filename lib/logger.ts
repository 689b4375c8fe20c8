import pino, { type DestinationStream, type Logger } from "pino";
import pretty from "pino-pretty";
import { processSingleton, processSlot } from "@/lib/process/singleton";
import { currentLogContext } from "./logging/context";
import { activeTraceIds } from "./tracing/spans";
import { logLevelFrom } from "./logging/levels";
import { isRefusal, safeError, scrub } from "./logging/safe-error";

/**
 * The one logger of the app and the sandbox (pino). JSON lines in production (`next start` sets
 * NODE_ENV=production), readable lines otherwise; LOG_LEVEL sets the level (lib/logging/levels.ts).
 * Every line written while serving a request carries its `requestId` (lib/logging/context.ts), and
 * with tracing on the `trace_id` and `span_id` of the span it was written in (lib/tracing/spans.ts).
 *
 * What goes on a line is an allow-list: codes, endpoints, ids and counts, and errors through
 * `logError` (their safe shape, lib/logging/safe-error.ts). Never a request body, a customer's
 * data, a key, a token, a secret or a password. The `redact` paths are a second net, not the rule.
 */

/** Field names that must never be logged whatever their nesting (one level: pino's redact syntax). */
const REDACTED_KEYS = [
  "email",
  "phone",
  "documentId",
  "documentNumber",
  "birthDate",
  "firstName",
  "lastName",
  "address",
  "customer",
  "client",
  "password",
  "totp",
  "apiKey",
  "secret",
  "signingSecret",
  "token",
  "webhookToken",
  "authorization",
  "cookie",
  "headers",
  "body",
  "params",
  "query",
];

export function createLogger(
  options: {
    level?: string;
    destination?: DestinationStream;
    pretty?: boolean;
    /** 1: standard output (the default), 2: standard error. */ fd?: 1 | 2;
  } = {},
): Logger {
  const usePretty = options.pretty ?? (process.env.NODE_ENV !== "production" && options.destination === undefined);
  const fd = options.fd ?? 1;
  const destination =
    options.destination ??
    (usePretty
      ? // A synchronous stream in this thread: pino's worker-thread transports do not survive Next's bundling.
        pretty({
          sync: true,
          destination: fd,
          colorize: Boolean((fd === 1 ? process.stdout : process.stderr).isTTY),
          translateTime: "SYS:HH:MM:ss.l",
          ignore: "pid,hostname",
        })
      : pino.destination({ dest: fd, sync: true }));
  return pino(
    {
      level: options.level ?? logLevelFrom(process.env),
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // With tracing on, the active span's ids too (`trace_id`, `span_id`): a line leads to its trace.
      mixin: () => ({ ...currentLogContext(), ...activeTraceIds() }),
      serializers: { err: safeError },
      hooks: {
        // `log.error(error)`: pino would take the error's own message as the line's; it is the
        // error's safe shape that is logged, under a message that says nothing more.
        logMethod(args, method) {
          const [first, ...rest] = args as unknown[];
          if (first instanceof Error) {
            const message = typeof rest[0] === "string" ? rest[0] : "error";
            return method.call(this, { err: first }, message);
          }
          return method.apply(this, args);
        },
      },
      redact: { paths: REDACTED_KEYS.flatMap((key) => [key, `*.${key}`]), censor: "[redacted]" },
    },
    destination,
  );
}

// One per process (lib/process/singleton.ts). A command whose standard output is its answer
// (scripts/admin.ts) sets the slot `logging.fd` to 2 before loading any of the app.
export const logger: Logger = processSingleton("logging.logger", () => createLogger({ fd: processSlot<1 | 2>("logging.fd").get() }));

/** The logger of a part of the system: its lines say which (`component`). */
export function loggerFor(component: string): Logger {
  return logger.child({ component });
}

/**
 * Logs an error by its safe shape only. `fields` are ids, codes and counts (never customer data):
 * the caller names them, so nothing reaches the line by accident.
 */
export function logError(log: Logger, message: string, error: unknown, fields: Record<string, string | number | boolean | undefined> = {}) {
  // A refusal an outside system names by its code (the partner API's not cancellable, not
  // refundable, not eligible, not found…) is an answer the caller handles, not a failure: `info`,
  // as the log levels of docs/operators/monitoring.md say. The domain that owns the error class says which are refusals.
  if (isRefusal(error)) {
    log.info({ ...fields, err: error }, message);
    return;
  }
  log.error({ ...fields, err: error }, message);
}

/**
 * Next's own messages (an error thrown by a page or an action, a warning) go through console.error
 * and console.warn: routed here, an error is logged by its safe shape and a text is scrubbed, so a
 * driver's message with a query's parameters cannot reach the log that way either.
 */
export function routeConsoleToLogger(log: Logger = loggerFor("next")): void {
  const route =
    (level: "error" | "warn") =>
    (...args: unknown[]): void => {
      const error = args.find((arg) => arg instanceof Error);
      const text = args
        .filter((arg) => !(arg instanceof Error))
        .map((arg) => (typeof arg === "string" || typeof arg === "number" || typeof arg === "boolean" ? String(arg) : "[object]"))
        .join(" ");
      log[level]({ ...(error === undefined ? {} : { err: error }) }, scrub(text) || "(no message)");
    };
  console.error = route("error");
  console.warn = route("warn");
}
