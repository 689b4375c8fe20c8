/** The overview's funnel steps (lib/backoffice/operations/overview.ts), pure: the e2e page objects read them too. */

export interface FunnelCounts {
  opened: number;
  detailsGiven: number;
  planChosen: number;
  signed: number;
  confirmed: number;
  refused: number;
  expired: number;
}

export const FUNNEL_STEPS = [
  "opened",
  "detailsGiven",
  "planChosen",
  "signed",
  "confirmed",
  "refused",
  "expired",
] as const satisfies readonly (keyof FunnelCounts)[];
export type FunnelStep = (typeof FUNNEL_STEPS)[number];
