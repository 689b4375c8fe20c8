import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/sandbox/openapi";

/**
 * Every call of the financing partner API the QA guide names (`GET /financing/simulate/{totalPrice}`)
 * is one the sandbox serves, with its whole path: a call named without a path segment it needs
 * sends its reader to a 404. Names of path parameters may differ (`{id}`, `{operationIdentifier}`).
 */
const GUIDE = readFileSync(new URL("../../docs/qa/README.md", import.meta.url), "utf8");
const shape = (path: string) => path.replace(/\{[^}]+\}/g, "{}");

describe("the QA guide's partner API calls", () => {
  const served = new Set(
    Object.entries(buildOpenApiDocument().paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${shape(path)}`),
    ),
  );
  const named = [...GUIDE.matchAll(/`(GET|POST|PUT|DELETE|PATCH) (\/[^`\s?]*)[^`]*`/g)]
    .map(([, method, path]) => ({ method: method!, path: path!.replace(/^\/sandbox\/v1(?=\/)/, "") }))
    // The control API, our own API and the document are not the partner API's.
    .filter(({ path }) => !/^\/(sandbox\/|api\/|sandbox$)/.test(path) && path !== "/openapi.json");

  it("are read from the guide", () => {
    expect(named.length).toBeGreaterThan(10);
  });

  it("are each served by the sandbox, with every segment of their path", () => {
    const unknown = named
      .filter(({ method, path }) => !served.has(`${method} ${shape(path)}`))
      .map(({ method, path }) => `${method} ${path}`);
    expect(unknown).toEqual([]);
  });
});
