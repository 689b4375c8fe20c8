import { describe, expect, it } from "vitest";
import { contentEtag, ifNoneMatches } from "./etag";

const ETAG = '"Zm9vYmFy_-12"';

describe("ifNoneMatches (RFC 9110 §13.1.2)", () => {
  it("matches the same tag, strong or weak on either side (weak comparison)", () => {
    expect(ifNoneMatches(ETAG, ETAG)).toBe(true);
    expect(ifNoneMatches(`W/${ETAG}`, ETAG)).toBe(true);
    expect(ifNoneMatches(ETAG, `W/${ETAG}`)).toBe(true);
    expect(ifNoneMatches(`  W/${ETAG}  `, ETAG)).toBe(true);
  });

  it("matches when any tag of a list does, and `*` always", () => {
    expect(ifNoneMatches(`"a", ${ETAG}`, ETAG)).toBe(true);
    expect(ifNoneMatches(`"a",W/${ETAG},"b"`, ETAG)).toBe(true);
    expect(ifNoneMatches(`"a", , ${ETAG},`, ETAG)).toBe(true);
    expect(ifNoneMatches("*", ETAG)).toBe(true);
    // A comma is an etagc: inside quotes it does not split the list.
    expect(ifNoneMatches('"x,y"', '"x,y"')).toBe(true);
    expect(ifNoneMatches('"x,y"', '"y"')).toBe(false);
  });

  it("does not match another tag, an absent header, or a value that is not a list of entity-tags", () => {
    expect(ifNoneMatches('"other"', ETAG)).toBe(false);
    expect(ifNoneMatches(`"a", "b"`, ETAG)).toBe(false);
    expect(ifNoneMatches(null, ETAG)).toBe(false);
    expect(ifNoneMatches(undefined, ETAG)).toBe(false);
    expect(ifNoneMatches("", ETAG)).toBe(false);
    // Unquoted, or lowercase w/, or glued to the next tag: not entity-tags.
    expect(ifNoneMatches(ETAG.slice(1, -1), ETAG)).toBe(false);
    expect(ifNoneMatches(`w/${ETAG}`, ETAG)).toBe(false);
    expect(ifNoneMatches(`${ETAG}"a"`, ETAG)).toBe(false);
    expect(ifNoneMatches(`"a", *`, ETAG)).toBe(false);
  });
});

describe("contentEtag", () => {
  it("names a representation: the same value the same tag, another value another, always a valid entity-tag", () => {
    const tag = contentEtag({ state: "open", at: 1 });
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{16}"$/);
    expect(contentEtag({ state: "open", at: 1 })).toBe(tag);
    expect(contentEtag({ state: "closed", at: 1 })).not.toBe(tag);
    expect(ifNoneMatches(tag, tag)).toBe(true);
  });
});
