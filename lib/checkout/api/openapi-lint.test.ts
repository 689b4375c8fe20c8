/**
 * The checkout sessions API's OpenAPI document, linted by Redocly (`@redocly/openapi-core`, the
 * library under `redocly lint`) as a deployment serves it: the recommended ruleset with every
 * warning an error, and rules of our own saying what the OWASP API Security ruleset already checks
 * with Spectral (openapi-limits.test.ts), so either tool passes the document. Any problem fails.
 */
import { createConfig, lintFromString, type NormalizedProblem, type Oas3Rule, type Plugin } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";
import { buildCheckoutApiDocument } from "./openapi";

/**
 * The OWASP ruleset's response rules, for the answers of `paths` only (the notifications are our
 * requests, answered by partners): every answer readable by this deployment's origin only
 * (api8:2023-define-cors-origin), every 2XX and 4XX stating the budget (api4:2023-rate-limit), and
 * 429 its wait (api4:2023-rate-limit-retry-after).
 */
const responseHeaders: Oas3Rule = () => ({
  Paths: {
    Response: {
      enter(response, { report, location, key }) {
        const status = String(key);
        const names = Object.keys(response.headers ?? {}).map((name) => name.toLowerCase());
        const expected = [
          "access-control-allow-origin",
          ...(/^[24]/.test(status) ? ["x-ratelimit-limit"] : []),
          ...(status === "429" ? ["retry-after"] : []),
        ];
        for (const name of expected.filter((header) => !names.includes(header))) {
          report({ message: `A ${status} answer must state the ${name} header.`, location: location.child("headers").key() });
        }
      },
    },
  },
});

/**
 * The OWASP ruleset's limits on every schema (requests, answers, notifications): a string has a
 * maxLength, an enum or a const (api4:2023-string-limit), an array a maxItems (array-limit), an
 * integer a minimum, a maximum and a format (integer-limit, integer-format).
 */
const schemaLimits: Oas3Rule = () => ({
  Schema: {
    enter(schema, { report, location }) {
      const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
      const constant = "const" in schema ? schema.const : undefined;
      const missing = [
        ...(types.includes("string") && schema.maxLength === undefined && schema.enum === undefined && constant === undefined
          ? ["a string's maxLength (or enum, or const)"]
          : []),
        ...(types.includes("array") && schema.maxItems === undefined ? ["an array's maxItems"] : []),
        ...(types.includes("integer") &&
        ((schema.minimum ?? schema.exclusiveMinimum) === undefined ||
          (schema.maximum ?? schema.exclusiveMaximum) === undefined ||
          schema.format === undefined)
          ? ["an integer's minimum, maximum and format"]
          : []),
      ];
      for (const what of missing) report({ message: `No ${what}.`, location: location.key() });
    },
  },
});

// A plugin given as an object to createConfig names its rules in full, with its id.
const checkout: Plugin = {
  id: "checkout",
  rules: { oas3: { "checkout/response-headers": responseHeaders, "checkout/schema-limits": schemaLimits } },
};

/** The document as a deployment serves it: its own https URL (the default, localhost, is for local use). */
const served = (environment: "production" | "sandbox" = "production") =>
  buildCheckoutApiDocument({ serverUrl: "https://checkout.agency-travel.test/api", environment });

async function lint(document: ReturnType<typeof served>): Promise<NormalizedProblem[]> {
  const config = await createConfig(
    {
      extends: ["recommended-strict"],
      rules: {
        // The API is offered to partners under their contract, not under a licence the document could name.
        "info-license": "off",
        "info-license-strict": "off",
        "checkout/response-headers": "error",
        "checkout/schema-limits": "error",
        // owasp:api8:2023-no-server-http
        "rule/server-https": {
          subject: { type: "Server", property: "url" },
          assertions: { pattern: "/^https:\\/\\//" },
          message: "A server must be https.",
          severity: "error",
        },
        // owasp:api9:2023-inventory-access and inventory-environment
        "rule/server-inventory": {
          subject: { type: "Server" },
          assertions: { required: ["x-internal", "description"] },
          message: "A server says whom it is for (x-internal) and which environment it is.",
          severity: "error",
        },
        "rule/server-environment": {
          subject: { type: "Server", property: "description" },
          assertions: { pattern: "/\\b(production|sandbox|staging|local)\\b/" },
          message: "A server's description names its environment.",
          severity: "error",
        },
        // owasp:api2:2023-no-http-basic and auth-insecure-schemes
        "rule/no-insecure-auth": {
          subject: { type: "SecurityScheme", property: "scheme" },
          assertions: { enum: ["bearer"] },
          message: "Authentication is a bearer secret (not basic, digest, NTLM, OAuth 1).",
          severity: "error",
        },
      },
    },
    { plugins: [checkout] },
  );
  return lintFromString({ source: JSON.stringify(document, null, 2), absoluteRef: "/openapi.json", config });
}

const shown = (problems: NormalizedProblem[]) =>
  problems.map((problem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer ?? "?"}: ${problem.message}`);

describe("Redocly's lint of the OpenAPI document", () => {
  it.each(["production", "sandbox"] as const)("finds nothing in the %s document", async (environment) => {
    expect(shown(await lint(served(environment)))).toEqual([]);
  });

  it("does find what it is there for: a document with those faults fails, naming each", async () => {
    const document = served();
    const post = document.paths["/checkout-sessions"]!.post!;
    // The recommended set's: an operation without a summary, a path ending in a slash.
    delete post.summary;
    document.paths["/checkout-sessions/"] = { get: { ...document.paths["/checkout-sessions/{id}"]!.get!, operationId: "other" } };
    // Ours: a string without a limit, an answer without its budget, a server in clear text.
    delete (document.components.schemas.CheckoutSession!.properties as Record<string, { maxLength?: number }>).bookingReference!.maxLength;
    delete (post.responses as Record<string, { headers: Record<string, unknown> }>)["201"]!.headers["X-RateLimit-Limit"];
    document.servers[0]!.url = "http://checkout.agency-travel.test/api";
    const rules = new Set((await lint(document)).filter((problem) => problem.severity === "error").map((problem) => problem.ruleId));
    for (const rule of [
      "operation-summary",
      "no-path-trailing-slash",
      "checkout/schema-limits",
      "checkout/response-headers",
      "rule/server-https",
    ]) {
      expect(rules, rule).toContain(rule);
    }
  });
});
