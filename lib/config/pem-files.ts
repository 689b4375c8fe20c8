import { createPrivateKey, X509Certificate, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";

/**
 * Certificates and keys an operator names by file (a private CA to trust, a server's certificate
 * and key), read once at start and checked, so a wrong file stops the process with a message that
 * names it, never with its content (a key is a secret), instead of failing the first connection.
 */

export class PemFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PemFileError";
  }
}

const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PemFileError(`cannot read ${what} at ${file}${code ? ` (${code})` : ""}`);
  }
}

/** Every certificate in a PEM file (a bundle may hold several), each checked to be one. */
export function readCertificates(file: string): string[] {
  const text = readText(file, "the certificate file");
  const blocks = text.match(CERTIFICATE_BLOCK) ?? [];
  if (blocks.length === 0) throw new PemFileError(`${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  blocks.forEach((block, index) => {
    try {
      new X509Certificate(block);
    } catch {
      throw new PemFileError(`certificate ${index + 1} in ${file} cannot be read`);
    }
  });
  return blocks;
}

/** A PEM private key file, checked to be one; its text is never part of an error. */
export function readPrivateKey(file: string): { pem: string; key: KeyObject } {
  const pem = readText(file, "the key file");
  try {
    return { pem, key: createPrivateKey(pem) };
  } catch {
    throw new PemFileError(`${file} holds no readable PEM private key (an encrypted key is not supported)`);
  }
}

/** Whether `key` is the private key of the first certificate of `certificates` (a server's own). */
export function keyMatchesCertificate(certificates: readonly string[], key: KeyObject): boolean {
  const first = certificates[0];
  return first !== undefined && new X509Certificate(first).checkPrivateKey(key);
}
