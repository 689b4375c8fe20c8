/**
 * If-None-Match as RFC 9110 §13.1.2 reads it: `*`, or a list of entity-tags, any of which matches
 * the current ETag by weak comparison (a `W/` on either side is ignored: only the quoted opaque
 * tags are compared). A value that is not a valid list matches nothing, so the client gets the
 * full answer, which is always safe. Pure: the app's routes and the sandbox share it.
 */
import { createHash } from "node:crypto";

// An entity-tag's opaque tag, quotes included: etagc is "!", "#" to "~", and obs-text.
const OPAQUE = String.raw`"[\x21\x23-\x7e\x80-\xff]*"`;
const ENTITY_TAG = new RegExp(String.raw`^(?:W\/)?(${OPAQUE})$`);
// One list element and its separator; a list may hold empty elements ("a", , "b").
const LIST_ELEMENT = new RegExp(String.raw`[ \t]*(?:(?:W\/)?(${OPAQUE})[ \t]*(?:,|$)|,)`, "y");

/** Whether a request's If-None-Match matches the resource's current ETag (then: 304 for a GET). */
export function ifNoneMatches(header: string | null | undefined, etag: string): boolean {
  if (header === null || header === undefined) return false;
  const value = header.trim();
  if (value === "*") return true;
  const current = ENTITY_TAG.exec(etag)?.[1];
  return current !== undefined && (opaqueTags(value)?.includes(current) ?? false);
}

/** The opaque tags of a list of entity-tags, or undefined when it is not one. */
function opaqueTags(list: string): string[] | undefined {
  const tags: string[] = [];
  LIST_ELEMENT.lastIndex = 0;
  while (LIST_ELEMENT.lastIndex < list.length) {
    const match = LIST_ELEMENT.exec(list);
    if (match === null) return undefined;
    if (match[1] !== undefined) tags.push(match[1]);
  }
  return tags;
}

/** A strong ETag naming a JSON representation: a digest of its serialisation, quotes included. */
export function contentEtag(value: unknown): string {
  return `"${createHash("sha256").update(JSON.stringify(value)).digest("base64url").slice(0, 16)}"`;
}
