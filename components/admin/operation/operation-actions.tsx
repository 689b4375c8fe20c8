import { Card } from "@/components/ui/card";
import { LinkButton } from "@/components/ui/link-button";
import { isCancellable } from "@/lib/financing/contract";
import { CancelForm } from "../cancel-form";
import { reasonSettings, type CancelState } from "../form-states";
import type { OperationSectionProps } from "./section";

/** What staff may do with the operation in its status: cancel it, refund it, or nothing. */
export function OperationActions({
  detail,
  m,
  operationId,
  permalink,
  cancelAction,
  canRefund,
}: Omit<OperationSectionProps, "locale"> & {
  operationId: string;
  /** The operation page's path: where the cancel form comes back to without JavaScript. */
  permalink: string;
  cancelAction: (state: CancelState, formData: FormData) => Promise<CancelState>;
  /** Whether this staff member may refund (lib/identity/permissions.ts): else no link to the refund page. */
  canRefund: boolean;
}) {
  const status = detail.status.status.status;
  if (isCancellable(status)) {
    return (
      <Card title={m.operation.cancelHeading} id="cancel-heading">
        <div className="flex flex-col gap-4">
          <p>{m.operation.cancelIntro}</p>
          <CancelForm
            action={cancelAction}
            operationId={operationId}
            permalink={permalink}
            text={m.cancelForm}
            reason={reasonSettings(m)}
          />
        </div>
      </Card>
    );
  }
  if (status === "CONFIRMED" && !canRefund) {
    return (
      <Card title={m.operation.refundHeading} id="refund-heading">
        <p>{m.operation.refundNotAllowed}</p>
      </Card>
    );
  }
  if (status === "CONFIRMED") {
    const reference = detail.session?.bookingReference ?? detail.operation?.externalId;
    const href = `/admin/operations/${encodeURIComponent(operationId)}/refund${reference ? `?ref=${encodeURIComponent(reference)}` : ""}`;
    return (
      <Card title={m.operation.refundHeading} id="refund-heading">
        <p>{m.operation.refundIntro}</p>
        <p className="mt-3">
          <LinkButton href={href} stretch={false}>
            {m.operation.refundLink}
          </LinkButton>
        </p>
      </Card>
    );
  }
  return null;
}
