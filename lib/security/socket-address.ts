import "server-only";
import type { IncomingMessage, Server } from "node:http";
import { SOCKET_ADDRESS_HEADER, socketStampValue } from "./client-ip";

/**
 * Route handlers and server actions see headers, never the socket. So every request is stamped,
 * as it enters Node's HTTP server and before Next reads it, with the socket's remote address in
 * an internal header; any copy the client sent is deleted first, so the header can only ever hold
 * what the server saw. Installed once from instrumentation.ts (register), on the prototype, so it
 * covers the server `next start` created before register ran; a request that server took before
 * then is not stamped, and the stamp's key (client-ip.ts) tells its header apart from this one.
 */

const INSTALLED = Symbol.for("tfc.socketAddressStamp");

type Emit = Server["emit"];

export function installSocketAddressStamp(serverPrototypes: object[]): void {
  for (const proto of serverPrototypes as (Server & { [INSTALLED]?: boolean })[]) {
    if (proto[INSTALLED]) continue;
    const original: Emit = proto.emit;
    proto.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
      if (event === "request") stamp(args[0] as IncomingMessage);
      return Reflect.apply(original, this, [event, ...args]) as boolean;
    } as Emit;
    proto[INSTALLED] = true;
  }
}

export function stamp(request: IncomingMessage): void {
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
