import "server-only";
import type { IncomingMessage } from "node:http";
import { SOCKET_ADDRESS_HEADER, socketStampValue } from "./client-ip";

/**
 * Route handlers and server actions see headers, never the socket. So the server entry (server.ts)
 * stamps every request, before Next reads it, with the socket's remote address in an internal
 * header; any copy the client sent is deleted first, so the header can only ever hold what the
 * server saw (and carries this process's key: lib/security/network/client-ip.ts).
 */
export function stampSocketAddress(request: IncomingMessage): void {
  delete request.headers[SOCKET_ADDRESS_HEADER];
  // rawHeaders too: a framework that rebuilds headers from it must not find the client's copy.
  const raw = request.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    if (raw[i]!.toLowerCase() === SOCKET_ADDRESS_HEADER) raw.splice(i, 2);
  }
  const value = socketStampValue(request.socket?.remoteAddress ?? "");
  request.headers[SOCKET_ADDRESS_HEADER] = value;
  raw.push(SOCKET_ADDRESS_HEADER, value);
}
