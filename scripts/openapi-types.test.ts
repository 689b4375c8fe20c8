import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { buildCheckoutApiDocument } from "@/lib/checkout/api/openapi";
import { checkoutApiTypes, TYPES_FILE } from "./openapi-types";

describe("examples/checkout-api.d.ts", () => {
  it("is what openapi-typescript generates from the document (else: npm run openapi:types)", async () => {
    expect(await readFile(TYPES_FILE, "utf8")).toBe(await checkoutApiTypes(buildCheckoutApiDocument()));
  });

  it("changes when the document does (the comparison can fail)", async () => {
    const document = buildCheckoutApiDocument();
    document.paths["/checkout-sessions/{id}"]!.get!.summary = "Something else";
    expect(await checkoutApiTypes(document)).not.toBe(await readFile(TYPES_FILE, "utf8"));
  });
});

describe("the README's examples", () => {
  it("are examples/checkout-client.ts and examples/verify-notification.ts as they are (typed, tested)", async () => {
    const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
    for (const file of ["checkout-client.ts", "verify-notification.ts"]) {
      const source = (await readFile(new URL(`../examples/${file}`, import.meta.url), "utf8")).replace(/^\/\*[\s\S]*?\*\/\n/, "").trimEnd();
      // In a list item, the code block is indented: compare without the indentation.
      const unindented = readme.replace(/^ {2}/gm, "");
      expect(readme.includes(source) || unindented.includes(source), `README shows examples/${file}`).toBe(true);
    }
  });
});

describe("the integrators' page on listing, cancelling and refunding", () => {
  it("shows examples/checkout-actions.ts as it is (typed, run by the e2e)", async () => {
    const page = await readFile(new URL("../docs/integrators/checkout-sessions-api.md", import.meta.url), "utf8");
    const source = (await readFile(new URL("../examples/checkout-actions.ts", import.meta.url), "utf8"))
      .replace(/^\/\*[\s\S]*?\*\/\n/, "")
      .trimEnd();
    expect(page.includes(source), "docs/integrators/checkout-sessions-api.md shows examples/checkout-actions.ts").toBe(true);
  });
});
