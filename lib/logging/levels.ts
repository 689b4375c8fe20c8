/** The levels LOG_LEVEL accepts (pino's), most to least severe; `silent` logs nothing. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === "string" && (LOG_LEVELS as readonly string[]).includes(value);
}

/**
 * LOG_LEVEL, or `info`; in tests `silent` unless set, so test output stays readable. A bad value
 * falls back to the default here: lib/config/env.ts refuses it at start with a message naming the variable.
 */
export function logLevelFrom(env: { LOG_LEVEL?: string; NODE_ENV?: string }): LogLevel {
  const value = env.LOG_LEVEL;
  if (isLogLevel(value)) return value;
  return env.NODE_ENV === "test" ? "silent" : "info";
}
