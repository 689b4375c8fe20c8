import fc from "fast-check";
import { request, type FuzzRequest, type FuzzTarget } from "./request";
import { hostileString, nonObjectJson, notJson } from "./values";

/*
 * The app's server actions as the fuzz posts them (lib/testing/fuzz/surfaces.ts): with
 * JavaScript (a Next-Action header) and without (a form naming the action), to every page.
 */

/** A multipart body, as a browser sends a form (the boundary is fixed). */
export function multipart(fields: [string, string][]): { contentType: string; body: string } {
  const boundary = "----fuzzboundary7MA4YWxkTrZu0gW";
  const body =
    fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join("") +
    `--${boundary}--\r\n`;
  return { contentType: `multipart/form-data; boundary=${boundary}`, body };
}

const CUSTOMER_FORM_FIELDS = [
  "firstName",
  "lastName",
  "email",
  "prefix",
  "phone",
  "documentId",
  "birthDate",
  "address",
  "city",
  "postalCode",
  "returnTo",
  "locale",
  "reason",
  "brand",
  "password",
  "next",
  "offerId",
];

/** Redirect targets no switch may put in a Location header as they are. */
export const hostileRedirectTarget: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "/admin\r\nSet-Cookie: injected=1",
    "/\r\n\r\n<html>",
    "/ad\nmin",
    "/caf\u00e9\u20ac",
    "/admin/\u65c5\u884c?q=\u{1f600}",
    "/admin?next=\u0100",
    "//evil.example/",
    "/\\evil.example",
    "https://evil.example/admin",
    "javascript:alert(1)",
    "/\u0085",
  ),
  fc
    .tuple(fc.string({ maxLength: 8 }), fc.constantFrom("\r\n", "\u0100", "\u20ac", "\u{1f600}", "\r"))
    .map(([tail, bad]) => `/admin/${tail}${bad}`),
);

/**
 * Server actions: the ids the pages carry, and made-up ones; bodies that are no form, React replies
 * that point at parts never sent, and well-formed replies whose fields are hostile.
 */
export function serverActionRequests(target: FuzzTarget): fc.Arbitrary<FuzzRequest> {
  const actionId = fc.oneof(
    ...(target.actionIds.length > 0 ? [fc.constantFrom(...target.actionIds)] : []),
    fc.stringMatching(/^[0-9a-f]{42}$/),
    fc.constantFrom("x", "00", ""),
  );
  const page = fc.constantFrom("/", `/checkout/${target.sessionId}`, `/checkout/${target.sessionId}/offers`, "/admin/login", "/admin");
  const sameOrigin = { Origin: target.origin };
  const hostileForm = fc
    .oneof(
      fc.array(fc.tuple(fc.constantFrom(...CUSTOMER_FORM_FIELDS), hostileString), { minLength: 1, maxLength: 5 }),
      // The switches' return targets (language, agency, the sign-in's next step): CR/LF, characters
      // above U+00FF, other origins; with a valid language, so the target is what is judged.
      fc.tuple(fc.constantFrom("returnTo", "next"), hostileRedirectTarget).map(([name, value]) => [
        ["locale", "en"],
        [name, value],
      ]),
    )
    .map((fields) => [["sessionId", target.sessionId], ...fields] as [string, string][]);
  const actionBody = fc.oneof(
    fc
      .tuple(fc.constantFrom("application/json", "text/plain;charset=UTF-8"), fc.oneof(nonObjectJson, notJson, fc.constant('["$K1"]')))
      .map(([type, body]) => ({ type, body })),
    fc.constantFrom('["$@1"]', '["$F1"]', '["$Q1"]', "not json", "[]", '[null,"$K1","$K1","$K1","$K1"]').map((root) => {
      const form = multipart([["0", root]]);
      return { type: form.contentType, body: form.body };
    }),
    fc
      .tuple(fc.constantFrom('["$K1"]', '[null,"$K1"]', '[{"submission":1},"$K1"]', '["x",1]', "[1]"), hostileForm)
      .map(([root, fields]) => {
        const form = multipart([["0", root], ...fields.map(([name, value]) => [`1_${name}`, value] as [string, string])]);
        return { type: form.contentType, body: form.body };
      }),
    fc.constantFrom({ type: "multipart/form-data; boundary=xx", body: "garbage" }, { type: "multipart/form-data", body: "--x\r\n" }),
  );
  const serverActions = fc.oneof(
    fc
      .tuple(page, actionId, actionBody)
      .map(([path, id, body]) =>
        request("server-actions", "POST", path, { ...sameOrigin, "Next-Action": id, "Content-Type": body.type }, body.body),
      ),
    // Without JavaScript: a multipart form naming an action, with hostile fields, or garbage.
    fc.tuple(page, actionId, hostileForm).map(([path, id, fields]) => {
      const form = multipart([[`$ACTION_ID_${id}`, ""], ...fields]);
      return request("server-actions", "POST", path, { ...sameOrigin, "Content-Type": form.contentType }, form.body);
    }),
    page.map((path) =>
      request("server-actions", "POST", path, { ...sameOrigin, "Content-Type": "multipart/form-data; boundary=xx" }, "garbage"),
    ),
    // Past the 64 KB a form may be (a 413 whether its length is declared or not, see sampleRequests).
    fc.tuple(page, actionId).map(([path, id]) => {
      const form = multipart([
        [`$ACTION_ID_${id}`, ""],
        ["sessionId", target.sessionId],
        ["firstName", "a".repeat(100 * 1024)],
      ]);
      return request("server-actions", "POST", path, { ...sameOrigin, "Content-Type": form.contentType }, form.body);
    }),
  );
  return serverActions;
}

/** Server action ids in a page's HTML (forms carry them, for posts without JavaScript). */
export function actionIdsIn(html: string): string[] {
  return [
    ...new Set(
      [...html.matchAll(/\$ACTION_ID_([0-9a-f]{40,42})|&quot;id&quot;:&quot;([0-9a-f]{40,42})&quot;|"id":"([0-9a-f]{40,42})"/g)].map(
        (m) => m[1] ?? m[2] ?? m[3]!,
      ),
    ),
  ];
}
