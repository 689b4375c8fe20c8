import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTestCa } from "@/e2e/support/test-ca";
import { keyMatchesCertificate, PemFileError, readCertificates, readPrivateKey } from "./pem-files";

const dir = mkdtempSync(path.join(tmpdir(), "pem-files-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ca = createTestCa("PEM files test CA");
const server = ca.issue(["localhost", "127.0.0.1"]);

function file(name: string, text: string): string {
  const target = path.join(dir, name);
  writeFileSync(target, text);
  return target;
}

describe("certificate and key files", () => {
  it("reads every certificate of a bundle", () => {
    const bundle = file("bundle.pem", `${server.certificate}\n${ca.certificate}`);
    expect(readCertificates(bundle)).toEqual([server.certificate.trim(), ca.certificate.trim()]);
  });

  it("names the file and why, never its content", () => {
    expect(() => readCertificates(path.join(dir, "missing.pem"))).toThrow(/cannot read the certificate file at .*missing\.pem \(ENOENT\)/);
    expect(() => readCertificates(file("key-as-cert.pem", server.key))).toThrow(PemFileError);
    const garbled = file("garbled.pem", "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n");
    expect(() => readCertificates(garbled)).toThrow(/certificate 1 in .*garbled\.pem cannot be read/);
    let thrown: unknown;
    try {
      readPrivateKey(file("cert-as-key.pem", `${server.certificate}\n# ${server.key.slice(40, 80)}`));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PemFileError);
    expect((thrown as Error).message).not.toContain(server.key.slice(40, 80));
  });

  it("tells a server's key from another", () => {
    const certificates = readCertificates(file("server.pem", server.certificate));
    expect(keyMatchesCertificate(certificates, readPrivateKey(file("server.key", server.key)).key)).toBe(true);
    expect(keyMatchesCertificate(certificates, readPrivateKey(file("ca.key", ca.key)).key)).toBe(false);
  });
});
