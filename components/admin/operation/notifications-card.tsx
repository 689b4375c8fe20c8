import { ResendForm } from "@/components/admin/notifications/resend";
import { Cell, Row } from "@/components/ui/table";
import { formatDateTime } from "@/lib/backoffice/common/format";
import { columnsOf, TableCard, type OperationSectionProps } from "./section";

const COLUMNS = ["state", "created", "attempts", "delivered", "action"] as const;

/**
 * What we told the partner's backend of this operation's outcomes, and whether it arrived; each one
 * can be sent again from here (the same action as the notifications page's, which comes back here).
 */
export function NotificationsCard({
  detail,
  m,
  locale,
  operationId,
  resendAction,
}: OperationSectionProps & { operationId: string; resendAction: (formData: FormData) => Promise<void> }) {
  const reference = detail.session?.bookingReference ?? operationId;
  return (
    <TableCard
      title={m.operation.notificationsHeading}
      id="notifications-heading"
      empty={detail.notifications.length === 0}
      emptyText={m.operation.notificationsNone}
      label={m.operation.notificationsCaption}
      columns={columnsOf({ ...m.operation.notificationColumns, action: m.notifications.columns.action }, COLUMNS)}
    >
      {detail.notifications.map((row) => (
        <Row key={row.id} top>
          <Cell>
            <code>{row.state}</code>
          </Cell>
          <Cell>{formatDateTime(row.createdAt, locale)}</Cell>
          <Cell>{row.attempts}</Cell>
          <Cell>
            {row.deliveredAt ? formatDateTime(row.deliveredAt, locale) : m.operation.notificationPending}
            {row.lastError && !row.deliveredAt ? <code className="block text-xs text-muted">{row.lastError}</code> : null}
          </Cell>
          <Cell>
            <ResendForm
              action={resendAction}
              notificationId={row.id}
              event={`checkout.session.${row.state}`}
              session={reference}
              operationId={operationId}
              m={m}
            />
          </Cell>
        </Row>
      ))}
    </TableCard>
  );
}
