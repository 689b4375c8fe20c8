/**
 * The layers (docs/contributors/architecture.md) are the linter's: `npm run lint` fails on a forbidden import
 * and on an import circle. Shown here with the project's own ESLint configuration, on source text
 * given a path in the folder it would live in (and, for a circle, two files written for the test).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint, type Linter } from "eslint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// The project's configuration, without the type-aware rules: they need the file in the TypeScript
// project (a fixture is not), and the layer and circle rules need no types. The circle check reads
// the files on disk, so it is off where the fixture is text only.
const withoutTypes: Linter.Config = {
  files: ["**/*.ts"],
  languageOptions: { parserOptions: { projectService: false } },
  rules: { "@typescript-eslint/no-floating-promises": "off", "@typescript-eslint/no-misused-promises": "off" },
};
const eslint = new ESLint({ cwd: root, overrideConfig: [withoutTypes, { files: ["**/*.ts"], rules: { "import/no-cycle": "off" } }] });
const eslintOnDisk = new ESLint({ cwd: root, overrideConfig: withoutTypes });

/** The rules that failed on `code` as if it were the file at `file` (relative to the repository). */
async function failures(file: string, code: string, linter = eslint): Promise<string[]> {
  const [result] = await linter.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((message) => message.severity === 2).map((message) => `${message.ruleId}: ${message.message}`);
}

// Loading the configuration and its plugins (the TypeScript resolver among them) takes seconds,
// many on a busy machine: done once, before the tests' own timeouts start.
beforeAll(async () => {
  await Promise.all([
    eslint.lintText("export {};\n", { filePath: path.join(root, "lib/text/warm-up.ts") }),
    eslintOnDisk.calculateConfigForFile(path.join(root, "lib/text/warm-up.ts")),
  ]);
}, 180_000);

describe("the layers, enforced by the linter", () => {
  it("refuses platform code importing a domain", async () => {
    const found = await failures("lib/db/layers-fixture.ts", 'export { getSession } from "@/lib/checkout/session/sessions";\n');
    expect(found).toEqual([expect.stringMatching(/^import\/no-restricted-paths: .*Platform code imports no domain/)]);
  });

  it("refuses platform code importing a shared domain, a type included", async () => {
    const found = await failures("lib/ops/layers-fixture.ts", 'export type { FinancingClient } from "@/lib/financing/client";\n');
    expect(found).toEqual([expect.stringMatching(/^import\/no-restricted-paths: /)]);
  });

  it("refuses the checkout importing the back-office", async () => {
    const found = await failures("lib/checkout/layers-fixture.ts", 'export { authorize } from "@/lib/backoffice/operations/ownership";\n');
    expect(found).toEqual([expect.stringMatching(/^import\/no-restricted-paths: .*never import a feature domain/)]);
  });

  it("refuses lib/ importing app/", async () => {
    const found = await failures("lib/theme/layers-fixture.ts", 'export { GET } from "@/app/api/health/route";\n');
    expect(found).toContainEqual(expect.stringMatching(/^import\/no-restricted-paths: .*never import app\//));
  });

  it("refuses the sandbox importing the financing client (the contract only)", async () => {
    const found = await failures("lib/sandbox/layers-fixture.ts", 'export { createFinancingClient } from "@/lib/financing/client";\n');
    expect(found).toEqual([expect.stringMatching(/^import\/no-restricted-paths: .*the contract only/)]);
    expect(await failures("lib/sandbox/layers-fixture.ts", 'export { operationStatusSchema } from "@/lib/financing/contract";\n')).toEqual(
      [],
    );
  });

  it("lets each layer import the layers below it", async () => {
    expect(
      await failures(
        "lib/checkout/layers-fixture.ts",
        'export { getDatabase } from "@/lib/db";\nexport { isCancellable } from "@/lib/financing/contract";\n',
      ),
    ).toEqual([]);
    expect(await failures("lib/backoffice/layers-fixture.ts", 'export { getSession } from "@/lib/checkout/session/sessions";\n')).toEqual(
      [],
    );
    expect(await failures("lib/db/layers-fixture.ts", 'export { OPERATION_STATUSES } from "@/lib/vocabulary/partner-api";\n')).toEqual([]);
  });

  it("lets lib/i18n name a domain's fields by type, never import its code", async () => {
    expect(await failures("lib/i18n/layers-fixture.ts", 'export type { CustomerField } from "@/lib/checkout/session/customer";\n')).toEqual(
      [],
    );
    const found = await failures("lib/i18n/layers-fixture.ts", 'export { CUSTOMER_FIELDS } from "@/lib/checkout/session/customer";\n');
    expect(found).toEqual([expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: /)]);
  });
});

describe("import circles, refused by the linter", () => {
  let dir: string;
  beforeAll(() => {
    // Two real files: the circle check follows imports on disk. Under a testing/ folder, which the
    // layer rules leave alone, so only the circle is reported.
    dir = mkdtempSync(path.join(root, "lib/testing/layers-circle-"));
    writeFileSync(path.join(dir, "a.ts"), 'import { b } from "./b";\nexport const a = () => b();\n');
    writeFileSync(path.join(dir, "b.ts"), 'import { a } from "./a";\nexport const b = (): number => (a ? 1 : 0);\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reports a circle of two modules", async () => {
    const file = path.relative(root, path.join(dir, "a.ts"));
    const found = await failures(file, 'import { b } from "./b";\nexport const a = () => b();\n', eslintOnDisk);
    expect(found).toEqual([expect.stringMatching(/^import\/no-cycle: /)]);
  });
});
