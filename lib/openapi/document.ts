import { z } from "zod";
import {
  createDocument,
  type CreateDocumentOptions,
  type ZodOpenApiObject,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
} from "zod-openapi";

/**
 * OpenAPI 3.1 documents generated from zod schemas with `zod-openapi`: a route table becomes the
 * paths, schemas carrying an `id` in their metadata (`.meta()` or zod's global registry) become
 * components, request bodies and parameters are rendered as zod "input", responses as "output".
 * Pure: no server-only, no I/O, so any API of the project (the sandbox's partner API, our checkout
 * sessions API) and its tests can build and check its document.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export type HttpMethod = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";

export interface Route {
  method: HttpMethod;
  /** An OpenAPI path template: `{name}` for a path parameter. */
  path: string;
  operation: ZodOpenApiOperationObject;
}

const PATH_PARAMETER = /\{([^}]+)\}/g;

function pathParameterNames(operation: ZodOpenApiOperationObject): string[] {
  const path = operation.requestParams?.path;
  if (path === undefined) return [];
  if (!(path instanceof z.ZodObject)) throw new Error("requestParams.path must be a z.object");
  return Object.keys(path.shape);
}

/**
 * The paths of a route table. Throws on a method given twice for one path, and on a path template
 * whose `{parameters}` are not exactly the keys of `requestParams.path` (OpenAPI requires each
 * template parameter to be declared, and a declared one that is not in the template is a mistake).
 */
export function routesToPaths(routes: readonly Route[]): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const { method, path, operation } of routes) {
    const item = (paths[path] ??= {});
    if (item[method] !== undefined) throw new Error(`${method.toUpperCase()} ${path} is defined twice`);
    const inTemplate = [...path.matchAll(PATH_PARAMETER)].map((match) => match[1]!).sort();
    const declared = pathParameterNames(operation).sort();
    if (inTemplate.join() !== declared.join()) {
      throw new Error(
        `${method.toUpperCase()} ${path}: path parameters {${inTemplate.join(", ")}} but requestParams.path declares {${declared.join(", ")}}`,
      );
    }
    item[method] = operation;
  }
  return paths;
}

/** A JSON body: `{ "application/json": { schema } }`. */
export function jsonContent(schema: z.ZodType) {
  return { "application/json": { schema } };
}

type ComponentKind = "schemas" | "parameters" | "headers" | "responses" | "securitySchemes";

/** A generated document as plain JSON, with the parts callers index always present. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers: { url: string; description?: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, JsonObject>>;
  webhooks: Record<string, Record<string, JsonObject>>;
  components: Record<ComponentKind, Record<string, JsonObject>>;
}

const COMPONENT_KINDS: ComponentKind[] = ["schemas", "parameters", "headers", "responses", "securitySchemes"];

/**
 * `createDocument`, then a JSON round trip (the document can only hold JSON values, and callers may
 * mutate their copy), with empty lists and maps where the input had none (valid OpenAPI, and no
 * optional chains for callers).
 */
export function generateDocument(
  spec: ZodOpenApiObject & { openapi: "3.1.0" | "3.1.1" },
  options?: CreateDocumentOptions,
): OpenApiDocument {
  const generated = JSON.parse(JSON.stringify(createDocument(spec, options))) as Partial<OpenApiDocument> &
    Pick<OpenApiDocument, "openapi" | "info">;
  const components: Partial<OpenApiDocument["components"]> = generated.components ?? {};
  const unnamed = Object.keys(components.schemas ?? {}).filter((name) => name.startsWith("__schema"));
  // zod-openapi names a reused schema without an id `__schemaN`: give it an id instead.
  if (unnamed.length > 0) throw new Error(`Schemas without an id were made components: ${unnamed.join(", ")}`);
  for (const parameter of parameterObjects(generated)) {
    // zod writes a field's description into its schema too: on a parameter, it says it once.
    if (isObject(parameter.schema) && parameter.schema.description === parameter.description) delete parameter.schema.description;
  }
  return {
    ...generated,
    servers: generated.servers ?? [],
    security: generated.security ?? [],
    tags: generated.tags ?? [],
    paths: generated.paths ?? {},
    webhooks: generated.webhooks ?? {},
    components: {
      ...components,
      ...Object.fromEntries(COMPONENT_KINDS.map((kind) => [kind, components[kind] ?? {}])),
    } as OpenApiDocument["components"],
  };
}

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** The parameters of every operation (paths and webhooks) and the parameter components. */
function parameterObjects(document: Partial<OpenApiDocument>): JsonObject[] {
  const operations = [...Object.values(document.paths ?? {}), ...Object.values(document.webhooks ?? {})].flatMap((item) =>
    Object.values(item),
  );
  const parameters = [...operations.flatMap((operation) => (Array.isArray(operation.parameters) ? operation.parameters : []))];
  return [...parameters, ...Object.values(document.components?.parameters ?? {})].filter(isObject);
}
