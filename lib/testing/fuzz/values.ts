import fc from "fast-check";

/**
 * Hostile values, each invalid wherever it lands in a request of ours or of the partner API: text
 * with control characters or lone surrogates (refused by every text field), null (no field
 * accepts it), numbers beyond safe integers or negative fractions (refused by every numeric field,
 * and by every text field as the wrong type). So a valid body with one of them put in place of one
 * of its values is always invalid input, and must change nothing.
 */

const CONTROL = ["\u0000", "\u0001", "\u0007", "\u0008", "\u000b", "\u001b", "\u001f", "\u007f"];
const LONE_SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"];

/** A string that no text field may accept: some text around a control character or lone surrogate. */
export const hostileString: fc.Arbitrary<string> = fc
  .tuple(fc.string({ maxLength: 12 }), fc.constantFrom(...CONTROL, ...LONE_SURROGATES), fc.string({ maxLength: 12 }))
  .map(([before, bad, after]) => `${before}${bad}${after}`);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(9007199254740994, 2 ** 64, 1e300, -1.5, -0.01),
  fc.double({ min: 2 ** 53 + 2, max: 1e308, noNaN: true }),
);

/** A value that is invalid in place of any value of a valid body. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: hostileNumber },
);

/** JSON that is not an object: what every body of ours and of the sandbox refuses. */
export const nonObjectJson: fc.Arbitrary<string> = fc
  .oneof(
    fc.constant(null),
    fc.integer(),
    hostileNumber,
    fc.string({ maxLength: 20 }),
    fc.array(fc.integer(), { maxLength: 3 }),
    fc.boolean(),
  )
  .map((value) => JSON.stringify(value));

/** Bodies that are not JSON at all. */
export const notJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("", " ", "{", "nul", "{'a':1}", "[1,", '{"a":1}}', "\u0000", "<xml/>", "a=b&c=d"),
  fc.string({ minLength: 1, maxLength: 40 }).filter((text) => {
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  }),
);

/** Each leaf (and inner object or list) of a JSON value, as a path. */
export function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const here = prefix.length > 0 ? [prefix] : [];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, i) => pathsOf(item, [...prefix, i]))];
  if (typeof value === "object" && value !== null) {
    return [...here, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...prefix, key]))];
  }
  return here;
}

export function withValueAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? withValueAt(item, rest, replacement) : item));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, key === head ? withValueAt(item, rest, replacement) : item]),
    );
  }
  return value;
}

/**
 * A valid body with one of its values (leaf or branch) replaced by a hostile one: invalid, always.
 * `freeFormLists` names lists of free-form objects (the sandbox's flights, hotels and services: any
 * JSON object is an item), inside which a value is never invalid by its type, so it is not chosen.
 */
export function mutated(valid: object, freeFormLists: readonly string[] = []): fc.Arbitrary<unknown> {
  const paths = pathsOf(valid).filter((path) => !(path.length > 2 && freeFormLists.includes(String(path[0]))));
  return fc.tuple(fc.constantFrom(...paths), hostileValue).map(([path, replacement]) => withValueAt(valid, path, replacement));
}

/**
 * Path segments, as sent (already percent-encoded or deliberately not): malformed escapes, escaped
 * lone surrogates and control characters, dot segments, very long ones, and ordinary junk.
 */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "%E0%A4%A",
    "%ED%A0%80",
    "%ED%BF%BF",
    "%00",
    "%0A",
    "%1F",
    "%7F",
    "%",
    "%zz",
    "%C0%AF",
    "%FF",
    "..",
    "%2e%2e",
    "%2F",
    "cs_%00aaaaaaaaaaaa",
    "op_%ED%A0%80",
    "x".repeat(3000),
  ),
  fc.string({ maxLength: 30 }).map((text) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, ""))),
  hostileString.map((text) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, "\u0000"))),
);

/** A query string (with its `?`): hostile values under expected or random names. */
export function hostileQuery(names: string[]): fc.Arbitrary<string> {
  const value = fc.oneof(hostileSegment, fc.string({ maxLength: 20 }).map(encodeURIComponent), fc.constant(""));
  const name = fc.oneof(fc.constantFrom(...names), hostileSegment);
  return fc.array(fc.tuple(name, value), { minLength: 1, maxLength: 4 }).map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`);
}
