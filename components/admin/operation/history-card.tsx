import { Cell, Row } from "@/components/ui/table";
import { formatDateTime } from "@/lib/backoffice/common/format";
import { StatusBadge } from "../status-badge";
import { columnsOf, TableCard, type OperationSectionProps } from "./section";

const COLUMNS = ["status", "source", "apiUpdatedAt", "at"] as const;

/** The statuses our checkout session went through, and what told us of each. */
export function HistoryCard({ detail, m, locale }: OperationSectionProps) {
  return (
    <TableCard
      title={m.operation.historyHeading}
      id="history-heading"
      empty={detail.history.length === 0}
      emptyText={m.operation.historyNone}
      label={m.operation.historyCaption}
      columns={columnsOf(m.operation.historyColumns, COLUMNS)}
    >
      {detail.history.map((row) => (
        <Row key={row.id}>
          <Cell>
            <StatusBadge status={row.status} m={m} />
          </Cell>
          <Cell>{m.operation.sources[row.source] ?? row.source}</Cell>
          <Cell>{row.operationUpdatedAt ? formatDateTime(row.operationUpdatedAt, locale) : m.common.notAvailable}</Cell>
          <Cell>{formatDateTime(row.at, locale)}</Cell>
        </Row>
      ))}
    </TableCard>
  );
}
