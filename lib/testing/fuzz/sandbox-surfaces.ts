import fc from "fast-check";
import { SAMPLE_WIRE_CLIENT } from "@/lib/financing/testing/samples";
import { hostileJsonBody, json, request, type FuzzRequest, type FuzzTarget } from "./request";
import { validWebhookEvent } from "./valid-bodies";
import { hostileQuery, hostileSegment, hostileString, mutated, nonObjectJson, notJson } from "./values";

/*
 * The sandbox's surfaces (lib/testing/fuzz/surfaces.ts): the financing API it stands in for, the
 * customer's pages at the provider, and its control API.
 */

export const validCreateOperationBody = {
  externalId: "FUZZ-OP-1",
  packageName: "Lisbon, 4 nights",
  packageTravel: true,
  travelersNumber: 2,
  totalPrice: 1234.5,
  successRedirectUrl: "https://shop.example.com/ok",
  errorRedirectUrl: "https://shop.example.com/ko",
  webhookUrl: "https://shop.example.com/hook",
  client: SAMPLE_WIRE_CLIENT,
  flights: [{ origin: "MAD", destination: "LIS", departureDate: "01-05-2027", carrier: "TP" }],
  hotels: [{ name: "Hotel", city: "Lisboa", checkInDate: "01-05-2027", checkOutDate: "05-05-2027" }],
  services: [{ description: "Transfer", type: "transfer" }],
};

export function sandboxSurfaces(
  target: FuzzTarget,
): Record<"sandbox-api" | "sandbox-pages" | "sandbox-control", fc.Arbitrary<FuzzRequest>> {
  const key = { "X-Service-API-Key": target.sandboxKey };
  const segment = hostileSegment;

  const sandboxApi = fc.oneof(
    hostileJsonBody(validCreateOperationBody, 64 * 1024, ["flights", "hotels", "services"]).map((body) =>
      request("sandbox-api", "POST", "/sandbox/v1/operations", { ...key, ...json }, body),
    ),
    hostileJsonBody({ operationIdentifier: "op_fuzz", financialOfferId: 1 }, 64 * 1024).map((body) =>
      request("sandbox-api", "POST", "/sandbox/v1/financing", { ...key, ...json }, body),
    ),
    hostileJsonBody(validWebhookEvent, 64 * 1024).map((body) =>
      request("sandbox-api", "PUT", "/sandbox/v1/operations/webhook-events/ack", { ...key, ...json }, body),
    ),
    fc
      .tuple(
        segment,
        fc.constantFrom("cancel", "refund"),
        fc.oneof(
          nonObjectJson,
          notJson,
          mutated({ reason: "x", agencyCancellationFee: 1, providerCancellationFee: 1 }).map((v) => JSON.stringify(v)),
        ),
      )
      .map(([id, action, body]) => request("sandbox-api", "POST", `/sandbox/v1/operations/${id}/${action}`, { ...key, ...json }, body)),
    fc
      .tuple(
        fc.oneof(segment, fc.constantFrom("9007199254740994", "1e400", "0", "-1", "NaN", "60.001", "99999999999999999999")),
        fc.option(hostileQuery(["countryCode"])),
      )
      .map(([amount, query]) => request("sandbox-api", "GET", `/sandbox/v1/financing/simulate/${amount}${query ?? ""}`, key)),
    fc
      .tuple(
        segment,
        fc.constantFrom("/status", "/refund/details", ""),
        fc.constantFrom("/sandbox/v1/operations/", "/sandbox/v1/financing/", "/sandbox/v1/operations/by-external-id/"),
      )
      .map(([id, tail, base]) => request("sandbox-api", "GET", `${base}${id}${base.endsWith("operations/") ? tail : ""}`, key)),
    hostileQuery(["page", "size", "status", "from", "to"]).map((query) =>
      request("sandbox-api", "GET", `/sandbox/v1/operations${query}`, key),
    ),
    fc.tuple(hostileString, segment).map(([badKey, tail]) =>
      request("sandbox-api", "GET", `/sandbox/v1/health/${tail}`, {
        "X-Service-API-Key": encodeURIComponent(badKey.replace(/[\ud800-\udfff]/g, "\u0000")),
      }),
    ),
  );

  const sandboxPages = fc.oneof(
    fc
      .tuple(fc.constantFrom("/sandbox/pay/financing", "/sandbox/pay/result"), hostileQuery(["operation", "token"]))
      .map(([path, query]) => request("sandbox-pages", "GET", `${path}${query}`)),
    fc
      .tuple(hostileQuery(["operation", "token"]), fc.oneof(notJson, hostileString))
      .map(([query, body]) =>
        request(
          "sandbox-pages",
          "POST",
          `/sandbox/pay/financing${query}`,
          { "Content-Type": "application/x-www-form-urlencoded" },
          `offerId=${encodeURIComponent(body.replace(/[\ud800-\udfff]/g, ""))}`,
        ),
      ),
    fc
      .tuple(segment, fc.constantFrom("", "/sign", "/decline"), fc.constantFrom("GET", "POST"))
      .map(([token, action, method]) => request("sandbox-pages", method, `/sandbox/provider/checkout/${token}${action}`)),
    segment.map((tail) => request("sandbox-pages", "GET", `/sandbox/pay/${tail}`)),
  );

  // Never a valid body: a valid fault or clock move would change the sandbox, by design.
  const sandboxControl = fc.oneof(
    fc
      .tuple(
        fc.constantFrom("/clock/advance", "/faults"),
        fc.oneof(
          nonObjectJson,
          notJson,
          mutated({ seconds: 60 }).map((v) => JSON.stringify(v)),
          mutated({ fault: "500", rate: 1 }).map((v) => JSON.stringify(v)),
        ),
      )
      .map(([path, body]) =>
        request("sandbox-control", path === "/faults" ? "PUT" : "POST", `/sandbox/_control${path}`, { ...key, ...json }, body),
      ),
    fc
      .tuple(
        segment,
        fc.constantFrom("/decision", "/webhooks", ""),
        fc.oneof(
          nonObjectJson,
          notJson,
          mutated({ decision: "approve" }).map((v) => JSON.stringify(v)),
        ),
      )
      .map(([id, tail, body]) =>
        request(
          "sandbox-control",
          tail === "/decision" ? "POST" : "GET",
          `/sandbox/_control/operations/${id}${tail}`,
          { ...key, ...json, "X-Service-Agency": "101" },
          tail === "/decision" ? body : undefined,
        ),
      ),
  );

  return {
    "sandbox-api": sandboxApi,
    "sandbox-pages": sandboxPages,
    "sandbox-control": sandboxControl,
  };
}
