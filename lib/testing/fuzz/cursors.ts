import fc from "fast-check";
import { hostileSegment, hostileString } from "./values";

/*
 * Forged cursors for the partner API's session list and event feed (the checkout sessions
 * surface of lib/testing/fuzz/surfaces.ts; the list's and the feed's own tests use them too).
 */

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/**
 * List cursors as someone forging one would write them: the list's own shape (an instant to the
 * microsecond, a session id, a filters' fingerprint) with impossible or made-up values (2026-13-45),
 * with no signature, a made-up one, or one copied from elsewhere; or anything at all.
 */
export const forgedCursor: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.tuple(fc.nat(9999), fc.nat(99), fc.nat(99), fc.nat(99), fc.nat(99), fc.nat(99), fc.nat(999_999)),
      fc.oneof(fc.constant("cs_aaaaaaaaaaaaaaaaaaaaaaaa"), hostileString),
      fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.constant(null)),
      fc.option(fc.oneof(fc.base64String({ minLength: 20, maxLength: 24 }), fc.constant("AAAAAAAAAAAAAAAAAAAAAA"), hostileSegment)),
    )
    .map(([[year, month, day, hour, minute, second, micros], id, fingerprint, mac]) => {
      const instant = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}.${pad(micros, 6)}Z`;
      const payload = Buffer.from(JSON.stringify([instant, id, fingerprint])).toString("base64url");
      return mac === null ? payload : `${payload}.${mac.replace(/[+/=]/g, "_")}`;
    }),
  fc.base64String({ maxLength: 200 }).map((value) => value.replace(/[+/=]/g, "-")),
  hostileSegment,
);

/**
 * Event feed cursors as someone forging one would write them: the feed's own shape (a position,
 * as a signed cursor carries it) with made-up or negative or huge positions, with no signature, a
 * made-up one, or one copied from elsewhere; numbers of the earlier deployment-wide form, in range
 * or not; or any list cursor the list's forger writes.
 */
export const forgedEventCursor: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(
      fc.oneof(
        fc.nat(),
        fc.integer({ min: -1000, max: -1 }),
        fc.double(),
        fc.constant(Number.MAX_SAFE_INTEGER + 2),
        fc.string({ maxLength: 8 }),
      ),
      fc.option(fc.oneof(fc.base64String({ minLength: 20, maxLength: 24 }), fc.constant("AAAAAAAAAAAAAAAAAAAAAA"), hostileSegment)),
    )
    .map(([position, mac]) => {
      const payload = Buffer.from(JSON.stringify([position])).toString("base64url");
      return mac === null ? payload : `${payload}.${mac.replace(/[+/=]/g, "_")}`;
    }),
  fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.bigInt({ min: -(10n ** 20n), max: -1n })).map(String),
  forgedCursor,
);
