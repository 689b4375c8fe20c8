import { Card } from "@/components/ui/card";
import { formatDateTime } from "@/lib/backoffice/common/format";
import { StatusBadge } from "../status-badge";
import type { OperationSectionProps } from "./section";

/** The operation's status as the API gave it just now (or unchanged since the last read), and its ids. */
export function StatusCard({ detail, m, locale, operationId }: OperationSectionProps & { operationId: string }) {
  return (
    <Card title={m.operation.statusHeading} id="status-heading">
      <div className="flex flex-col gap-3">
        <p className="text-lg">
          <StatusBadge status={detail.status.status.status} m={m} />
        </p>
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
          <dt className="text-muted">{m.operation.updatedAt}</dt>
          <dd>{formatDateTime(detail.status.status.updatedAt, locale)}</dd>
          <dt className="text-muted">{m.operation.operationId}</dt>
          <dd>
            <code className="break-all">{operationId}</code>
          </dd>
          {detail.operation?.operationNumber !== undefined ? (
            <>
              <dt className="text-muted">{m.operation.operationNumber}</dt>
              <dd>{detail.operation.operationNumber}</dd>
            </>
          ) : null}
        </dl>
        <p className="text-sm text-muted">{detail.status.modified ? m.operation.readNow : m.operation.notModified}</p>
      </div>
    </Card>
  );
}
