import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PartnerNotificationForm } from "@/components/operator/partner-forms";
import { ADMIN_MESSAGES } from "@/lib/i18n/admin-messages";
import { PARTNER_CONSOLE_MESSAGES } from "@/lib/i18n/partner-console-messages";
import { NotificationUrlForm } from "./notification-forms";

const admin = ADMIN_MESSAGES.en.notifications;
const never = () => Promise.reject(new Error("not submitted in this test"));

describe("the notification URL's field", () => {
  it("is the same field on the back-office's settings and on the operator console's partner page", () => {
    const own = renderToStaticMarkup(
      <NotificationUrlForm action={never} current="https://a.example/hook" text={admin} errorPrefix="Error:" />,
    );
    const partner = renderToStaticMarkup(
      <PartnerNotificationForm
        action={never}
        partnerId="acme"
        current="https://b.example/hook"
        text={PARTNER_CONSOLE_MESSAGES.en.notifications}
        adminText={admin}
        errorPrefix="Error:"
        permalink="/operator/partners/acme"
      />,
    );
    for (const [html, id, url] of [
      [own, "notification-url", "https://a.example/hook"],
      [partner, "partner-notification-url", "https://b.example/hook"],
    ] as const) {
      expect(html).toContain(`<label for="${id}" class="font-semibold">${admin.urlLabel}</label>`);
      expect(html).toMatch(new RegExp(`<input id="${id}" [^>]*type="url"[^>]*name="notificationUrl"[^>]*value="${url}"`));
      expect(html).toMatch(new RegExp(`<button type="submit"[^>]*>${admin.urlSave}</button>`));
    }
    expect(own).toMatch(/autoComplete="url"/);
    expect(partner).toContain('<input type="hidden" name="partnerId" value="acme"/>');
  });
});
