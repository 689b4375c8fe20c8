import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { buildCheckoutApiDocument } from "@/lib/checkout/openapi";
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
