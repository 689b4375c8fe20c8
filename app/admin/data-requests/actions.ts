"use server";

import { z } from "zod";
import type { DataRequestsState } from "@/components/admin/form-states";
import { formatDateTime } from "@/lib/backoffice/common/format";
import {
  dataRequestQuerySchema,
  eraseCustomerSessions,
  exportCustomerData,
  findCustomerSessions,
  type DataRequestActor,
  type DataRequestQuery,
} from "@/lib/backoffice/data-requests/data-requests";
import { dataRequestExportView, dataRequestRows } from "@/lib/backoffice/data-requests/view";
import { staffAction } from "@/lib/backoffice/staff-action";
import { requestIp } from "@/lib/identity/staff";
import { getLocale } from "@/lib/i18n/server";
import { safeText } from "@/lib/validation/text";
import { formAction, type FormAnswer } from "@/lib/validated-action";

/**
 * The data requests page's one form: search, see the export, ask to erase (one session or all) and
 * confirm. Every answer lists the customer's sessions again, as they are after it.
 */

const sessionIdField = z.string().check(safeText()).min(1).max(100);

const schema = dataRequestQuerySchema.extend({
  intent: z.enum(["search", "export", "ask-erase", "erase"]),
  sessionId: z.union([sessionIdField, z.array(sessionIdField).max(200)]).optional(),
});

type Answer = FormAnswer<DataRequestsState>;

async function listed(staff: DataRequestActor, query: DataRequestQuery, ip: string): Promise<Answer> {
  const found = await findCustomerSessions(staff, query, { ip });
  if (!found.ok) return { error: "forbidden" };
  return { ...query, sessions: dataRequestRows(found.sessions, await getLocale()) };
}

const validated = staffAction(
  schema,
  async (staff, input): Promise<Answer> => {
    const ip = await requestIp();
    const query = { by: input.by, value: input.value };
    const ids = input.sessionId === undefined ? [] : [input.sessionId].flat();
    if (input.intent === "export") {
      const exported = await exportCustomerData(staff, query, "page", { ip });
      if (!exported.ok) return { error: "forbidden" };
      return { ...(await listed(staff, query, ip)), exported: dataRequestExportView(exported.export, await getLocale()) };
    }
    if (input.intent === "ask-erase") return { ...(await listed(staff, query, ip)), confirm: ids };
    if (input.intent === "erase") {
      const answer = await eraseCustomerSessions(staff, ids, { ip });
      if (!answer.ok) return { error: "forbidden" };
      const locale = await getLocale();
      return {
        ...(await listed(staff, query, ip)),
        erased: answer.erased.map((session) => session.bookingReference),
        refused: answer.refused.map((session) => ({
          reference: session.bookingReference,
          retry: formatDateTime(session.retryAfter, locale),
        })),
      };
    }
    return listed(staff, query, ip);
  },
  { permission: "data-requests" },
);

export const dataRequestAction = formAction<DataRequestsState>()(validated, {
  invalid: () => ({ error: "invalid" }),
  valid: (outcome) => outcome,
});
