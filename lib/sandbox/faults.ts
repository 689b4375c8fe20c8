import "server-only";
import { and, asc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { SandboxDatabase, SandboxDb } from "./db/connection";
import { sandboxFaults, type SandboxFaultRow } from "./db/schema";
import { businessError, generalError, parseOrThrow, SandboxError } from "./errors";

/**
 * Fault injection for QA (WireMock-style): latency, 500, 503 or 429 with Retry-After, on a route,
 * at a rate or for a count. Faults apply to the partner API routes only, never to the control API,
 * and only to requests made with the key of the account that set them.
 */

export const faultSchema = z.object({
  /**
   * `METHOD /path` or `/path` (any method), relative to /v1; `*` stands for one path segment:
   * `GET /operations/*\/status`. Absent: every route.
   */
  route: z
    .string()
    .regex(/^([A-Z]+ )?\/\S*$/, "must look like `GET /operations/*/status` or `/health`")
    .optional(),
  fault: z.enum(["latency", "500", "503", "429"]),
  latencyMs: z.number().int().min(0).max(60_000).default(1_000),
  retryAfterSeconds: z.number().int().min(0).max(3_600).default(1),
  /** Share of matching requests hit, 0 to 1. */
  rate: z.number().min(0).max(1).default(1),
  /** Hit at most this many requests, then the fault is spent. */
  count: z.number().int().positive().optional(),
});
export type FaultInput = z.input<typeof faultSchema>;
export type Fault = z.output<typeof faultSchema> & { id: number; hits: number };

const faultListSchema = z.object({ faults: z.array(faultSchema).max(50) });

/**
 * The body of `PUT /_control/faults`: `{"faults": [...]}`, or one fault. Told apart by the `faults`
 * key before parsing, so a bad body is refused naming its fields (`rate`, `faults.1.fault`): as a
 * union of both, it was refused as a whole, "(body): Invalid input".
 */
export function parseFaultsBody(body: unknown): z.output<typeof faultSchema>[] {
  const isList = typeof body === "object" && body !== null && !Array.isArray(body) && "faults" in body;
  return isList ? parseOrThrow(faultListSchema, body).faults : [parseOrThrow(faultSchema, body)];
}

/**
 * The faults of each sandbox account, in the database: an account's faults hit only requests made
 * with its own key, and a fault's `count` holds across processes (its hits are counted in its row).
 */
export class Faults {
  constructor(
    private readonly database: Promise<SandboxDatabase>,
    private readonly random: () => number = Math.random,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {
    database.catch(() => {});
  }

  private async db(): Promise<SandboxDb> {
    return (await this.database).db;
  }

  /** PUT replaces the account's whole set. */
  async replace(account: string, body: unknown): Promise<Fault[]> {
    const inputs = parseFaultsBody(body);
    const db = await this.db();
    await db.transaction(async (tx) => {
      await tx.delete(sandboxFaults).where(eq(sandboxFaults.account, account));
      if (inputs.length > 0) {
        await tx.insert(sandboxFaults).values(
          inputs.map((input) => ({
            account,
            route: input.route ?? null,
            fault: input.fault,
            latencyMs: input.latencyMs,
            retryAfterSeconds: input.retryAfterSeconds,
            rate: input.rate,
            count: input.count ?? null,
          })),
        );
      }
    });
    return this.list(account);
  }

  async clear(account: string): Promise<void> {
    await (await this.db()).delete(sandboxFaults).where(eq(sandboxFaults.account, account));
  }

  async list(account: string): Promise<Fault[]> {
    const rows = await (
      await this.db()
    )
      .select()
      .from(sandboxFaults)
      .where(eq(sandboxFaults.account, account))
      .orderBy(asc(sandboxFaults.id));
    return rows.map(toFault);
  }

  /** Runs the account's faults matching this request: waits for latency ones, throws the first error one. */
  async apply(account: string, method: string, path: string, now: number): Promise<void> {
    const db = await this.db();
    for (const fault of await this.list(account)) {
      if (!matches(fault.route, method, path)) continue;
      if (fault.count !== undefined && fault.hits >= fault.count) continue;
      if (this.random() >= fault.rate) continue;
      // Counted in the row: of concurrent requests (in any process), only `count` get the fault.
      const hit = await db
        .update(sandboxFaults)
        .set({ hits: sql`${sandboxFaults.hits} + 1` })
        .where(and(eq(sandboxFaults.id, fault.id), or(isNull(sandboxFaults.count), lt(sandboxFaults.hits, sandboxFaults.count))))
        .returning({ id: sandboxFaults.id });
      if (hit.length === 0) continue;
      if (fault.fault === "latency") {
        await this.sleep(fault.latencyMs);
        continue;
      }
      throw errorOf(fault, now);
    }
  }
}

function toFault(row: SandboxFaultRow): Fault {
  return {
    id: row.id,
    ...(row.route === null ? {} : { route: row.route }),
    fault: row.fault as Fault["fault"],
    latencyMs: row.latencyMs,
    retryAfterSeconds: row.retryAfterSeconds,
    rate: row.rate,
    ...(row.count === null ? {} : { count: row.count }),
    hits: row.hits,
  };
}

function errorOf(fault: Fault, now: number): SandboxError {
  switch (fault.fault) {
    case "500":
      return businessError(500, "INTERNAL_ERROR", "Injected fault: internal error");
    case "503":
      return generalError(503, "Service Unavailable", "Injected fault: service unavailable", now);
    default: {
      const error = generalError(429, "Too Many Requests", "Injected fault: rate limit exceeded", now);
      return new SandboxError(429, error.body, { "Retry-After": String(fault.retryAfterSeconds) });
    }
  }
}

export function matches(route: string | undefined, method: string, path: string): boolean {
  if (route === undefined) return true;
  const [routeMethod, routePath] = route.includes(" ") ? route.split(" ", 2) : [undefined, route];
  if (routeMethod !== undefined && routeMethod !== method) return false;
  const want = (routePath ?? "").split("/").filter(Boolean);
  const got = path.split("/").filter(Boolean);
  return want.length === got.length && want.every((segment, i) => segment === "*" || segment === got[i]);
}
