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

describe("the integrators' guides' examples", () => {
  it.each([
    ["docs/integrators/api-reference.md", "checkout-client.ts"],
    ["docs/integrators/notifications.md", "verify-notification.ts"],
    ["docs/integrators/checkout-sessions-api.md", "checkout-actions.ts"],
  ])("%s shows examples/%s as it is (typed, tested)", async (page, file) => {
    const markdown = await readFile(new URL(`../${page}`, import.meta.url), "utf8");
    const source = (await readFile(new URL(`../examples/${file}`, import.meta.url), "utf8")).replace(/^\/\*[\s\S]*?\*\/\n/, "").trimEnd();
    expect(markdown.includes(`\`\`\`ts\n${source}\n\`\`\``), `${page} shows examples/${file}`).toBe(true);
  });
});
