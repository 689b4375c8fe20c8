import type { RefundBase } from "@/lib/backoffice/refunds/review";
import { fill } from "@/lib/text/template";
import type { RefundComputation } from "../form-states";
import { moneyFormatter, type RefundFlowContext } from "./step";

/** The API's breakdown, and optionally the charges and the total after them, as a table. */
export function BreakdownTable({
  flow,
  base,
  computed,
  caption,
}: {
  flow: RefundFlowContext;
  base: RefundBase;
  computed?: RefundComputation;
  caption: string;
}) {
  const { text, intlLocale } = flow;
  const money = moneyFormatter(flow, base);
  const percentage = new Intl.NumberFormat(intlLocale, { style: "percent", maximumFractionDigits: 2 }).format(
    base.cancellationFeePercentage / 100,
  );
  const rows: [string, string, boolean][] = [
    [text.totalReserve, money(base.totalReserveCents), false],
    [text.managementFees, money(-base.managementFeesCents), false],
    [fill(text.cancellationFee, { percentage }), money(-base.cancellationFeeCents), false],
    [text.apiTotal, money(base.totalToRefundCents), !computed],
  ];
  if (computed) {
    rows.push([text.agencyFee, money(-computed.agencyFeeCents), false]);
    rows.push([text.providerFee, money(-computed.providerFeeCents), false]);
    rows.push([text.total, money(computed.totalToRefundCents), true]);
  }
  return (
    <table className="w-full border-collapse text-left">
      <caption className="sr-only">{caption}</caption>
      <tbody>
        {rows.map(([label, value, strong]) => (
          <tr key={label} className={strong ? "border-t-2 border-ink" : "border-t border-divider"}>
            <th scope="row" className={`py-2 pr-4 ${strong ? "font-bold" : "font-normal"}`}>
              {label}
            </th>
            <td className={`py-2 text-right tabular-nums ${strong ? "text-lg font-bold" : ""}`}>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
