import { describe, expect, it } from "vitest";
import { staffLinkEmail } from "./staff-link-email";

describe("the e-mails that carry a staff member's one-time link", () => {
  const link = "https://checkout.example/admin/login/link/abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ";

  it("say what the link is for, until when, and carry it as the only link", () => {
    for (const kind of ["invitation", "second-factor-reset", "password-reset"] as const) {
      for (const locale of ["es", "en"] as const) {
        const mail = staffLinkEmail({ kind, locale, organisation: "Viajes Aurora", link, expiresAt: "1 Dec 2026, 10:00" });
        expect(mail.text).toContain(link);
        expect(mail.text).toContain("1 Dec 2026, 10:00");
        expect(mail.html.match(/<a /g)).toHaveLength(1);
        expect(mail.html).toContain(`href="${link}"`);
        expect(mail.subject).toContain("Viajes Aurora");
      }
    }
  });

  it("renders a typed agency name inert and escaped: no link, no markup of someone else's", () => {
    const mail = staffLinkEmail({
      kind: "invitation",
      locale: "en",
      organisation: 'Go to evil.example <b>"now"</b>',
      link,
      expiresAt: "soon",
    });
    expect(mail.text).not.toContain("evil.example");
    expect(mail.html).not.toContain("<b>");
    expect(mail.html).toContain("&lt;b&gt;");
  });
});
