import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CHECKOUT_API_DOCUMENT, referencePage, SANDBOX_API_DOCUMENT, withoutRemoteFonts } from "./reference";

describe("the /docs page", () => {
  const html = referencePage({ nonce: "n0nce+/=", documents: [CHECKOUT_API_DOCUMENT, SANDBOX_API_DOCUMENT] });

  it("gives every script the response's nonce, and loads Scalar from our origin only", () => {
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts).toHaveLength(3);
    for (const script of scripts) expect(script).toContain('nonce="n0nce+/="');
    expect(html).toContain('src="/docs/scalar.js"');
    expect(html).not.toMatch(/https?:\/\//);
  });

  it("offers both documents, and only those it is given", () => {
    expect(html).toContain('"slug":"checkout-sessions","url":"/api/openapi.json","default":true');
    expect(html).toContain('"slug":"partner-api-sandbox","url":"/sandbox/v1/openapi.json","default":false');
    const production = referencePage({ nonce: "x", documents: [CHECKOUT_API_DOCUMENT] });
    expect(production).not.toContain("/sandbox/");
  });

  it("cannot be broken out of by a nonce or a title", () => {
    const page = referencePage({ nonce: '"><script>', documents: [{ title: "</script><b>", slug: "s", url: "/x" }] });
    expect(page).not.toContain('"><script>');
    expect(page).not.toContain("</script><b>");
  });
});

describe("Scalar's bundle as served", () => {
  it("declares no font at fonts.scalar.com", async () => {
    const file = path.join(process.cwd(), "node_modules/@scalar/api-reference/dist/browser/standalone.js");
    const source = await readFile(file, "utf8");
    expect(source).toContain("https://fonts.scalar.com/");
    expect(withoutRemoteFonts(source)).not.toContain("https://fonts.scalar.com/");
  });
});
