import { Card } from "@/components/ui/card";
import { Notice } from "@/components/ui/notice";
import { Cell, Row, ScrollTable } from "@/components/ui/table";
import { differingInstallment, totalOwed } from "@/lib/financing/offers";
import { formatAmount, formatPercent } from "@/lib/i18n/format";
import type { FinancialOffer } from "@/lib/financing/types";
import { columnsOf, type OperationSectionProps } from "./section";

const COLUMNS = ["provider", "installments", "quota", "tin", "tae", "owed"] as const;

/** The plans the operation is eligible for, as the API lists them now. */
export function OffersCard({ detail, m, locale }: OperationSectionProps) {
  const offers = detail.offers;
  return (
    <Card title={m.operation.offersHeading} id="offers-heading">
      {offers.kind === "not_eligible" ? (
        <p>{m.operation.offersNotEligible}</p>
      ) : offers.kind === "none" ? (
        <p>{m.operation.offersNone}</p>
      ) : offers.kind === "unavailable" ? (
        <Notice tone="error">{m.operation.offersUnavailable}</Notice>
      ) : (
        <ScrollTable label={m.operation.offersCaption} columns={columnsOf(m.operation.offerColumns, COLUMNS, COLUMNS.slice(1))}>
          {offers.offers.map((offer) => (
            <Row key={offer.id}>
              <Cell>{offer.companyName}</Cell>
              <Cell numeric>{offer.installments}</Cell>
              <Cell numeric>
                <QuotaCell offer={offer} m={m} locale={locale} />
              </Cell>
              <Cell numeric>{formatPercent(offer.tin, locale)}</Cell>
              <Cell numeric>{formatPercent(offer.tae, locale)}</Cell>
              <Cell numeric>{formatAmount(totalOwed(offer), locale)}</Cell>
            </Row>
          ))}
        </ScrollTable>
      )}
    </Card>
  );
}

/** The regular installment, and under it the one that differs (an opening fee, rounding), when one does. */
function QuotaCell({ offer, m, locale }: { offer: FinancialOffer } & Pick<OperationSectionProps, "m" | "locale">) {
  const differing = differingInstallment(offer);
  return (
    <>
      {formatAmount(offer.commonQuota, locale)}
      {differing ? (
        <span className="block text-sm text-muted">
          {m.operation.differingInstallment(differing.first, formatAmount(differing.amount, locale))}
        </span>
      ) : null}
    </>
  );
}
