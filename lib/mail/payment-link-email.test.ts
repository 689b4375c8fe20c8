import { describe, expect, it } from "vitest";
import { paymentLinkEmail } from "./payment-link-email";

describe("paymentLinkEmail", () => {
  const input = {
    partnerName: "Viajes <Aurora>",
    packageName: "Lisboa & Sintra",
    amount: "1.234,50 €",
    link: "https://pay.example/checkout/cs_abcdefghijklmnop",
    expiresAt: "24 nov 2026, 10:30:00 (CET)",
  };

  it("says the trip, the amount, the link and its expiry, in Spanish or English", () => {
    const es = paymentLinkEmail({ ...input, locale: "es" });
    expect(es.subject).toBe("Viajes <Aurora>: tu enlace para pagar a plazos");
    expect(es.text).toContain("Viaje: Lisboa & Sintra");
    expect(es.text).toContain("Importe: 1.234,50 €");
    expect(es.text).toContain(input.link);
    expect(es.text).toContain("caduca el 24 nov 2026");
    const en = paymentLinkEmail({ ...input, locale: "en" });
    expect(en.subject).toContain("pay in installments");
    expect(en.html).toContain('lang="en"');
  });

  it("escapes what the partner typed in the HTML part", () => {
    const { html } = paymentLinkEmail({ ...input, locale: "es" });
    expect(html).toContain("Viajes &lt;Aurora&gt;");
    expect(html).toContain("Lisboa &amp; Sintra");
    expect(html).not.toContain("<Aurora>");
    expect(html).toContain(`href="${input.link}"`);
  });

  it("writes the trip's name so that no mail client makes a link of it, in the text and in the HTML", () => {
    const packageName = "Pay now at https://evil.example/pay or www.evil.example, help@evil.example";
    const { text, html } = paymentLinkEmail({ ...input, packageName, locale: "en" });
    for (const part of [text, html]) {
      expect(part).not.toContain("evil.example");
      expect(part).not.toContain("@evil");
      expect(part).not.toContain("https://evil");
      // The same to read: only invisible joiners in between.
      expect(part.replaceAll("\u200D", "")).toContain(packageName);
    }
    // One link in each part: ours.
    expect(html.match(/<a /g)).toHaveLength(1);
    expect(text.match(/https?:\/\//g)).toHaveLength(1);
    expect(html.match(/https?:\/\//g)).toHaveLength(2);
  });
});
