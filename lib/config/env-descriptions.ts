import { LOG_LEVELS } from "@/lib/logging/levels";

/**
 * What each variable of the app's environment schema (lib/config/env.ts) is for, written for the operator
 * who sets it. `npm run docs:generate` joins this to the schema itself (names, defaults, what a value
 * must look like) into docs/operators/configuration.md; a unit test fails when a variable of the
 * schema has no entry here, when an entry names no variable, or when the committed page is stale.
 *
 * Markdown; links are relative to docs/operators/.
 */

export const CONFIGURATION_GROUPS = [
  "Server and storage",
  "The financing partner API",
  "Secrets, tokens and the proxy",
  "Partners' notification endpoints",
  "Throttles",
  "Stopping",
  "Traces",
  "E-mail",
  "Sandbox and demo",
] as const;

export type ConfigurationGroup = (typeof CONFIGURATION_GROUPS)[number];

export interface VariableDescription {
  group: ConfigurationGroup;
  description: string;
  /**
   * What applies when the variable is unset, for a variable the schema gives no default (the code
   * decides after parsing). A variable with a schema default must not have one: the schema says it.
   */
  unset?: string;
  /** Never printed by the app; keep it out of version control and shell history. */
  secret?: boolean;
}

export const ENV_DESCRIPTIONS: Record<string, VariableDescription> = {
  PORT: { group: "Server and storage", description: "The port the server listens on, on every interface." },
  DATA_DIR: {
    group: "Server and storage",
    description:
      "Folder of the embedded database (`$DATA_DIR/pglite`), used when `DATABASE_URL` is unset. One process only may open it: a second one refuses to start, naming the folder. A folder the process cannot create or write stops the start with the cause in plain words.",
  },
  DATABASE_URL: {
    group: "Server and storage",
    unset: "the embedded database (PGlite) under `DATA_DIR`, for one process only",
    secret: true,
    description:
      "The PostgreSQL server, as `postgres://user:password@host:5432/database`. Several instances share it; migrations run at start under an advisory lock, so instances may start together. See [the production recipe](production.md).",
  },
  APP_URL: {
    group: "Server and storage",
    unset: "`http://localhost:$PORT`",
    description:
      "The public origin customers and the partner API reach the app at (the proxy's, with several instances): return and webhook URLs are built on it. Origin only, the app serves from its root. With the production partner API it must be `https`, except on this machine (`localhost`, `127.x`).",
  },
  LOG_LEVEL: {
    group: "Server and storage",
    unset: "`info`",
    description: `One of ${LOG_LEVELS.map((level) => `\`${level}\``).join(", ")}. Logs go to standard output, as JSON lines in production, and never hold personal data or secrets; \`debug\` adds one line per partner API call.`,
  },
  PAGE_PRELOAD: {
    group: "Server and storage",
    unset: "`true`",
    description:
      "Whether the offers and status pages start reading the session and the partner API as their request arrives, before the framework routes it. `false` only to measure without it.",
  },
  FINANCING_API_BASE_URL: {
    group: "The financing partner API",
    unset: "the bundled sandbox, `http://localhost:$PORT/sandbox/v1`",
    description:
      "The partner API's base URL, version segment included. A host on this machine, or a host label or path segment `sandbox`, is the sandbox; anything else is production (see `FINANCING_API_ENVIRONMENT`). The production API is reached over `https` only.",
  },
  FINANCING_API_KEY: {
    group: "The financing partner API",
    unset: "the sandbox's agency key when `FINANCING_API_BASE_URL` is unset; required otherwise",
    secret: true,
    description:
      "The deployment's partner API key, used for partners that have no key of their own and for readiness. `fk_test_…` keys go with a sandbox URL only, `fk_live_…` keys with production only: any other pairing stops the start.",
  },
  FINANCING_API_ENVIRONMENT: {
    group: "The financing partner API",
    unset: "derived from `FINANCING_API_BASE_URL`",
    description: "Says which API the base URL is, for a host the rule above reads wrong.",
  },
  FINANCING_AGENCY_ID: {
    group: "The financing partner API",
    unset: "the key is an agency key",
    description: "For a management group key: the agency sent in the agency header on every call but `GET /agencies`.",
  },
  FINANCING_KEY_AGENCY_ID: {
    group: "The financing partner API",
    unset: "for a sandbox key, the number in its name (`fk_test_sandbox_agency_101`: 101)",
    description:
      "With an agency key: the id of the key's own agency (no call names it), for the back-office's rule on whose operations staff see.",
  },
  FINANCING_API_KEY_HEADER: { group: "The financing partner API", description: "The name of the header the key is sent in." },
  FINANCING_AGENCY_HEADER: { group: "The financing partner API", description: "The name of the header the agency is sent in." },
  FINANCING_TIMEOUT_MS: { group: "The financing partner API", description: "How long one attempt of a partner API call may take." },
  FINANCING_MAX_ATTEMPTS: { group: "The financing partner API", description: "Attempts of a call that is safe to repeat." },
  FINANCING_API_CA_FILE: {
    group: "The financing partner API",
    unset: "the public CAs only",
    description:
      "A PEM file of CA certificates trusted, beside the public ones, for the partner API only: an API behind a private CA. Read and checked at start. See [going live with a private CA](../going-live-tls.md).",
  },
  SECRETS_KEYS: {
    group: "Secrets, tokens and the proxy",
    unset: "required with the production partner API; on the sandbox, a published key that protects nothing",
    secret: true,
    description:
      "The keys partners' API keys and signing secrets are sealed with at rest: `k2:<base64 of 32 bytes>,k1:<…>` (`openssl rand -base64 32`). The first seals, every one opens. To rotate on several instances: list the new key second everywhere, then first, then drop the old one, restarting each time. See [secrets](production.md#secrets).",
  },
  WEBHOOK_TOKEN: {
    group: "Secrets, tokens and the proxy",
    unset: "derived from `FINANCING_API_KEY`, the same on every instance with the same key",
    secret: true,
    description: "The secret path segment of the webhook URL given to the partner API. The same on every instance.",
  },
  METRICS_TOKEN: {
    group: "Secrets, tokens and the proxy",
    unset: "`/api/metrics` answers 404",
    secret: true,
    description: "The bearer token `GET /api/metrics` asks for. See [the metrics](metrics.md).",
  },
  TRUSTED_PROXY_HOPS: {
    group: "Secrets, tokens and the proxy",
    description:
      "How many proxies in front of the app append the client's address to `X-Forwarded-For`. The sign-in limits, the throttles and the audit log take the entry that many places from the right, and `X-Forwarded-Host` is believed only when it is above 0. Set exactly the number of proxies you run: one more, and a client chooses its own address. See [the production recipe](production.md#the-proxy).",
  },
  NOTIFICATION_CA_FILE: {
    group: "Partners' notification endpoints",
    unset: "the public CAs only",
    description: "A PEM file of CA certificates trusted, beside the public ones, for partners' notification endpoints.",
  },
  NOTIFICATION_PRIVATE_HOSTS: {
    group: "Partners' notification endpoints",
    unset: "none: endpoints on private addresses are refused",
    description:
      "Host names, IP addresses or CIDR ranges, separated by commas, that partners' notification endpoints may be on although private. Link-local addresses are never allowed.",
  },
  BADGE_UPSTREAM_PER_MINUTE_PARTNER: {
    group: "Throttles",
    description:
      "The installment badge's partner API calls (cache misses) per partner: a token bucket of this many, refilled at this many a minute, counted by every instance together.",
  },
  BADGE_UPSTREAM_PER_MINUTE_IP: {
    group: "Throttles",
    description: "The same per client address (an IPv6 one by its /64). Over either: `429` with `Retry-After`.",
  },
  SESSIONS_API_CREATE_PER_MINUTE_PARTNER: {
    group: "Throttles",
    description:
      "Checkout sessions opened a minute with one partner's secrets (a burst of as many), counted by every instance together. Over it: `429 rate_limited` with `Retry-After`.",
  },
  SESSIONS_API_CREATE_PER_MINUTE_IP: {
    group: "Throttles",
    description: "The same per client address (an IPv6 one by its /64), counted by every instance together.",
  },
  SESSIONS_API_READS_PER_MINUTE_PARTNER: {
    group: "Throttles",
    description:
      "Checkout session reads a minute with one partner's secrets (a burst of as many), stated in `X-RateLimit-Limit`. Over it: `429 rate_limited` with `Retry-After`.",
  },
  SESSIONS_API_ACTIONS_PER_MINUTE_PARTNER: {
    group: "Throttles",
    description:
      "Cancels, erasures and refunds asked a minute with one partner's secrets (`POST /api/checkout-sessions/{id}/cancel`, `…/erase` and `…/refund`; a burst of as many), stated in `X-RateLimit-Limit`. Over it: `429 rate_limited` with `Retry-After`.",
  },
  CUSTOMER_DATA_RETENTION_MAX_DAYS: {
    group: "Server and storage",
    description:
      "The longest a customer's data may be kept after its session ended (or expired unfinished), in days: the ceiling of the retention period operators set per partner in the operator console (90 days unless set). A partner's period above it is cut to it. Past its period, a session's customer data is erased by the background work and the partner notified ([data protection](data-protection.md#retention)).",
  },
  SESSIONS_API_WRONG_SECRETS_PER_MINUTE_IP: {
    group: "Throttles",
    description:
      "Wrong or missing secrets a minute per client address (an IPv6 one by its /64) on the checkout sessions API, counted by every instance together; past it, every request from that address is `429`.",
  },
  STATUS_READS_PER_MINUTE_SESSION: {
    group: "Throttles",
    description:
      "Status polls and provider returns a minute per checkout session (the page polls every 2.5 s), counted by every instance together.",
  },
  STATUS_READS_PER_MINUTE_IP: {
    group: "Throttles",
    description: "The same per client address (an IPv6 one by its /64), counted by every instance together.",
  },
  DEMO_SHOP_CHECKOUTS_PER_MINUTE_IP: {
    group: "Throttles",
    description:
      "On the sandbox: checkouts the demo shop opens a minute per client address (an IPv6 one by its /64); past it, the shop asks to wait a minute.",
  },
  DEMO_SHOP_CHECKOUTS_PER_MINUTE: { group: "Throttles", description: "The same for the whole instance." },
  SHUTDOWN_DRAIN_DELAY_MS: {
    group: "Stopping",
    description:
      "On SIGTERM, how long the instance goes on serving, readiness answering 503 `draining`, before it stops listening: long enough for the proxy or balancer to take it out. 0 with nothing in front. SIGINT skips it.",
  },
  SHUTDOWN_GRACE_MS: {
    group: "Stopping",
    description:
      "After the drain delay, how long the work under way may take before what is left is handed back to the other instances. A stop takes at most the delay, the grace and 5 s: keep the supervisor's kill timeout above that.",
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    group: "Traces",
    unset: "no traces (unless `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set)",
    description:
      "The OpenTelemetry collector's OTLP/HTTP base URL, e.g. `http://otel-collector:4318`: traces are sent, as JSON, to its `/v1/traces`. Setting it turns tracing on. See [connecting a collector](monitoring.md#traces-connecting-a-collector).",
  },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
    group: "Traces",
    unset: "`OTEL_EXPORTER_OTLP_ENDPOINT` and `/v1/traces`",
    description: "The full URL traces are posted to, when it is not the base URL's `/v1/traces`. Setting it turns tracing on too.",
  },
  OTEL_SERVICE_NAME: {
    group: "Traces",
    description: "The `service.name` the spans carry: the name to look the checkout up by in the tracing tool.",
  },
  SMTP_URL: {
    group: "E-mail",
    unset: "no e-mail: payment links are copied or scanned",
    secret: true,
    description:
      "The SMTP server payment links are e-mailed through: `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://…:465`.",
  },
  SMTP_FROM: {
    group: "E-mail",
    unset: "`no-reply@` and `APP_URL`'s host",
    description: "The From address of those e-mails; the display name is the partner's.",
  },
  SANDBOX_ENABLED: {
    group: "Sandbox and demo",
    unset: "`true` on the sandbox, `false` with the production API",
    description: "Whether the app serves the partner API sandbox under `/sandbox`. `true` with the production API stops the start.",
  },
  DEMO_PARTNER_SECRET: {
    group: "Sandbox and demo",
    unset: "a published secret, on the sandbox only",
    secret: true,
    description: "The demo partner's checkout sessions API secret. Set with the production API, it stops the start.",
  },
  DEMO_PARTNER_EXTRA_ORIGINS: {
    group: "Sandbox and demo",
    unset: "none",
    description:
      "More origins, separated by commas, the demo partners may frame the checkout from and return customers to, beside `APP_URL`'s.",
  },
};

/** Variables the app reads outside its schema (the framework's), documented beside it. */
export const OTHER_VARIABLES: Record<string, { description: string; unset: string; secret?: boolean }> = {
  NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: {
    unset: "a key made by each build",
    secret: true,
    description:
      "The framework's key for the forms' server actions, a base64 AES key (`openssl rand -base64 32`). Set it, the same on every instance, so a form one instance rendered is accepted by another.",
  },
  OTEL_EXPORTER_OTLP_HEADERS: {
    unset: "none",
    secret: true,
    description:
      "Headers sent with every export to the collector, as `name=value` pairs separated by commas (`authorization=Bearer …`): where a collector's credentials go. Read by the OpenTelemetry SDK.",
  },
  OTEL_BSP_SCHEDULE_DELAY: {
    unset: "`5000`",
    description: "How often, in milliseconds, the finished spans are sent to the collector in one batch. Read by the OpenTelemetry SDK.",
  },
};
