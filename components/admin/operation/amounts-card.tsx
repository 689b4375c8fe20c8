import { Card } from "@/components/ui/card";
import { formatAmount } from "@/lib/i18n/format";
import type { OperationSectionProps } from "./section";

/** The operation's price and reserve (known only when the operation was found by its booking reference). */
export function AmountsCard({ detail, m, locale }: OperationSectionProps) {
  return (
    <Card title={m.operation.amountsHeading} id="amounts-heading">
      {detail.operation ? (
        <dl className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1">
          <dt className="text-muted">{m.operation.totalPrice}</dt>
          <dd className="text-right font-semibold tabular-nums">{formatAmount(detail.operation.totalPrice, locale)}</dd>
          <dt className="text-muted">{m.operation.totalReserve}</dt>
          <dd className="text-right font-semibold tabular-nums">{formatAmount(detail.operation.totalReserve, locale)}</dd>
        </dl>
      ) : (
        <p className="text-muted">{m.operation.amountsUnknown}</p>
      )}
    </Card>
  );
}
