import { Cell, Row } from "@/components/ui/table";
import { formatDateTime } from "@/lib/backoffice/format";
import { columnsOf, TableCard, type OperationSectionProps } from "./section";

const COLUMNS = ["state", "created", "attempts", "delivered"] as const;

/** What we told the partner's backend of this operation's outcomes, and whether it arrived. */
export function NotificationsCard({ detail, m, locale }: OperationSectionProps) {
  return (
    <TableCard
      title={m.operation.notificationsHeading}
      id="notifications-heading"
      empty={detail.notifications.length === 0}
      emptyText={m.operation.notificationsNone}
      label={m.operation.notificationsCaption}
      columns={columnsOf(m.operation.notificationColumns, COLUMNS)}
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
        </Row>
      ))}
    </TableCard>
  );
}
