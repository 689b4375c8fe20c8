import "server-only";
import { cache } from "react";
import type { Agency } from "@/lib/financing/types";
import { apiProblem } from "@/lib/financing/api-problem";
import type { StaffContext } from "./staff";

export type AgencyList = { ok: true; agencies: Agency[]; current: Agency | undefined } | { ok: false };

/**
 * The group's agencies (`GET /agencies`, the one call without the agency header), for the agency
 * switcher. Only for a partner with its own group key; once per request.
 */
export const groupAgencies = cache(async (staff: StaffContext): Promise<AgencyList | undefined> => {
  if (!staff.agency.switchable) return undefined;
  try {
    const agencies = await staff.client.listAgencies();
    return { ok: true, agencies, current: agencies.find((agency) => agency.id === staff.agency.id) };
  } catch (error) {
    apiProblem(error, "listing the group's agencies");
    return { ok: false };
  }
});
