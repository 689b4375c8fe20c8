import { describe, expect, it } from "vitest";
import { ConfigError, environmentOfBaseUrl, parseEnv, SANDBOX_DEFAULT_API_KEY } from "./env";

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
