import "server-only";
import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { rootCertificates } from "node:tls";
import { checkDestinationUrl, checkResolvedAddresses, type DestinationPolicy } from "./addresses";

/**
 * A POST to a URL someone else chose (a partner's notification URL), under the address policy of
 * lib/security/network/addresses.ts: the host name is resolved here, every address it resolves to is
 * checked, and the connection is pinned to the checked address (the socket's own lookup answers
 * with it), so a name that resolves to something else a moment later (DNS rebinding) is never
 * asked again. TLS still checks the certificate against the host name, trusting the public CAs and
 * those the caller adds (an operator's private CA). No redirect is followed.
 */

export type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolve: Resolve = (host) => dnsLookup(host, { all: true, verbatim: true });

export class DestinationRefused extends Error {
  constructor(reason: string) {
    super(`destination refused: ${reason}`);
    this.name = "DestinationRefused";
  }
}

export interface PostOptions {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  policy: DestinationPolicy;
  /** CAs (PEM) trusted beside the public ones for an https destination (NOTIFICATION_CA_FILE). */
  caCertificates?: readonly string[] | undefined;
  /** Tests: a resolver of their own. */
  resolve?: Resolve;
}

/** The answer's status; the body is read and dropped. Throws DestinationRefused, or a network/timeout error. */
export async function postToCheckedDestination(rawUrl: string, options: PostOptions): Promise<{ status: number }> {
  const checkedUrl = checkDestinationUrl(rawUrl, options.policy);
  if (!checkedUrl.ok) throw new DestinationRefused(checkedUrl.reason);
  const { url, host } = checkedUrl.value;

  let resolved: { address: string; family: number }[];
  if (isIP(host) !== 0) resolved = [{ address: host, family: isIP(host) }];
  else {
    try {
      resolved = await (options.resolve ?? systemResolve)(host);
    } catch {
      throw new DestinationRefused("the host name did not resolve");
    }
  }
  const checked = checkResolvedAddresses(
    resolved.map((entry) => entry.address),
    options.policy,
    host,
  );
  if (!checked.ok) throw new DestinationRefused(checked.reason);
  const pinned = resolved[0]!;

  // Whatever the socket asks (one address, or all of them for family auto-selection): the checked one.
  const pinnedLookup = ((_hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (lookupOptions?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;

  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const signal = AbortSignal.timeout(options.timeoutMs);
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: "POST",
        headers: { ...options.headers, "Content-Length": String(Buffer.byteLength(options.body)) },
        lookup: pinnedLookup,
        signal,
        // One request per connection: a pinned socket is never reused for another destination.
        agent: false,
        // `ca` replaces the default trust store: the public roots are given again, the private CA beside them.
        ...(options.caCertificates?.length ? { ca: [...rootCertificates, ...options.caCertificates] } : {}),
      },
      (response: IncomingMessage) => {
        response.on("error", reject);
        response.on("end", () => resolve({ status: response.statusCode ?? 0 }));
        response.resume();
      },
    );
    request.on("error", (error) => reject(signal.aborted ? new Error(`no answer within ${options.timeoutMs} ms`) : error));
    request.end(options.body);
  });
}
