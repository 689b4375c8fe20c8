import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import { LOG_LEVELS } from "@/lib/logging/levels";

/**
 * The app's configuration, read from the environment and validated once (at server start, from
 * `instrumentation.ts`). Every later read gets the same parsed object. A bad value stops the
 * server with a message that names the variable and never echoes a secret.
 */

/** The sandbox's seeded agency key: the no-configuration default talks to the bundled sandbox. */
export const SANDBOX_DEFAULT_API_KEY = "fk_test_sandbox_agency_101";
export const SANDBOX_KEY_PREFIX = "fk_test_";
/**
 * The demo partner's secret when the app runs on the sandbox and none is set: a published test
 * credential like the sandbox's keys, never used against the production API.
 */
export const DEMO_PARTNER_DEFAULT_SECRET = "demo_partner_secret_sandbox_only";
export const PRODUCTION_KEY_PREFIX = "fk_live_";

// RFC 9110 token characters: what an HTTP header name may contain.
const headerName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "must be a valid HTTP header name");

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"], { error: "must be true or false" })
  .transform((value) => value === "true" || value === "1" || value === "yes");

const positiveInt = (max: number) => z.coerce.number().int("must be a whole number").positive("must be positive").max(max);

const rawEnvSchema = z.object({
  PORT: positiveInt(65_535).default(3000),
  DATA_DIR: z.string().min(1).default(".data"),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" }).optional(),
  FINANCING_API_BASE_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  FINANCING_API_KEY: z.string().min(1).optional(),
  FINANCING_API_ENVIRONMENT: z.enum(["sandbox", "production"], { error: "must be sandbox or production" }).optional(),
  FINANCING_AGENCY_ID: positiveInt(Number.MAX_SAFE_INTEGER).optional(),
  FINANCING_API_KEY_HEADER: headerName.default("X-Service-API-Key"),
  FINANCING_AGENCY_HEADER: headerName.default("X-Service-Agency"),
  FINANCING_TIMEOUT_MS: positiveInt(120_000).default(10_000),
  FINANCING_MAX_ATTEMPTS: positiveInt(3).default(3),
  SANDBOX_ENABLED: booleanFlag.default(true),
  APP_URL: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  WEBHOOK_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9_-]{24,128}$/, "must be 24 to 128 letters, digits, - or _")
    .optional(),
  DEMO_PARTNER_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  DEMO_PARTNER_EXTRA_ORIGINS: z
    .string()
    .transform((value) => value.split(/[\s,]+/).filter(Boolean))
    .refine((values) => values.every(isOrigin), "must be origins like https://agency.example, separated by commas")
    .optional(),
  // Read by lib/logger.ts (which falls back to info on a bad value); refused here, naming the variable.
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).optional(),
  // How many proxies in front of the app append to X-Forwarded-For (lib/security/client-ip.ts).
  TRUSTED_PROXY_HOPS: z.coerce.number().int("must be a whole number").min(0, "must be 0 or more").max(10, "must be 10 or less").default(0),
});

/** `http(s)://host[:port]`, exactly as URL.origin writes it. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value;
  } catch {
    return false;
  }
}

export type FinancingEnvironment = "sandbox" | "production";

export interface AppEnv {
  PORT: number;
  DATA_DIR: string;
  DATABASE_URL: string | undefined;
  /** Whether this app serves the partner API sandbox under /sandbox. */
  SANDBOX_ENABLED: boolean;
  /** The app's public base URL: return and webhook URLs given to the partner API start with it. */
  APP_URL: string;
  /** The secret path segment of our webhook URL. */
  WEBHOOK_TOKEN: string;
  /** The seeded demo partner's secret (sandbox only); undefined: no demo partner. */
  DEMO_PARTNER_SECRET: string | undefined;
  /** More origins the demo partners may frame the checkout from and return to (tests' partner pages). */
  DEMO_PARTNER_EXTRA_ORIGINS: string[];
  /** Proxies in front of the app that append the client's address to X-Forwarded-For; 0: none (the socket's address). */
  TRUSTED_PROXY_HOPS: number;
  financing: {
    baseUrl: string;
    apiKey: string;
    environment: FinancingEnvironment;
    /** Set for a management group key: the agency every call (but GET /agencies) acts for. */
    agencyId: number | undefined;
    apiKeyHeader: string;
    agencyHeader: string;
    timeoutMs: number;
    maxAttempts: number;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p.variable}: ${p.message}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/**
 * The spec says sandbox and production differ only in host. We can't know the real hosts, so a
 * base URL is the sandbox when it is on this machine (the bundled sandbox) or names "sandbox" in a
 * host label or a path segment; anything else is production. FINANCING_API_ENVIRONMENT overrides.
 */
export function environmentOfBaseUrl(baseUrl: string): FinancingEnvironment {
  const url = new URL(baseUrl);
  const host = url.hostname.toLowerCase();
  if (LOOPBACK_HOSTS.has(host) || host.startsWith("127.")) return "sandbox";
  const words = [...host.split("."), ...url.pathname.toLowerCase().split("/")];
  return words.some((word) => word.split("-").includes("sandbox")) ? "sandbox" : "production";
}

export function parseEnv(source: Record<string, string | undefined>): AppEnv {
  // An empty variable (`FOO=` in a .env file) means "not set", as in most tools.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ""));
  const parsed = rawEnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => ({ variable: issue.path.join("."), message: issue.message })));
  }
  const raw = parsed.data;
  const problems: { variable: string; message: string }[] = [];

  const baseUrl = (raw.FINANCING_API_BASE_URL ?? `http://localhost:${raw.PORT}/sandbox/v1`).replace(/\/+$/, "");
  const environment = raw.FINANCING_API_ENVIRONMENT ?? environmentOfBaseUrl(baseUrl);

  let apiKey = raw.FINANCING_API_KEY;
  if (apiKey === undefined) {
    if (raw.FINANCING_API_BASE_URL === undefined) apiKey = SANDBOX_DEFAULT_API_KEY;
    else problems.push({ variable: "FINANCING_API_KEY", message: "is required when FINANCING_API_BASE_URL is set" });
  }

  if (apiKey !== undefined) {
    // Never echo the key: name only its kind.
    if (apiKey.startsWith(PRODUCTION_KEY_PREFIX) && environment === "sandbox") {
      problems.push({
        variable: "FINANCING_API_KEY",
        message: `a production key (${PRODUCTION_KEY_PREFIX}…) cannot be used with the sandbox base URL ${baseUrl}`,
      });
    } else if (apiKey.startsWith(SANDBOX_KEY_PREFIX) && environment === "production") {
      problems.push({
        variable: "FINANCING_API_KEY",
        message: `a sandbox key (${SANDBOX_KEY_PREFIX}…) cannot be used with the production base URL ${baseUrl}`,
      });
    } else if (!apiKey.startsWith(PRODUCTION_KEY_PREFIX) && !apiKey.startsWith(SANDBOX_KEY_PREFIX)) {
      problems.push({
        variable: "FINANCING_API_KEY",
        message: `is not a partner API key: it must start with ${SANDBOX_KEY_PREFIX} (sandbox) or ${PRODUCTION_KEY_PREFIX} (production)`,
      });
    }
  }

  if (environment === "production" && new URL(baseUrl).protocol !== "https:") {
    problems.push({ variable: "FINANCING_API_BASE_URL", message: "the production partner API is only reached over https" });
  }

  if (problems.length > 0 || apiKey === undefined) throw new ConfigError(problems);

  return {
    PORT: raw.PORT,
    DATA_DIR: raw.DATA_DIR,
    DATABASE_URL: raw.DATABASE_URL,
    SANDBOX_ENABLED: raw.SANDBOX_ENABLED,
    APP_URL: (raw.APP_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, ""),
    // Derived from the API key when not set: stable across instances and restarts, and as hard to
    // guess as the key itself, so a deployment needs no extra setting.
    WEBHOOK_TOKEN: raw.WEBHOOK_TOKEN ?? createHash("sha256").update(`webhook-token:${apiKey}`).digest("base64url").slice(0, 32),
    DEMO_PARTNER_SECRET: environment === "sandbox" ? (raw.DEMO_PARTNER_SECRET ?? DEMO_PARTNER_DEFAULT_SECRET) : raw.DEMO_PARTNER_SECRET,
    DEMO_PARTNER_EXTRA_ORIGINS: raw.DEMO_PARTNER_EXTRA_ORIGINS ?? [],
    TRUSTED_PROXY_HOPS: raw.TRUSTED_PROXY_HOPS,
    financing: {
      baseUrl,
      apiKey,
      environment,
      agencyId: raw.FINANCING_AGENCY_ID,
      apiKeyHeader: raw.FINANCING_API_KEY_HEADER,
      agencyHeader: raw.FINANCING_AGENCY_HEADER,
      timeoutMs: raw.FINANCING_TIMEOUT_MS,
      maxAttempts: raw.FINANCING_MAX_ATTEMPTS,
    },
  };
}

let cached: AppEnv | undefined;

/** The validated configuration of this process, parsed on first use and kept. */
export function getEnv(): AppEnv {
  cached ??= parseEnv(process.env);
  return cached;
}
