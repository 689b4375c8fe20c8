import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTestCa } from "@/e2e/support/test-ca";
import { ConfigError, environmentOfBaseUrl, parseEnv, SANDBOX_DEFAULT_API_KEY } from "./env";
import { SANDBOX_SECRETS_KEY_BASE64, SANDBOX_SECRETS_KEY_ID } from "@/lib/config/keyring";

const KEY_1 = Buffer.alloc(32, 1).toString("base64");
const KEY_2 = Buffer.alloc(32, 2).toString("base64");
const KEYS = `k2:${KEY_2},k1:${KEY_1}`;
/** A production configuration that starts. */
const PRODUCTION = { FINANCING_API_BASE_URL: "https://api.financing.example/v1", FINANCING_API_KEY: "fk_live_abc123", SECRETS_KEYS: KEYS };

function refusal(source: Record<string, string>): ConfigError {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected the configuration to be refused");
}

describe("parseEnv", () => {
  it("runs with no configuration against the bundled sandbox", () => {
    const env = parseEnv({});
    expect(env.financing).toEqual({
      baseUrl: "http://localhost:3000/sandbox/v1",
      apiKey: SANDBOX_DEFAULT_API_KEY,
      environment: "sandbox",
      agencyId: undefined,
      apiKeyHeader: "X-Service-API-Key",
      agencyHeader: "X-Service-Agency",
      timeoutMs: 10_000,
      maxAttempts: 3,
    });
    expect(env.DATA_DIR).toBe(".data");
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SANDBOX_ENABLED).toBe(true);
  });

  it("turns the sandbox off with SANDBOX_ENABLED=false and names a bad value", () => {
    expect(parseEnv({ SANDBOX_ENABLED: "false" }).SANDBOX_ENABLED).toBe(false);
    expect(refusal({ SANDBOX_ENABLED: "maybe" }).problems).toEqual([{ variable: "SANDBOX_ENABLED", message: "must be true or false" }]);
  });

  it("follows PORT for the default sandbox URL and treats empty values as unset", () => {
    const env = parseEnv({ PORT: "3100", FINANCING_API_KEY: "", DATABASE_URL: "" });
    expect(env.financing.baseUrl).toBe("http://localhost:3100/sandbox/v1");
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it("takes a production setup with a group key, custom header names and timeouts", () => {
    const env = parseEnv({
      FINANCING_API_BASE_URL: "https://api.financer.example/v1/",
      FINANCING_API_KEY: "fk_live_abc",
      FINANCING_AGENCY_ID: "102",
      FINANCING_API_KEY_HEADER: "X-Maker-API-Key",
      FINANCING_AGENCY_HEADER: "X-Maker-Agency",
      FINANCING_TIMEOUT_MS: "2500",
      FINANCING_MAX_ATTEMPTS: "2",
      DATABASE_URL: "postgres://u@db:5432/app",
      SECRETS_KEYS: KEYS,
    });
    expect(env.financing).toMatchObject({
      baseUrl: "https://api.financer.example/v1",
      environment: "production",
      agencyId: 102,
      apiKeyHeader: "X-Maker-API-Key",
      agencyHeader: "X-Maker-Agency",
      timeoutMs: 2500,
      maxAttempts: 2,
    });
    expect(env.DATABASE_URL).toBe("postgres://u@db:5432/app");
  });

  it("refuses a live key with a sandbox base URL, without echoing the key", () => {
    const error = refusal({ FINANCING_API_KEY: "fk_live_secret123" });
    expect(error.problems).toEqual([{ variable: "FINANCING_API_KEY", message: expect.stringContaining("production key") }]);
    expect(error.message).toContain("FINANCING_API_KEY");
    expect(error.message).not.toContain("secret123");
  });

  it("refuses a test key with a production base URL", () => {
    const error = refusal({ FINANCING_API_BASE_URL: "https://api.financer.example/v1", FINANCING_API_KEY: "fk_test_x" });
    expect(error.message).toMatch(/FINANCING_API_KEY: a sandbox key .* production base URL/);
  });

  it("refuses a base URL carrying credentials, a query or a fragment, without echoing them", () => {
    for (const url of [
      "http://apiuser:basicpassleak@localhost:3399/sandbox/v1",
      "https://api.financer.example/v1?apikey=urlkeyleak",
      "https://api.financer.example/v1#urlkeyleak",
    ]) {
      const error = refusal({ FINANCING_API_BASE_URL: url, FINANCING_API_KEY: "fk_live_x" });
      expect(error.problems, url).toEqual([
        { variable: "FINANCING_API_BASE_URL", message: "must not carry a user name, password, query or fragment" },
      ]);
      expect(error.message).not.toMatch(/leak/);
    }
  });

  it("takes APP_URL as an origin only, and over https in production but on this machine", () => {
    for (const url of [
      "https://pay.agency.example/shop/",
      "https://pay.agency.example/?x=1",
      "https://pay.agency.example/#f",
      "https://u:p@pay.agency.example",
    ]) {
      expect(refusal({ APP_URL: url }).problems, url).toEqual([
        { variable: "APP_URL", message: expect.stringContaining("must be an origin only") },
      ]);
    }
    expect(parseEnv({ APP_URL: "https://pay.agency.example/" }).APP_URL).toBe("https://pay.agency.example");
    expect(refusal({ ...PRODUCTION, APP_URL: "http://pay.agency.example" }).problems).toEqual([
      { variable: "APP_URL", message: expect.stringContaining("must be https with the production partner API") },
    ]);
    expect(parseEnv({ ...PRODUCTION, APP_URL: "https://pay.agency.example" }).APP_URL).toBe("https://pay.agency.example");
    // A local trial of the production configuration (the browser tests' own): loopback over http.
    expect(parseEnv({ ...PRODUCTION, APP_URL: "http://localhost:3000" }).APP_URL).toBe("http://localhost:3000");
    expect(parseEnv({ ...PRODUCTION, APP_URL: "http://127.0.0.1:3000" }).APP_URL).toBe("http://127.0.0.1:3000");
  });

  it("refuses a key of neither prefix", () => {
    const error = refusal({ FINANCING_API_KEY: "sk_whatever" });
    expect(error.message).toMatch(/FINANCING_API_KEY: is not a partner API key/);
    expect(error.message).not.toContain("sk_whatever");
  });

  it("requires a key when the base URL is changed", () => {
    expect(refusal({ FINANCING_API_BASE_URL: "https://sandbox.financer.example/v1" }).message).toMatch(/FINANCING_API_KEY: is required/);
  });

  it("refuses plain http to production", () => {
    expect(refusal({ FINANCING_API_BASE_URL: "http://api.financer.example/v1", FINANCING_API_KEY: "fk_live_x" }).message).toMatch(
      /FINANCING_API_BASE_URL: .*https/,
    );
  });

  it("names each malformed variable", () => {
    const error = refusal({
      FINANCING_API_BASE_URL: "not a url",
      FINANCING_TIMEOUT_MS: "soon",
      FINANCING_MAX_ATTEMPTS: "5",
      FINANCING_AGENCY_ID: "-1",
      FINANCING_API_KEY_HEADER: "Bad Header",
      DATABASE_URL: "mysql://x",
    });
    expect(error.problems.map((p) => p.variable).sort()).toEqual([
      "DATABASE_URL",
      "FINANCING_AGENCY_ID",
      "FINANCING_API_BASE_URL",
      "FINANCING_API_KEY_HEADER",
      "FINANCING_MAX_ATTEMPTS",
      "FINANCING_TIMEOUT_MS",
    ]);
  });

  const NUMERIC = [
    "PORT",
    "FINANCING_AGENCY_ID",
    "FINANCING_KEY_AGENCY_ID",
    "FINANCING_TIMEOUT_MS",
    "FINANCING_MAX_ATTEMPTS",
    "BADGE_UPSTREAM_PER_MINUTE_PARTNER",
    "BADGE_UPSTREAM_PER_MINUTE_IP",
    "SHUTDOWN_GRACE_MS",
    "SHUTDOWN_DRAIN_DELAY_MS",
    "TRUSTED_PROXY_HOPS",
  ] as const;

  it.each(NUMERIC)("refuses %s blank, whitespace-only or not in digits, naming it; empty is unset", (variable) => {
    for (const value of [" ", "\t", "  \n", "abc", "0x2", "1e1", " 2 ", "2.0"]) {
      expect(refusal({ [variable]: value }).problems, JSON.stringify(value)).toEqual([
        { variable, message: "must be a whole number, in digits" },
      ]);
    }
    expect(() => parseEnv({ [variable]: "" })).not.toThrow();
  });

  it("reads TRUSTED_PROXY_HOPS as written, 0 when unset or empty, and refuses it out of range", () => {
    expect(parseEnv({}).TRUSTED_PROXY_HOPS).toBe(0);
    expect(parseEnv({ TRUSTED_PROXY_HOPS: "" }).TRUSTED_PROXY_HOPS).toBe(0);
    expect(parseEnv({ TRUSTED_PROXY_HOPS: "2" }).TRUSTED_PROXY_HOPS).toBe(2);
    expect(refusal({ TRUSTED_PROXY_HOPS: "11" }).problems).toEqual([{ variable: "TRUSTED_PROXY_HOPS", message: "must be 10 or less" }]);
    expect(refusal({ TRUSTED_PROXY_HOPS: "-1" }).problems).toEqual([{ variable: "TRUSTED_PROXY_HOPS", message: "must be 0 or more" }]);
  });

  it("takes SHUTDOWN_DRAIN_DELAY_MS (10 s by default, 0 for none) and names a bad value", () => {
    expect(parseEnv({}).SHUTDOWN_DRAIN_DELAY_MS).toBe(10_000);
    expect(parseEnv({ SHUTDOWN_DRAIN_DELAY_MS: "0" }).SHUTDOWN_DRAIN_DELAY_MS).toBe(0);
    for (const bad of ["-1", "soon", "1.5", "600000"]) {
      expect(refusal({ SHUTDOWN_DRAIN_DELAY_MS: bad }).problems.map((p) => p.variable)).toEqual(["SHUTDOWN_DRAIN_DELAY_MS"]);
    }
  });

  it("lets FINANCING_API_ENVIRONMENT settle a host the heuristic gets wrong", () => {
    const env = parseEnv({
      FINANCING_API_BASE_URL: "https://staging.financer.example/v1",
      FINANCING_API_KEY: "fk_test_x",
      FINANCING_API_ENVIRONMENT: "sandbox",
    });
    expect(env.financing.environment).toBe("sandbox");
  });
});

describe("DEMO_PARTNER_EXTRA_ORIGINS", () => {
  it("lists more origins for the demo partners, and names a value that is not one", () => {
    expect(parseEnv({}).DEMO_PARTNER_EXTRA_ORIGINS).toEqual([]);
    expect(parseEnv({ DEMO_PARTNER_EXTRA_ORIGINS: "http://127.0.0.1:3111, https://agency.example" }).DEMO_PARTNER_EXTRA_ORIGINS).toEqual([
      "http://127.0.0.1:3111",
      "https://agency.example",
    ]);
    expect(refusal({ DEMO_PARTNER_EXTRA_ORIGINS: "https://agency.example/shop" }).problems).toEqual([
      { variable: "DEMO_PARTNER_EXTRA_ORIGINS", message: "must be origins like https://agency.example, separated by commas" },
    ]);
  });
});

describe("environmentOfBaseUrl", () => {
  it.each([
    ["http://localhost:3000/sandbox/v1", "sandbox"],
    ["http://127.0.0.1:4010/v1", "sandbox"],
    ["https://sandbox.financer.example/v1", "sandbox"],
    ["https://api-sandbox.financer.example/v1", "sandbox"],
    ["https://api.financer.example/sandbox/v1", "sandbox"],
    ["https://api.financer.example/v1", "production"],
    ["https://sandboxed-not.financer.example/v1", "production"],
  ])("%s is %s", (url, expected) => {
    expect(environmentOfBaseUrl(url)).toBe(expected);
  });
});

describe("production-safe by construction", () => {
  it("serves the sandbox by default on the sandbox only", () => {
    expect(parseEnv({}).SANDBOX_ENABLED).toBe(true);
    expect(parseEnv(PRODUCTION).SANDBOX_ENABLED).toBe(false);
    expect(parseEnv({ ...PRODUCTION, SANDBOX_ENABLED: "false" }).SANDBOX_ENABLED).toBe(false);
  });

  it("refuses SANDBOX_ENABLED=true with a production base URL, naming SANDBOX_ENABLED", () => {
    const error = refusal({ ...PRODUCTION, SANDBOX_ENABLED: "true" });
    expect(error.problems.map((p) => p.variable)).toEqual(["SANDBOX_ENABLED"]);
    expect(error.message).toMatch(/SANDBOX_ENABLED: the sandbox cannot be served with the production partner API/);
  });

  it("refuses SANDBOX_ENABLED=true with a production environment or a fk_live_ key", () => {
    const named = refusal({
      FINANCING_API_BASE_URL: "https://sandbox.financing.example/v1",
      FINANCING_API_ENVIRONMENT: "production",
      FINANCING_API_KEY: "fk_live_abc123",
      SECRETS_KEYS: KEYS,
      SANDBOX_ENABLED: "yes",
    });
    expect(named.problems.map((p) => p.variable)).toEqual(["SANDBOX_ENABLED"]);
    // A live key on the sandbox URL is refused for itself; SANDBOX_ENABLED is named too.
    const live = refusal({ FINANCING_API_KEY: "fk_live_abc123", SANDBOX_ENABLED: "true" });
    expect(live.problems.map((p) => p.variable).sort()).toEqual(["FINANCING_API_KEY", "SANDBOX_ENABLED"]);
    expect(live.message).not.toContain("abc123");
  });

  it("refuses DEMO_PARTNER_SECRET in production, naming it without echoing it, and has no demo secret there", () => {
    const error = refusal({ ...PRODUCTION, DEMO_PARTNER_SECRET: "a-published-demo-secret" });
    expect(error.problems.map((p) => p.variable)).toEqual(["DEMO_PARTNER_SECRET"]);
    expect(error.message).not.toContain("a-published-demo-secret");
    expect(parseEnv(PRODUCTION).DEMO_PARTNER_SECRET).toBeUndefined();
    expect(parseEnv({}).DEMO_PARTNER_SECRET).toBe("demo_partner_secret_sandbox_only");
  });

  it("requires SECRETS_KEYS in production, naming it", () => {
    const error = refusal({ FINANCING_API_BASE_URL: PRODUCTION.FINANCING_API_BASE_URL, FINANCING_API_KEY: PRODUCTION.FINANCING_API_KEY });
    expect(error.problems.map((p) => p.variable)).toEqual(["SECRETS_KEYS"]);
    expect(error.message).toMatch(/SECRETS_KEYS: is required with the production partner API/);
  });

  it("reads SECRETS_KEYS as a keyring, the first key sealing, and uses the published sandbox key on the sandbox only", () => {
    const keys = parseEnv(PRODUCTION).SECRETS_KEYS;
    expect(keys.map((k) => k.id)).toEqual(["k2", "k1"]);
    expect(keys[0].key.equals(Buffer.alloc(32, 2))).toBe(true);
    const sandbox = parseEnv({}).SECRETS_KEYS;
    expect(sandbox.map((k) => k.id)).toEqual([SANDBOX_SECRETS_KEY_ID]);
    expect(sandbox[0].key.toString("base64")).toBe(SANDBOX_SECRETS_KEY_BASE64);
  });

  it("refuses the published sandbox key as production's sealing key, naming SECRETS_KEYS without echoing it", () => {
    const error = refusal({ ...PRODUCTION, SECRETS_KEYS: `dev:${SANDBOX_SECRETS_KEY_BASE64}` });
    expect(error.problems.map((p) => p.variable)).toEqual(["SECRETS_KEYS"]);
    expect(error.message).not.toContain(SANDBOX_SECRETS_KEY_BASE64);
    // As an older key, kept to open what it sealed on the way to production, it is accepted.
    expect(parseEnv({ ...PRODUCTION, SECRETS_KEYS: `k1:${KEY_1},sandbox:${SANDBOX_SECRETS_KEY_BASE64}` }).SECRETS_KEYS).toHaveLength(2);
  });

  it.each([
    ["k1", "no colon"],
    ["k1:c2hvcnQ=", "a short key"],
    [`k 1:${KEY_1}`, "a bad id"],
    [`k1:${KEY_1},k1:${KEY_2}`, "an id twice"],
    [`k1:${KEY_1.slice(0, -2)}!=`, "not base64"],
    [",", "no key"],
  ])("names SECRETS_KEYS for %s (%s) and never echoes a key", (value) => {
    const error = refusal({ ...PRODUCTION, SECRETS_KEYS: value });
    expect(error.problems.map((p) => p.variable)).toEqual(["SECRETS_KEYS"]);
    expect(error.message).not.toContain(KEY_1);
    expect(error.message).not.toContain(KEY_2);
    expect(error.message).not.toContain("c2hvcnQ");
  });

  it("takes SMTP_URL and SMTP_FROM for payment link e-mails, and names a bad one without echoing its password", () => {
    expect(parseEnv({}).smtp).toBeUndefined();
    expect(parseEnv({ SMTP_URL: "smtp://127.0.0.1:2525" }).smtp).toEqual({ url: "smtp://127.0.0.1:2525", from: "no-reply@localhost" });
    expect(parseEnv({ SMTP_URL: "smtps://u:p@mail.example:465", SMTP_FROM: "pagos@agency.example" }).smtp?.from).toBe(
      "pagos@agency.example",
    );
    expect(() => parseEnv({ SMTP_URL: "http://user:s3cret-pass@mail.example" })).toThrow(
      /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
    try {
      parseEnv({ SMTP_URL: "http://user:s3cret-pass@mail.example", SMTP_FROM: "nope" });
    } catch (error) {
      expect((error as ConfigError).problems.map((p) => p.variable).sort()).toEqual(["SMTP_FROM", "SMTP_URL"]);
      expect((error as Error).message).not.toContain("s3cret-pass");
    }
  });

  it("turns traces on with either OTLP endpoint, and names a bad one without echoing a credential", () => {
    expect(parseEnv({}).tracing).toBeUndefined();
    expect(parseEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://otel-collector:4318" }).tracing).toEqual({
      serviceName: "travel-financing-checkout",
    });
    expect(
      parseEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://collector.example/v1/traces", OTEL_SERVICE_NAME: "checkout-eu" }).tracing,
    ).toEqual({ serviceName: "checkout-eu" });
    expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: "otel-collector:4318" }).problems.map((p) => p.variable)).toEqual([
      "OTEL_EXPORTER_OTLP_ENDPOINT",
    ]);
    const withCredential = refusal({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://user:c0llector-pass@collector.example/v1/traces" });
    expect(withCredential.message).toMatch(/OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: must not carry a user name, password/);
    expect(withCredential.message).not.toContain("c0llector-pass");
  });
});

describe("a private CA and private partner networks", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "env-ca-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const ca = createTestCa("Env test CA");
  const caFile = path.join(dir, "ca.crt");
  writeFileSync(caFile, ca.certificate);
  const keyFile = path.join(dir, "server.key");
  writeFileSync(keyFile, ca.issue(["localhost"]).key);

  it("trusts the public CAs only, and allows no private partner host, by default", () => {
    const env = parseEnv(PRODUCTION);
    expect(env.financing.caCertificates).toBeUndefined();
    expect(env.notifications.caCertificates).toBeUndefined();
    expect(env.notifications.privateHosts.empty).toBe(true);
  });

  it("reads FINANCING_API_CA_FILE and NOTIFICATION_CA_FILE once, as certificates", () => {
    const env = parseEnv({ ...PRODUCTION, FINANCING_API_CA_FILE: caFile, NOTIFICATION_CA_FILE: caFile });
    expect(env.financing.caCertificates).toEqual([ca.certificate.trim()]);
    expect(env.notifications.caCertificates).toEqual([ca.certificate.trim()]);
  });

  it("names a CA file that is missing or holds no certificate, without echoing a key it holds", () => {
    const error = refusal({ ...PRODUCTION, FINANCING_API_CA_FILE: path.join(dir, "missing.crt"), NOTIFICATION_CA_FILE: keyFile });
    expect(error.problems.map((p) => p.variable)).toEqual(["FINANCING_API_CA_FILE", "NOTIFICATION_CA_FILE"]);
    expect(error.message).toContain("ENOENT");
    expect(error.message).not.toContain(readFileSync(keyFile, "utf8").split("\n")[1]);
  });

  it("reads NOTIFICATION_PRIVATE_HOSTS as hosts, addresses and ranges, and names an entry it cannot read", () => {
    const hosts = parseEnv({ ...PRODUCTION, NOTIFICATION_PRIVATE_HOSTS: "hooks.partner.internal, 127.0.0.1 10.0.0.0/8" }).notifications
      .privateHosts;
    expect(hosts.hosts.has("hooks.partner.internal")).toBe(true);
    expect(hosts.addresses.check("10.1.2.3", "ipv4")).toBe(true);
    expect(hosts.addresses.check("127.0.0.1", "ipv4")).toBe(true);
    expect(refusal({ ...PRODUCTION, NOTIFICATION_PRIVATE_HOSTS: "10.0.0.0/33" }).problems).toEqual([
      { variable: "NOTIFICATION_PRIVATE_HOSTS", message: expect.stringContaining('"10.0.0.0/33"') },
    ]);
  });
});
