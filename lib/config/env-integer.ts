import { z } from "zod";

/**
 * A whole number read from an environment variable, written as digits (a leading minus allowed,
 * so that a negative one gets its range message). `z.coerce.number()` took `" "` for 0, and
 * `0x10`, `1e3` or ` 5 ` for numbers nobody wrote: a blank-looking TRUSTED_PROXY_HOPS silently
 * meant "no proxy". An empty variable (`FOO=`) is dropped before parsing, as "not set"; anything
 * else that is not digits is refused, and the caller's schema names the variable. Pure: the app's
 * configuration and the sandbox's use it.
 */
export function envInteger(range: { min: number; max: number; minMessage?: string; maxMessage?: string }) {
  return z
    .string()
    .regex(/^-?[0-9]+$/, "must be a whole number, in digits")
    .transform(Number)
    .pipe(
      z
        .number()
        .min(range.min, range.minMessage ?? `must be ${range.min} or more`)
        .max(range.max, range.maxMessage ?? `must be ${range.max} or less`),
    );
}
