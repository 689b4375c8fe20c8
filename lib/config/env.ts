// Over 400 lines: the one schema and parse of every environment variable, kept whole so each variable's rule and its cross-checks with the others read in one place.
import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import { LOG_LEVELS } from "@/lib/logging/levels";
import { envInteger } from "@/lib/config/env-integer";
import { emptyAllowList, parseAllowList, type AllowList } from "@/lib/config/allow-list";
import { PemFileError, readCertificates } from "@/lib/config/pem-files";
import { KeyringError, parseKeyring, SANDBOX_SECRETS_KEY_BASE64, sandboxKeyring, type Keyring } from "@/lib/config/keyring";

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

const otlpEndpoint = z
  .url({ protocol: /^https?$/, error: "must be an http(s) URL, e.g. http://otel-collector:4318" })
  .refine((url) => {
    const parsed = URL.parse(url);
    return !parsed || (parsed.username === "" && parsed.password === "" && parsed.search === "" && parsed.hash === "");
  }, "must not carry a user name, password, query or fragment (a collector's credentials go in OTEL_EXPORTER_OTLP_HEADERS)")
  .optional();

const positiveInt = (max: number) => envInteger({ min: 1, max, minMessage: "must be positive" });

const rawEnvSchema = z.object({
  PORT: positiveInt(65_535).default(3000),
  DATA_DIR: z.string().min(1).default(".data"),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" }).optional(),
  FINANCING_API_BASE_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    // The key goes in FINANCING_API_KEY; a secret here would be printed with the URL (start-up
    // problems name it) and sent where the key is not. Refused without echoing it.
    .refine((url) => {
      const parsed = URL.parse(url);
      return !parsed || (parsed.username === "" && parsed.password === "" && parsed.search === "" && parsed.hash === "");
    }, "must not carry a user name, password, query or fragment")
    .optional(),
  FINANCING_API_KEY: z.string().min(1).optional(),
  FINANCING_API_ENVIRONMENT: z.enum(["sandbox", "production"], { error: "must be sandbox or production" }).optional(),
  FINANCING_AGENCY_ID: positiveInt(Number.MAX_SAFE_INTEGER).optional(),
  FINANCING_KEY_AGENCY_ID: positiveInt(Number.MAX_SAFE_INTEGER).optional(),
  FINANCING_API_KEY_HEADER: headerName.default("X-Service-API-Key"),
  FINANCING_AGENCY_HEADER: headerName.default("X-Service-Agency"),
  FINANCING_TIMEOUT_MS: positiveInt(120_000).default(10_000),
  FINANCING_MAX_ATTEMPTS: positiveInt(3).default(3),
  // Files of PEM certificates, read and checked below (lib/config/pem-files.ts).
  FINANCING_API_CA_FILE: z.string().optional(),
  NOTIFICATION_CA_FILE: z.string().optional(),
  // Parsed below (lib/config/allow-list.ts), naming the entry it cannot read.
  NOTIFICATION_PRIVATE_HOSTS: z.string().optional(),
  // No default here: unset, it follows the API's environment (parseEnv).
  SANDBOX_ENABLED: booleanFlag.optional(),
  PAGE_PRELOAD: booleanFlag.optional(),
  BADGE_UPSTREAM_PER_MINUTE_PARTNER: positiveInt(100_000).default(60),
  BADGE_UPSTREAM_PER_MINUTE_IP: positiveInt(100_000).default(20),
  SESSIONS_API_CREATE_PER_MINUTE_PARTNER: positiveInt(100_000).default(60),
  SESSIONS_API_CREATE_PER_MINUTE_IP: positiveInt(100_000).default(60),
  SESSIONS_API_WRONG_SECRETS_PER_MINUTE_IP: positiveInt(100_000).default(10),
  SESSIONS_API_READS_PER_MINUTE_PARTNER: positiveInt(100_000).default(600),
  SESSIONS_API_ACTIONS_PER_MINUTE_PARTNER: positiveInt(100_000).default(60),
  CUSTOMER_DATA_RETENTION_MAX_DAYS: positiveInt(36_500).default(365),
  STATUS_READS_PER_MINUTE_SESSION: positiveInt(100_000).default(40),
  STATUS_READS_PER_MINUTE_IP: positiveInt(100_000).default(240),
  DEMO_SHOP_CHECKOUTS_PER_MINUTE_IP: positiveInt(100_000).default(10),
  DEMO_SHOP_CHECKOUTS_PER_MINUTE: positiveInt(100_000).default(60),
  APP_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
    // The app serves from its root: a path, query or fragment here ended up in the middle of every
    // URL built on it (the webhook URL became https://host/?x=1#f/api/webhooks/…, never reached).
    .refine((url) => {
      const parsed = URL.parse(url);
      return (
        !parsed ||
        (parsed.username === "" && parsed.password === "" && /^\/?$/.test(parsed.pathname) && parsed.search === "" && parsed.hash === "")
      );
    }, "must be an origin only, e.g. https://pay.agency.example (no path, query, fragment or credentials)")
    .optional(),
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
  // Parsed below (lib/security/secrets/secret-box.ts), where its messages never echo a key.
  SECRETS_KEYS: z.string().optional(),
  METRICS_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9._~+/=-]{24,256}$/, "must be 24 to 256 letters, digits or -._~+/=")
    .optional(),
  SHUTDOWN_GRACE_MS: positiveInt(120_000).default(10_000),
  // 10 s: a balancer probing readiness every 5 s takes an instance out after two failed probes; the
  // whole stop (delay, grace, 5 s for requests) stays under Kubernetes's default 30 s before SIGKILL.
  SHUTDOWN_DRAIN_DELAY_MS: envInteger({ min: 0, max: 120_000 }).default(10_000),
  // Read by lib/logger.ts (which falls back to info on a bad value); refused here, naming the variable.
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(", ")}` }).optional(),
  // How many proxies in front of the app append to X-Forwarded-For (lib/security/network/client-ip.ts).
  TRUSTED_PROXY_HOPS: envInteger({ min: 0, max: 10 }).default(0),
  // The SMTP server payment links are e-mailed through (nodemailer's URL form); unset: no e-mail.
  // Its password may be in it: the messages below never echo the value.
  SMTP_URL: z.string().refine(isSmtpUrl, "must be an smtp:// or smtps:// URL (smtp://user:password@host:587)").optional(),
  SMTP_FROM: z.email({ error: "must be an e-mail address (payments@agency.example)" }).optional(),
  // OpenTelemetry's standard variables (lib/ops/tracing.ts): either one turns traces on. The SDK
  // reads them itself; checked here so that a bad one stops the start, named, instead of every
  // export failing quietly. A collector's credentials go in OTEL_EXPORTER_OTLP_HEADERS, never here.
  OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: otlpEndpoint,
  OTEL_SERVICE_NAME: z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, "must be 1 to 255 printable characters without spaces")
    .default("travel-financing-checkout"),
});

function isSmtpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "smtp:" || url.protocol === "smtps:") && url.hostname !== "";
  } catch {
    return false;
  }
}

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
  /** Whether this app serves the partner API sandbox under /sandbox: on the sandbox only. */
  SANDBOX_ENABLED: boolean;
  /**
   * Whether the offers and status pages' reads start as their request arrives, before Next routes
   * it (lib/checkout/session/page-preload.ts); default on, `false` to measure without.
   */
  PAGE_PRELOAD: boolean;
  /**
   * The keys partners' API keys and signing secrets are sealed with at rest (lib/security/secrets/secrets.ts),
   * the sealing one first. On the sandbox without SECRETS_KEYS, the published sandbox key.
   */
  SECRETS_KEYS: Keyring;
  /** The app's public base URL: return and webhook URLs given to the partner API start with it. */
  APP_URL: string;
  /** The secret path segment of our webhook URL. */
  WEBHOOK_TOKEN: string;
  /** The seeded demo partner's secret (sandbox only); undefined: no demo partner. */
  DEMO_PARTNER_SECRET: string | undefined;
  /** The bearer token `/api/metrics` asks for; undefined: the metrics are not served (404). */
  METRICS_TOKEN: string | undefined;
  /** On SIGTERM, how long the work under way may take (after the drain delay) before what is left is handed back. */
  SHUTDOWN_GRACE_MS: number;
  /** On SIGTERM, how long requests go on being served, readiness failing, before the listener closes. */
  SHUTDOWN_DRAIN_DELAY_MS: number;
  /** More origins the demo partners may frame the checkout from and return to (tests' partner pages). */
  DEMO_PARTNER_EXTRA_ORIGINS: string[];
  /**
   * The badge's budget of partner API calls (cache misses), as token buckets: per partner and per
   * client IP, each this many a minute with a burst of as many.
   */
  badgeBudget: { perPartnerPerMinute: number; perIpPerMinute: number };
  /**
   * The checkout sessions API's throttles, as token buckets (a burst of as many as a minute's):
   * sessions opened per partner and per client IP, and wrong (or missing) secrets per client IP.
   */
  sessionsApiBudget: {
    createPerPartnerPerMinute: number;
    createPerIpPerMinute: number;
    wrongSecretsPerIpPerMinute: number;
    readsPerPartnerPerMinute: number;
    /** Cancels and refunds asked a minute per partner: each is a call to the partner API. */
    actionsPerPartnerPerMinute: number;
  };
  /** The checkout's status polls and provider returns, per session and per client IP (token buckets). */
  statusBudget: { perSessionPerMinute: number; perIpPerMinute: number };
  /** The demo shop's checkouts, per client address and per instance (lib/demo/shop-budget.ts). */
  demoShopBudget: { perAddressPerMinute: number; perMinute: number };
  /** Proxies in front of the app that append the client's address to X-Forwarded-For; 0: none (the socket's address). */
  TRUSTED_PROXY_HOPS: number;
  /** The longest retention period of customers' data an operator may set for a partner, in days (lib/checkout/background/retention.ts). */
  customerDataRetentionMaxDays: number;
  /**
   * Where payment link e-mails go out (lib/mail/mailer.ts): the SMTP URL and the From address
   * (SMTP_FROM, else no-reply at APP_URL's host). Undefined: no e-mail, the link is copied or scanned.
   */
  smtp: { url: string; from: string } | undefined;
  /**
   * Traces (lib/ops/tracing.ts): on when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or
   * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, which the SDK reads itself); undefined: off.
   */
  tracing: { serviceName: string } | undefined;
  /** How partners' notification endpoints are reached (lib/checkout/background/notification-send.ts). */
  notifications: {
    /**
     * More CAs to trust, beside the public ones, for partners' endpoints (NOTIFICATION_CA_FILE: a
     * private CA on a partner's network); undefined: the public CAs only.
     */
    caCertificates: readonly string[] | undefined;
    /** Private hosts, addresses and ranges partners' endpoints may be on (NOTIFICATION_PRIVATE_HOSTS); empty by default. */
    privateHosts: AllowList;
  };
  financing: {
    baseUrl: string;
    apiKey: string;
    environment: FinancingEnvironment;
    /** Set for a management group key: the agency every call (but GET /agencies) acts for. */
    agencyId: number | undefined;
    /**
     * With an agency key (no agencyId): the id of the key's own agency, which no call names. Only
     * the back-office's ownership rule reads it (lib/backoffice/operations/ownership.ts).
     */
    keyAgencyId?: number | undefined;
    apiKeyHeader: string;
    agencyHeader: string;
    timeoutMs: number;
    maxAttempts: number;
    /**
     * More CAs to trust, beside the public ones, for the partner API (FINANCING_API_CA_FILE: an API
     * behind a private CA); undefined: the public CAs only.
     */
    caCertificates?: readonly string[] | undefined;
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: { variable: string; message: string }[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p.variable}: ${p.message}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** Whether a URL names this machine only (localhost or a loopback address): reached from nowhere else. */
export function isLoopbackUrl(value: string): boolean {
  const host = new URL(value).hostname.toLowerCase();
  return LOOPBACK_HOSTS.has(host) || host.startsWith("127.");
}

/**
 * The spec says sandbox and production differ only in host. We can't know the real hosts, so a
 * base URL is the sandbox when it is on this machine (the bundled sandbox) or names "sandbox" in a
 * host label or a path segment; anything else is production. FINANCING_API_ENVIRONMENT overrides.
 */
export function environmentOfBaseUrl(baseUrl: string): FinancingEnvironment {
  if (isLoopbackUrl(baseUrl)) return "sandbox";
  const url = new URL(baseUrl);
  const host = url.hostname.toLowerCase();
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

  // The sandbox is a test double that POSTs to any URL, redirects anywhere from our origin and
  // holds operations in memory, under published keys: never beside the production API.
  const sandboxEnabled = raw.SANDBOX_ENABLED ?? environment === "sandbox";
  if (raw.SANDBOX_ENABLED === true && (environment === "production" || apiKey?.startsWith(PRODUCTION_KEY_PREFIX))) {
    problems.push({
      variable: "SANDBOX_ENABLED",
      message: "the sandbox cannot be served with the production partner API (leave SANDBOX_ENABLED unset or set it to false)",
    });
  }

  // The webhook URL given to the partner API carries WEBHOOK_TOKEN, and the staff cookie is only
  // Secure over https: in production, plain http is for this machine alone (a local trial, tests).
  if (environment === "production" && raw.APP_URL !== undefined) {
    if (new URL(raw.APP_URL).protocol !== "https:" && !isLoopbackUrl(raw.APP_URL)) {
      problems.push({ variable: "APP_URL", message: "must be https with the production partner API (the webhook URL carries its token)" });
    }
  }

  // The demo partner's secret is published with the demo: in production it would open real sessions.
  if (environment === "production" && raw.DEMO_PARTNER_SECRET !== undefined) {
    problems.push({
      variable: "DEMO_PARTNER_SECRET",
      message: "there is no demo partner with the production partner API: unset it",
    });
  }

  let secretsKeys: Keyring | undefined;
  if (raw.SECRETS_KEYS !== undefined) {
    try {
      secretsKeys = parseKeyring(raw.SECRETS_KEYS);
    } catch (error) {
      if (!(error instanceof KeyringError)) throw error;
      problems.push({ variable: "SECRETS_KEYS", message: error.message });
    }
  } else if (environment === "production") {
    problems.push({
      variable: "SECRETS_KEYS",
      message:
        "is required with the production partner API: partners' keys and secrets are encrypted with it (<id>:<openssl rand -base64 32>)",
    });
  } else {
    secretsKeys = sandboxKeyring();
  }
  if (environment === "production" && secretsKeys?.[0].key.equals(Buffer.from(SANDBOX_SECRETS_KEY_BASE64, "base64"))) {
    problems.push({
      variable: "SECRETS_KEYS",
      message: "its first key is the published sandbox key: generate one (openssl rand -base64 32)",
    });
  }

  const certificatesOf = (variable: string, file: string | undefined): readonly string[] | undefined => {
    if (file === undefined) return undefined;
    try {
      return readCertificates(file);
    } catch (error) {
      if (!(error instanceof PemFileError)) throw error;
      problems.push({ variable, message: error.message });
      return undefined;
    }
  };
  const financingCa = certificatesOf("FINANCING_API_CA_FILE", raw.FINANCING_API_CA_FILE);
  const notificationCa = certificatesOf("NOTIFICATION_CA_FILE", raw.NOTIFICATION_CA_FILE);
  let privateHosts = emptyAllowList();
  if (raw.NOTIFICATION_PRIVATE_HOSTS !== undefined) {
    const parsedHosts = parseAllowList(raw.NOTIFICATION_PRIVATE_HOSTS);
    if (parsedHosts.ok) privateHosts = parsedHosts.list;
    else {
      problems.push({
        variable: "NOTIFICATION_PRIVATE_HOSTS",
        message: `cannot read ${JSON.stringify(parsedHosts.entry)}: use host names, IP addresses or CIDR ranges separated by commas`,
      });
    }
  }

  if (problems.length > 0 || apiKey === undefined || secretsKeys === undefined) throw new ConfigError(problems);

  return {
    PORT: raw.PORT,
    DATA_DIR: raw.DATA_DIR,
    DATABASE_URL: raw.DATABASE_URL,
    SANDBOX_ENABLED: sandboxEnabled,
    PAGE_PRELOAD: raw.PAGE_PRELOAD ?? true,
    SECRETS_KEYS: secretsKeys,
    APP_URL: (raw.APP_URL ?? `http://localhost:${raw.PORT}`).replace(/\/+$/, ""),
    // Derived from the API key when not set: stable across instances and restarts, and as hard to
    // guess as the key itself, so a deployment needs no extra setting.
    WEBHOOK_TOKEN: raw.WEBHOOK_TOKEN ?? createHash("sha256").update(`webhook-token:${apiKey}`).digest("base64url").slice(0, 32),
    DEMO_PARTNER_SECRET: environment === "sandbox" ? (raw.DEMO_PARTNER_SECRET ?? DEMO_PARTNER_DEFAULT_SECRET) : undefined,
    DEMO_PARTNER_EXTRA_ORIGINS: raw.DEMO_PARTNER_EXTRA_ORIGINS ?? [],
    badgeBudget: { perPartnerPerMinute: raw.BADGE_UPSTREAM_PER_MINUTE_PARTNER, perIpPerMinute: raw.BADGE_UPSTREAM_PER_MINUTE_IP },
    sessionsApiBudget: {
      createPerPartnerPerMinute: raw.SESSIONS_API_CREATE_PER_MINUTE_PARTNER,
      createPerIpPerMinute: raw.SESSIONS_API_CREATE_PER_MINUTE_IP,
      wrongSecretsPerIpPerMinute: raw.SESSIONS_API_WRONG_SECRETS_PER_MINUTE_IP,
      readsPerPartnerPerMinute: raw.SESSIONS_API_READS_PER_MINUTE_PARTNER,
      actionsPerPartnerPerMinute: raw.SESSIONS_API_ACTIONS_PER_MINUTE_PARTNER,
    },
    statusBudget: { perSessionPerMinute: raw.STATUS_READS_PER_MINUTE_SESSION, perIpPerMinute: raw.STATUS_READS_PER_MINUTE_IP },
    demoShopBudget: { perAddressPerMinute: raw.DEMO_SHOP_CHECKOUTS_PER_MINUTE_IP, perMinute: raw.DEMO_SHOP_CHECKOUTS_PER_MINUTE },
    METRICS_TOKEN: raw.METRICS_TOKEN,
    SHUTDOWN_GRACE_MS: raw.SHUTDOWN_GRACE_MS,
    SHUTDOWN_DRAIN_DELAY_MS: raw.SHUTDOWN_DRAIN_DELAY_MS,
    TRUSTED_PROXY_HOPS: raw.TRUSTED_PROXY_HOPS,
    customerDataRetentionMaxDays: raw.CUSTOMER_DATA_RETENTION_MAX_DAYS,
    smtp: raw.SMTP_URL
      ? { url: raw.SMTP_URL, from: raw.SMTP_FROM ?? `no-reply@${new URL(raw.APP_URL ?? "http://localhost").hostname}` }
      : undefined,
    notifications: { caCertificates: notificationCa, privateHosts },
    tracing:
      raw.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || raw.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined
        ? { serviceName: raw.OTEL_SERVICE_NAME }
        : undefined,
    financing: {
      baseUrl,
      apiKey,
      environment,
      agencyId: raw.FINANCING_AGENCY_ID,
      keyAgencyId: raw.FINANCING_KEY_AGENCY_ID,
      apiKeyHeader: raw.FINANCING_API_KEY_HEADER,
      agencyHeader: raw.FINANCING_AGENCY_HEADER,
      timeoutMs: raw.FINANCING_TIMEOUT_MS,
      maxAttempts: raw.FINANCING_MAX_ATTEMPTS,
      caCertificates: financingCa,
    },
  };
}

let cached: AppEnv | undefined;

/** The validated configuration of this process, parsed on first use and kept. */
export function getEnv(): AppEnv {
  cached ??= parseEnv(process.env);
  return cached;
}
