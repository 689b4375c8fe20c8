import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientIpFrom, normalizeIp, SOCKET_ADDRESS_HEADER, socketStampValue } from "./client-ip";
import { stampSocketAddress } from "./socket-address";

const headers = (entries: Record<string, string>) => new Headers(entries);

describe("the client IP", () => {
  it("with no trusted proxy is the socket's: X-Forwarded-For spoofing does not change the key", () => {
    const socket = { [SOCKET_ADDRESS_HEADER]: socketStampValue("203.0.113.9") };
    const keys = ["198.51.100.1", "198.51.100.2, 10.0.0.1", "1.2.3.4", "", "not-an-ip"].map((xff) =>
      clientIpFrom(headers({ ...socket, ...(xff ? { "x-forwarded-for": xff } : {}) }), 0),
    );
    expect(new Set(keys)).toEqual(new Set(["203.0.113.9"]));
  });

  it("behind N proxies is the Nth X-Forwarded-For entry from the right, never the first", () => {
    const socket = { [SOCKET_ADDRESS_HEADER]: socketStampValue("10.0.0.2") };
    // The client wrote "6.6.6.6"; our proxy appended the address it saw (203.0.113.5).
    expect(clientIpFrom(headers({ ...socket, "x-forwarded-for": "6.6.6.6, 203.0.113.5" }), 1)).toBe("203.0.113.5");
    // A new spoofed value per request: still the same key.
    expect(clientIpFrom(headers({ ...socket, "x-forwarded-for": "7.7.7.7, 8.8.8.8, 203.0.113.5" }), 1)).toBe("203.0.113.5");
    // Two proxies: a CDN appended the client, our load balancer appended the CDN.
    expect(clientIpFrom(headers({ ...socket, "x-forwarded-for": "6.6.6.6, 203.0.113.5, 192.0.2.80" }), 2)).toBe("203.0.113.5");
  });

  it("falls back to the socket when X-Forwarded-For has fewer entries than proxies, and says unknown without either", () => {
    expect(clientIpFrom(headers({ [SOCKET_ADDRESS_HEADER]: socketStampValue("10.0.0.2"), "x-forwarded-for": "203.0.113.5" }), 2)).toBe(
      "10.0.0.2",
    );
    expect(clientIpFrom(headers({}), 0)).toBe("unknown");
    expect(clientIpFrom(headers({ [SOCKET_ADDRESS_HEADER]: socketStampValue("10.0.0.2"), "x-forwarded-for": "garbage" }), 1)).toBe(
      "unknown",
    );
  });

  it("normalises IPv4-mapped IPv6, brackets and ports, and refuses anything that is not an address", () => {
    expect(normalizeIp("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(normalizeIp("[2001:DB8::1]:443")).toBe("2001:db8::1");
    expect(normalizeIp("192.0.2.1:8080")).toBe("192.0.2.1");
    expect(normalizeIp("ip:unknown")).toBeUndefined();
    expect(normalizeIp("x".repeat(500))).toBeUndefined();
  });

  it("is stamped from the socket on every request, and a client-sent copy of the header is deleted first", () => {
    const request = {
      headers: { [SOCKET_ADDRESS_HEADER]: "6.6.6.6", host: "example" },
      rawHeaders: ["Host", "example", "X-TFC-Socket-Address", "6.6.6.6"],
      socket: { remoteAddress: "::ffff:203.0.113.7" },
    } as unknown as IncomingMessage;
    stampSocketAddress(request);
    expect(request.headers[SOCKET_ADDRESS_HEADER]).toBe(socketStampValue("::ffff:203.0.113.7"));
    expect(request.rawHeaders).toEqual(["Host", "example", SOCKET_ADDRESS_HEADER, socketStampValue("::ffff:203.0.113.7")]);
    expect(clientIpFrom(headers({ [SOCKET_ADDRESS_HEADER]: request.headers[SOCKET_ADDRESS_HEADER] as string }), 0)).toBe("203.0.113.7");
  });

  it("believes only the server's stamp: a request never stamped (Next's own server run without the entry) keeps a forged copy, which is ignored", () => {
    // `next start` or `next dev` run directly never stamp: such a request reaches the app with the
    // header exactly as the client wrote it.
    const forged = ["6.6.6.6", "::ffff:6.6.6.6", "x 6.6.6.6", `${"A".repeat(24)} 6.6.6.6`, socketStampValue("6.6.6.6").replace(/^./, "#")];
    for (const value of forged) {
      expect(clientIpFrom(headers({ [SOCKET_ADDRESS_HEADER]: value }), 0)).toBe("unknown");
      // Behind proxies too, when X-Forwarded-For is short and the socket is the fallback.
      expect(clientIpFrom(headers({ [SOCKET_ADDRESS_HEADER]: value, "x-forwarded-for": "203.0.113.5" }), 2)).toBe("unknown");
    }
  });
});
