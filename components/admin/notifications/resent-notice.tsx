import { Notice } from "@/components/ui/notice";
import type { ResendOutcome } from "@/lib/backoffice/notifications";
import type { AdminMessages } from "@/lib/i18n/admin-messages";

/** How a resend went (`?resent=`), on the page it was sent from: the notifications list or an operation. */
export function ResentNotice({ outcome, m }: { outcome: ResendOutcome | undefined; m: AdminMessages }) {
  if (!outcome) return null;
  return (
    <Notice tone={outcome === "delivered" ? "success" : outcome === "busy" ? "info" : "error"} live>
      {m.notifications.resent[outcome]}
    </Notice>
  );
}
