import { z } from "zod";
import { businessError, generalError, parseOrThrow, SandboxError } from "./errors";

/**
 * Fault injection for QA (WireMock-style): latency, 500, 503 or 429 with Retry-After, on a route,
 * at a rate or for a count. Faults apply to the partner API routes only, never to the control API.
 */

export const faultSchema = z.object({
  /**
   * `METHOD /path` or `/path` (any method), relative to /v1; `*` stands for one path segment:
   * `GET /operations/*\/status`. Absent: every route.
   */
  route: z.string().regex(/^([A-Z]+ )?\/\S*$/, "must look like `GET /operations/*/status` or `/health`").optional(),
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

export const faultsBodySchema = z.union([z.object({ faults: z.array(faultSchema).max(50) }), faultSchema]);

export class Faults {
  private faults: Fault[] = [];
  private nextId = 1;

  constructor(
    private readonly random: () => number = Math.random,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /** PUT replaces the whole set. */
  replace(body: unknown): Fault[] {
    const parsed = parseOrThrow(faultsBodySchema, body);
    const inputs = "faults" in parsed ? parsed.faults : [parsed];
    this.faults = inputs.map((input) => ({ ...input, id: this.nextId++, hits: 0 }));
    return this.list();
  }

  clear(): void {
    this.faults = [];
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  /** Runs the faults matching this request: waits for latency ones, throws the first error one. */
  async apply(method: string, path: string, now: number): Promise<void> {
    for (const fault of this.faults) {
      if (!matches(fault.route, method, path)) continue;
      if (fault.count !== undefined && fault.hits >= fault.count) continue;
      if (this.random() >= fault.rate) continue;
      fault.hits++;
      if (fault.fault === "latency") {
        await this.sleep(fault.latencyMs);
        continue;
      }
      throw errorOf(fault, now);
    }
  }
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
