import fc from "fast-check";
import { nonObjectJson, notJson, mutated, pathsOf, withValueAt } from "./values";

/*
 * A hostile request of the fuzz, as plain data: its shape, what it needs to know of the instance
 * under test, the surfaces' names, and how one is built (lib/testing/fuzz/surfaces.ts gathers every surface's).
 */

export interface FuzzRequest {
  surface: SurfaceName;
  method: string;
  /** Path and query as sent: already percent-encoded, or deliberately malformed. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Sent without a length (Transfer-Encoding: chunked): its size is known only as it is read. */
  chunked?: boolean;
}

/** What the requests need to know of the instance under test. */
export interface FuzzTarget {
  /** The origin requests are sent to (an Origin header for action posts: same-origin, as a browser). */
  origin: string;
  partnerSecret: string;
  webhookToken: string;
  sandboxKey: string;
  /** An existing checkout session of the partner: hostile posts aim at it too. */
  sessionId: string;
  /** Server action ids found in the app's pages (see `actionIdsIn`); random ones are tried too. */
  actionIds: string[];
}

export const SURFACES = [
  "checkout-sessions",
  "webhook",
  "badge",
  "checkout-pages",
  "embed",
  "server-actions",
  "admin",
  "sandbox-api",
  "sandbox-pages",
  "sandbox-control",
] as const;
export type SurfaceName = (typeof SURFACES)[number];

/** The sandbox's surfaces, which its own handler serves (tests run them in-process). */
export const SANDBOX_SURFACES: SurfaceName[] = ["sandbox-api", "sandbox-pages", "sandbox-control"];

/** The headers of a JSON body. */
export const json = { "Content-Type": "application/json" };

/** A JSON body that is invalid: one value made hostile, not an object, not JSON, or too large. */
export function hostileJsonBody(valid: object, limit: number, freeFormLists: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: mutated(valid, freeFormLists).map((value) => JSON.stringify(value)) },
    { weight: 2, arbitrary: nonObjectJson },
    { weight: 2, arbitrary: notJson },
    { weight: 1, arbitrary: fc.constant(tooLarge(valid, limit)) },
  );
}

/** Past the limit, and invalid even if it were read: its first value made a NUL and padded. */
function tooLarge(valid: object, limit: number): string {
  const first = pathsOf(valid).find((path) => typeof path.at(-1) === "string")!;
  return JSON.stringify(withValueAt(valid, first, `\u0000${"x".repeat(limit)}`));
}

export function request(
  surface: SurfaceName,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): FuzzRequest {
  return { surface, method, path, headers, ...(body === undefined ? {} : { body }) };
}
