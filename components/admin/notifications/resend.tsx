import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { RESEND_OUTCOMES } from "@/lib/backoffice/notifications/notifications";
import type { AdminMessages } from "@/lib/i18n/admin-messages";

/*
 * "Resend" of a partner notification, where staff see one: the notifications list and an
 * operation's page. Both post the same server action (app/admin/notifications/actions.ts), which
 * comes back to the operation when `operationId` is given, else to the list, with `?resent=`.
 */

/** The button, named by the event and the session it is about (several rows carry one). */
export function ResendForm({
  action,
  notificationId,
  event,
  session,
  operationId,
  m,
}: {
  action: (formData: FormData) => Promise<void>;
  notificationId: string;
  /** `checkout.session.<state>` */
  event: string;
  /** The booking reference, else the session's id. */
  session: string;
  /** Sent from this operation's page: the way back. */
  operationId?: string;
  m: AdminMessages;
}) {
  return (
    <form action={action}>
      <input type="hidden" name="notificationId" value={notificationId} />
      {operationId ? <input type="hidden" name="operationId" value={operationId} /> : null}
      <Button
        variant="secondary"
        size="sm"
        aria-label={m.notifications.resendLabel.replace("{event}", event).replace("{session}", session)}
      >
        {m.notifications.resend}
      </Button>
    </form>
  );
}

/** How the resend went, from the URL's `?resent=` (only a known outcome is shown). */
export function ResentNotice({ value, m }: { value: unknown; m: AdminMessages }) {
  const outcome = RESEND_OUTCOMES.find((known) => known === value);
  if (!outcome) return null;
  return (
    <Notice tone={outcome === "delivered" ? "success" : outcome === "busy" ? "info" : "error"} live>
      {m.notifications.resent[outcome]}
    </Notice>
  );
}
