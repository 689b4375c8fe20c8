import { describe, expect, it } from "vitest";
import { MESSAGES } from "@/lib/i18n/messages";
import { errorPageHtml } from "./error-page";

describe("the server's own error page", () => {
  it("says it in the HTML itself, in the page's language, with a way back and no script", () => {
    const html = errorPageHtml({ kind: "unavailable", locale: "es", retryHref: "/checkout/cs_abcdefghijkl?embed=x", requestId: "req-1" });
    expect(html).toContain('<html lang="es">');
    expect(html).toContain(`<h1 class="text-3xl font-bold">${MESSAGES.es.errorPage.unavailableTitle}</h1>`);
    expect(html).toContain('href="/checkout/cs_abcdefghijkl?embed=x"');
    expect(html).toContain('href="/"');
    expect(html).toContain("<code>req-1</code>");
    expect(html).not.toMatch(/<script|style=/);

    const en = errorPageHtml({ kind: "error", locale: "en", retryHref: "/" });
    expect(en).toContain('<html lang="en">');
    expect(en).toContain(MESSAGES.en.errorPage.errorTitle);
  });

  it("links only our own stylesheets, and escapes what came from the request", () => {
    const html = errorPageHtml({
      kind: "error",
      locale: "en",
      retryHref: '/checkout/x"><script>alert(1)</script>',
      stylesheets: ["/_next/static/chunks/app.css", "https://evil.example/x.css", "/_next/static/../../x.css"],
      requestId: "<b>",
    });
    expect(html).toContain('<link rel="stylesheet" href="/_next/static/chunks/app.css">');
    expect(html).not.toContain("evil.example");
    expect(html).not.toContain("../");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toContain("<b>");
    // Another origin is never where "try again" leads.
    expect(errorPageHtml({ kind: "error", locale: "en", retryHref: "//evil.example/" })).toContain('href="/"');
  });
});
