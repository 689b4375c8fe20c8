/**
 * Limits of the partner API that browser code checks too (the refund form's preview), kept apart
 * from `contract.ts` so that checking them does not pull zod into a browser bundle. The contract
 * builds its schemas from these and re-exports them.
 */

/** The longest reason a cancel or refund may carry. */
export const REASON_MAX_LENGTH = 255;
