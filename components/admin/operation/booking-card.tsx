import { Card } from "@/components/ui/card";
import { customerLabel, sessionIdHint } from "@/lib/backoffice/common/format";
import type { OperationSectionProps } from "./section";

/** Our checkout session for the operation: who, what, which booking; or that it is not ours. */
export function BookingCard({ detail, m }: Omit<OperationSectionProps, "locale">) {
  return (
    <Card title={m.operation.bookingHeading} id="booking-heading">
      {detail.session ? (
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1">
          <dt className="text-muted">{m.operation.customer}</dt>
          <dd>{customerLabel(detail.session, m.common)}</dd>
          <dt className="text-muted">{m.operation.package}</dt>
          <dd>{detail.session.packageName}</dd>
          <dt className="text-muted">{m.operation.reference}</dt>
          <dd>{detail.session.bookingReference}</dd>
          <dt className="text-muted">{m.operation.createdBy}</dt>
          <dd data-testid="operation-created-by">
            {detail.session.createdBy
              ? m.operation.createdByStaff(detail.session.createdBy.name ?? m.operation.formerStaff)
              : m.operation.createdByApi}
          </dd>
          <dt className="text-muted">{m.operation.checkoutSession}</dt>
          <dd>
            <code className="text-sm break-all">{sessionIdHint(detail.session.sessionId)}</code>
          </dd>
        </dl>
      ) : (
        <p className="text-muted">{m.operation.notOurs}</p>
      )}
    </Card>
  );
}
