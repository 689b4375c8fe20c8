import { describe, expect, it } from "vitest";
import { accountNoticeEmail } from "./account-notice-email";

describe("the e-mails that tell people their account changed", () => {
  const at = new Date("2026-12-02T10:15:00Z");

  it("say what changed and when, in Spanish then English, with no link", () => {
    for (const kind of ["password-changed", "password-reset", "second-factor-reset", "access-changed", "api-secret-created"] as const) {
      const mail = accountNoticeEmail({ kind, organisation: "Viajes Aurora", at, by: "Lucía Ortega", secretName: "Web" });
      expect(mail.subject).toContain("Viajes Aurora");
      expect(mail.text).toContain("2026-12-02 10:15 UTC");
      expect(mail.text.indexOf("Hola:")).toBeLessThan(mail.text.indexOf("Hello,"));
      expect(mail.html).not.toContain("<a ");
    }
  });

  it("renders typed names inert and escaped: no link, no markup of someone else's", () => {
    const mail = accountNoticeEmail({
      kind: "api-secret-created",
      organisation: "Go to evil.example",
      at,
      by: '<b>"Mallory"</b>',
      secretName: "see https://evil.example/x",
    });
    expect(mail.text).not.toContain("evil.example");
    expect(mail.html).not.toContain("<b>");
    expect(mail.html).toContain("&lt;b&gt;");
  });
});
