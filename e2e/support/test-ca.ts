import { generateKeyPairSync, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import forge from "node-forge";

/**
 * A certificate authority made at test time, and the server certificates it issues, so that TLS is
 * tested as an operator's private CA would be used (FINANCING_API_CA_FILE, NOTIFICATION_CA_FILE,
 * SANDBOX_TLS_CERT_FILE/SANDBOX_TLS_KEY_FILE), with nothing committed: every key lives for one run.
 *
 * node-forge builds and signs the X.509 certificates (Node's crypto reads certificates but makes
 * none); the RSA keys come from Node's own crypto, which is fast where forge's pure-JavaScript key
 * generation is not. Validity: from an hour ago (clock skew between processes) for two days.
 */

export interface PemPair {
  /** PEM certificate. */
  certificate: string;
  /** PEM private key (PKCS#8). */
  key: string;
}

export interface TestCa extends PemPair {
  name: string;
  /** A server certificate for these host names and IP addresses (subjectAltName), signed by this CA. */
  issue(hosts: readonly string[]): PemPair;
}

const HOUR_MS = 3_600_000;

function newKeyPair(): { forgeKey: forge.pki.rsa.PrivateKey; forgePublic: forge.pki.rsa.PublicKey; pem: string } {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  return {
    forgeKey: forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey,
    forgePublic: forge.pki.publicKeyFromPem(publicKey) as forge.pki.rsa.PublicKey,
    pem: privateKey,
  };
}

/** A random positive serial number (the high bit clear), as hex. */
function serialNumber(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString("hex");
}

function validFor(certificate: forge.pki.Certificate): void {
  certificate.validity.notBefore = new Date(Date.now() - HOUR_MS);
  certificate.validity.notAfter = new Date(Date.now() + 48 * HOUR_MS);
}

/** A new CA, its name in its subject (`CN=<name>`). */
export function createTestCa(name = "Test CA"): TestCa {
  const keys = newKeyPair();
  const caCertificate = forge.pki.createCertificate();
  caCertificate.publicKey = keys.forgePublic;
  caCertificate.serialNumber = serialNumber();
  validFor(caCertificate);
  const subject = [{ name: "commonName", value: name }];
  caCertificate.setSubject(subject);
  caCertificate.setIssuer(subject);
  caCertificate.setExtensions([
    { name: "basicConstraints", cA: true, pathLenConstraint: 0, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  caCertificate.sign(keys.forgeKey, forge.md.sha256.create());

  return {
    name,
    certificate: forge.pki.certificateToPem(caCertificate),
    key: keys.pem,
    issue(hosts) {
      if (hosts.length === 0) throw new Error("a server certificate needs at least one host name or address");
      const leafKeys = newKeyPair();
      const leaf = forge.pki.createCertificate();
      leaf.publicKey = leafKeys.forgePublic;
      leaf.serialNumber = serialNumber();
      validFor(leaf);
      leaf.setSubject([{ name: "commonName", value: hosts[0]! }]);
      leaf.setIssuer(caCertificate.subject.attributes);
      leaf.setExtensions([
        { name: "basicConstraints", cA: false, critical: true },
        { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
        { name: "extKeyUsage", serverAuth: true },
        // Type 7 is an IP address, type 2 a DNS name (RFC 5280's GeneralName).
        { name: "subjectAltName", altNames: hosts.map((host) => (isIP(host) ? { type: 7, ip: host } : { type: 2, value: host })) },
        { name: "subjectKeyIdentifier" },
        { name: "authorityKeyIdentifier", keyIdentifier: caCertificate.generateSubjectKeyIdentifier().getBytes() },
      ]);
      leaf.sign(keys.forgeKey, forge.md.sha256.create());
      return { certificate: forge.pki.certificateToPem(leaf), key: leafKeys.pem };
    },
  };
}

export interface PemFiles {
  certificateFile: string;
  keyFile: string;
}

/** Writes a certificate and its key under `dir` as `<name>.crt` and `<name>.key` (the key readable by its owner only). */
export function writePemPair(dir: string, name: string, pair: PemPair): PemFiles {
  const certificateFile = path.join(dir, `${name}.crt`);
  const keyFile = path.join(dir, `${name}.key`);
  writeFileSync(certificateFile, pair.certificate);
  writeFileSync(keyFile, pair.key, { mode: 0o600 });
  return { certificateFile, keyFile };
}

/** Writes the CA's certificate alone (what a client is told to trust) as `<name>.crt`. */
export function writeCaCertificate(dir: string, ca: TestCa, name = "ca"): string {
  const file = path.join(dir, `${name}.crt`);
  writeFileSync(file, ca.certificate);
  return file;
}
