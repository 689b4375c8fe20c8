import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { CustomerDraft, CustomerField } from "./customer";

/*
 * Who may see and correct the customer's data once it is sent: the browser that sent it, which got
 * a random token in a cookie at that submit (the session stores only its hash). The link alone
 * (staff pages, e-mails, the frame's address) shows nothing of it. Even to that browser the data
 * comes back masked, and a correction re-types only what changes: a blank field keeps what was sent.
 */

/** The cookie holding the token, scoped to the session's pages (`Path=/checkout/{id}`). */
export const EDITOR_COOKIE = "checkout_editor";

/** Corrections that change the data after the first submit, per session: each replaces the operation upstream. */
export const MAX_CORRECTIONS = 3;

export function newEditorToken(): string {
  return randomBytes(32).toString("base64url");
}

export function editorTokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Whether a cookie's token is the one whose hash the session stores (constant time). */
export function isEditor(token: string | undefined, storedHash: string | null | undefined): boolean {
  if (!token || !storedHash || token.length > 200) return false;
  const given = Buffer.from(editorTokenHash(token), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * Fields the correction form leaves blank and shows masked: typed again only when they change.
 * The others (prefix, document type, sex, nationality, country) are choices, shown as chosen.
 */
export const MASKED_FIELDS = [
  "firstName",
  "lastName",
  "email",
  "phone",
  "documentId",
  "documentValidityDate",
  "birthDate",
  "address",
  "city",
  "postalCode",
] as const satisfies readonly CustomerField[];
export type MaskedField = (typeof MASKED_FIELDS)[number];

/**
 * Of a partner's prefill (data the customer has not sent yet), the identity data the link alone
 * must not show in full: the document, its validity, the birth date, the phone and the address.
 * The name and e-mail stay shown, so the customer recognises the booking as theirs.
 */
export const PREFILL_MASKED_FIELDS = [
  "phone",
  "documentId",
  "documentValidityDate",
  "birthDate",
  "address",
] as const satisfies readonly MaskedField[];

const DOT = "•";

function isMaskedIn(fields: readonly MaskedField[], field: CustomerField): field is MaskedField {
  return (fields as readonly string[]).includes(field);
}

/** Keeps the last `n` characters of a value, the rest dots (at least four, whatever its length). */
function lastOf(value: string, n: number): string {
  const compact = value.replace(/\s/g, "");
  return compact.length <= n + 2 ? DOT.repeat(4) : `${DOT.repeat(4)}${compact.slice(-n)}`;
}

/**
 * What the correction form shows of a stored value: enough for the customer to recognise it, not
 * enough to learn it (`••••567X`, `••• ••• 12`, `a•••@example.com`); dates not at all ("").
 */
export function maskValue(field: MaskedField, value: string | undefined): string {
  const v = (value ?? "").trim();
  if (v === "") return "";
  switch (field) {
    case "documentId":
      return lastOf(v, 4);
    case "phone": {
      const digits = v.replace(/\D/g, "");
      return digits.length <= 4 ? `${DOT.repeat(3)} ${DOT.repeat(3)}` : `${DOT.repeat(3)} ${DOT.repeat(3)} ${digits.slice(-2)}`;
    }
    case "email": {
      const at = v.lastIndexOf("@");
      return at > 0 ? `${v[0]}${DOT.repeat(3)}${v.slice(at)}` : DOT.repeat(4);
    }
    case "birthDate":
    case "documentValidityDate":
      return "";
    case "postalCode":
      return v.length > 2 ? `${v.slice(0, 2)}${DOT.repeat(3)}` : DOT.repeat(3);
    default:
      return `${[...v][0]}${DOT.repeat(3)}`;
  }
}

/**
 * The stored data as the form shows it: `fields` masked (all of MASKED_FIELDS once the customer sent
 * the data; PREFILL_MASKED_FIELDS of a partner's prefill), the rest as they are.
 */
export function maskedDraft(
  stored: CustomerDraft,
  fields: readonly MaskedField[] = MASKED_FIELDS,
): { shown: CustomerDraft; masks: Partial<Record<MaskedField, string>> } {
  const shown: CustomerDraft = {};
  const masks: Partial<Record<MaskedField, string>> = {};
  for (const [field, value] of Object.entries(stored) as [CustomerField, string | undefined][]) {
    if (value === undefined) continue;
    if (isMaskedIn(fields, field)) masks[field] = maskValue(field, value);
    else shown[field] = value;
  }
  return { shown, masks };
}

/** What was typed over the stored data: it replaces it; a blank field of `fields` (shown masked) keeps it. */
export function mergeCorrection(
  stored: CustomerDraft,
  typed: CustomerDraft,
  fields: readonly MaskedField[] = MASKED_FIELDS,
): CustomerDraft {
  const merged: CustomerDraft = { ...stored };
  for (const [field, value] of Object.entries(typed) as [CustomerField, string | undefined][]) {
    if (value === undefined) continue;
    if (isMaskedIn(fields, field) && value.trim() === "") continue;
    merged[field] = value;
  }
  return merged;
}
