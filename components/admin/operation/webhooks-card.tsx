import { Cell, Row } from "@/components/ui/table";
import { formatDateTime } from "@/lib/backoffice/common/format";
import { StatusBadge } from "../status-badge";
import { columnsOf, TableCard, type OperationSectionProps } from "./section";
import { webhookEventState } from "./webhook-state";

const COLUMNS = ["event", "claimed", "received", "deliveries", "ack"] as const;

/** The partner API's webhook events for the operation: what each claimed, and where it stands. */
export function WebhooksCard({ detail, m, locale }: OperationSectionProps) {
  return (
    <TableCard
      title={m.operation.webhooksHeading}
      id="webhooks-heading"
      empty={detail.events.length === 0}
      emptyText={m.operation.webhooksNone}
      label={m.operation.webhooksCaption}
      columns={columnsOf(m.operation.webhookColumns, COLUMNS)}
    >
      {detail.events.map((event) => {
        const state = webhookEventState(event);
        return (
          <Row key={event.eventId} top>
            <Cell>{event.eventId}</Cell>
            <Cell>
              <StatusBadge status={event.claimedStatus} m={m} />
            </Cell>
            <Cell>{formatDateTime(event.receivedAt, locale)}</Cell>
            <Cell>{event.deliveries}</Cell>
            <Cell>
              <span className="font-semibold">{m.operation.webhookStates[state]}</span>
              {event.detail && state !== "acknowledged" ? <span className="block text-muted">{event.detail}</span> : null}
              {state === "waiting" ? (
                <span className="block text-muted">{m.operation.webhookRetry(formatDateTime(event.nextAttemptAt, locale))}</span>
              ) : null}
              {event.lastError ? <code className="block text-xs text-muted">{event.lastError}</code> : null}
            </Cell>
          </Row>
        );
      })}
    </TableCard>
  );
}
