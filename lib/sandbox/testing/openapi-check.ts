import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";

/**
 * Contract-test helper: checks an actual response of the sandbox against the OpenAPI document it
 * serves. An undocumented operation or status throws, because an answer the document does not
 * list is a contract failure in itself, not a body to validate.
 */

export interface ResponseToCheck {
  method: string;
  /** Relative to the base URL (`/operations/abc/status`); a query string or a full URL is accepted too. */
  path: string;
  status: number;
  /** The parsed JSON body; undefined (or null, or "") when there was none. */
  body: unknown;
  /** When given, documented response headers and the content type are checked too. */
  headers?: Headers | Record<string, string | undefined>;
}

export type CheckResult = { ok: true } | { ok: false; errors: string };

export interface OpenApiChecker {
  check(response: ResponseToCheck): CheckResult;
  /** `METHOD /template status` of every response checked so far, to assert a suite's coverage. */
  covered(): string[];
}

const DOC_ID = "openapi.json";
const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const escapeToken = (token: string) => token.replaceAll("~", "~0").replaceAll("/", "~1");
const unescapeToken = (token: string) => token.replaceAll("~1", "/").replaceAll("~0", "~");

function resolvePointer(doc: Node, pointer: string): unknown {
  if (!pointer.startsWith("#")) throw new Error(`Only local $refs are supported: ${pointer}`);
  const tokens = pointer.slice(1).split("/").slice(1).map(unescapeToken);
  let node: unknown = doc;
  for (const token of tokens) node = isNode(node) ? node[token] : Array.isArray(node) ? node[Number(token)] : undefined;
  return node;
}

/** Follows `$ref`s (response and header objects may be references) to the object and its pointer. */
function deref(doc: Node, node: unknown, pointer: string): { node: Node; pointer: string } {
  let current = node;
  let at = pointer;
  for (let hops = 0; isNode(current) && typeof current.$ref === "string"; hops++) {
    if (hops > 20) throw new Error(`$ref cycle at ${pointer}`);
    at = current.$ref;
    current = resolvePointer(doc, at);
  }
  if (!isNode(current)) throw new Error(`Nothing at ${at}`);
  return { node: current, pointer: at };
}

interface Route {
  template: string;
  segments: string[];
  item: Node;
}

function segmentsOf(path: string): string[] {
  return path.split("/").filter((segment) => segment !== "");
}

const isTemplated = (segment: string) => /^\{[^}]+\}$/.test(segment);

/** The request path relative to the server URL, without query or fragment. */
function relativePath(path: string, basePath: string): string {
  const pathname = /^[a-z][a-z0-9+.-]*:\/\//i.test(path) ? new URL(path).pathname : path.split(/[?#]/, 1)[0]!;
  if (basePath !== "" && (pathname === basePath || pathname.startsWith(`${basePath}/`))) return pathname.slice(basePath.length) || "/";
  return pathname;
}

function basePathOf(doc: Node): string {
  const servers = doc.servers;
  const first = Array.isArray(servers) && isNode(servers[0]) ? servers[0].url : undefined;
  if (typeof first !== "string") return "";
  return new URL(first, "http://localhost").pathname.replace(/\/+$/, "");
}

function headerValue(headers: ResponseToCheck["headers"], name: string): string | undefined {
  if (headers === undefined) return undefined;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : headers[key];
}

function formatErrors(errors: ErrorObject[] | null | undefined, subject: string): string {
  return (errors ?? [])
    .map(
      (e) =>
        `${subject}${e.instancePath || ""} ${e.message ?? "is invalid"}${Object.keys(e.params).length > 0 ? ` ${JSON.stringify(e.params)}` : ""}`,
    )
    .join("; ");
}

const isCalendarDate = (year: number, month: number, day: number) => {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
};

/*
 * ajv-formats is not installed, so the formats the document uses get small stand-ins: enough to
 * catch a sandbox that sends a local time, a bare path or a non-date, not full RFC validators.
 */
function addFormats(ajv: Ajv2020): void {
  ajv.addFormat("uri", (value: string) => {
    if (!/^[a-z][a-z0-9+.-]*:[^\s]*$/i.test(value)) return false;
    try {
      new URL(value);
      return true;
    } catch {
      return false;
    }
  });
  // RFC 3339: an offset is required, unlike the contract's lenient Date.parse check.
  ajv.addFormat("date-time", (value: string) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(value);
    return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3])) && !Number.isNaN(Date.parse(value));
  });
  ajv.addFormat("date", (value: string) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
  });
  // zod emits `format: email` together with its own `pattern`, which does the actual check.
  ajv.addFormat("email", /^[^\s@]+@[^\s@]+$/);
}

export function createOpenApiChecker(document: object): OpenApiChecker {
  // A private copy: Ajv keeps a reference to the schema it is given, and callers may mutate theirs.
  const doc = JSON.parse(JSON.stringify(document)) as Node;
  if (!isNode(doc.paths)) throw new Error("The document has no paths");

  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // The whole document is one schema resource, so `#/components/schemas/X` refs resolve as they are.
  ajv.addSchema(doc, DOC_ID);
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string): ValidateFunction => {
    let validate = validators.get(pointer);
    if (!validate) {
      const fragment = pointer
        .slice(1)
        .split("/")
        .map((token) => encodeURIComponent(token))
        .join("/");
      validate = ajv.getSchema(`${DOC_ID}#${fragment}`);
      if (!validate) throw new Error(`No schema at ${pointer}`);
      validators.set(pointer, validate);
    }
    return validate;
  };

  const routes: Route[] = Object.entries(doc.paths)
    .filter((entry): entry is [string, Node] => isNode(entry[1]))
    .map(([template, item]) => ({ template, segments: segmentsOf(template), item }));

  // Compile every schema now: a broken $ref or pattern fails when the checker is made, not mid-suite.
  const schemas = isNode(doc.components) && isNode(doc.components.schemas) ? Object.keys(doc.components.schemas) : [];
  for (const name of schemas) validatorAt(`#/components/schemas/${escapeToken(name)}`);

  const basePath = basePathOf(doc);
  const seen = new Set<string>();

  function findRoute(method: string, path: string): { route: Route; operation: Node } {
    const segments = segmentsOf(relativePath(path, basePath));
    const candidates = routes
      .filter((route) => route.segments.length === segments.length)
      .filter((route) => route.segments.every((segment, i) => isTemplated(segment) || segment === segments[i]))
      // Concrete segments win over templated ones, leftmost first, as OpenAPI path matching says.
      .sort((a, b) => {
        for (let i = 0; i < a.segments.length; i++) {
          const diff = Number(isTemplated(a.segments[i]!)) - Number(isTemplated(b.segments[i]!));
          if (diff !== 0) return diff;
        }
        return 0;
      });
    if (candidates.length === 0) throw new Error(`Undocumented path: ${method.toUpperCase()} ${path}`);
    for (const route of candidates) {
      const operation = route.item[method];
      if (isNode(operation)) return { route, operation };
    }
    throw new Error(`Undocumented operation: ${method.toUpperCase()} ${path} (path ${candidates[0]!.template})`);
  }

  function check(response: ResponseToCheck): CheckResult {
    const method = response.method.toLowerCase();
    if (!METHODS.has(method)) throw new Error(`Not an HTTP method: ${response.method}`);
    const { route, operation } = findRoute(method, response.path);
    const responses = isNode(operation.responses) ? operation.responses : {};
    const key = [String(response.status), `${String(response.status)[0]}XX`, "default"].find((k) => k in responses);
    if (key === undefined) {
      throw new Error(`Undocumented status: ${method.toUpperCase()} ${route.template} answered ${response.status}`);
    }
    const base = `#/paths/${escapeToken(route.template)}/${method}/responses/${escapeToken(key)}`;
    const { node: documented, pointer } = deref(doc, responses[key], base);
    seen.add(`${method.toUpperCase()} ${route.template} ${key}`);

    const problems: string[] = [];
    const content = isNode(documented.content) ? documented.content : undefined;
    const noBody = response.body === undefined || response.body === null || response.body === "";

    if (content === undefined) {
      if (!noBody) problems.push(`${response.status} documents no body, but one was sent: ${JSON.stringify(response.body).slice(0, 200)}`);
    } else {
      const mediaType = Object.keys(content).find((type) => type === "application/json" || type.endsWith("+json"));
      const contentType = headerValue(response.headers, "content-type");
      if (contentType !== undefined && !(contentType.split(";", 1)[0]!.trim().toLowerCase() in content)) {
        problems.push(`content-type ${contentType} is not documented (${Object.keys(content).join(", ")})`);
      }
      if (mediaType === undefined) {
        problems.push(`${response.status} documents no JSON content`);
      } else if (response.body === undefined) {
        problems.push(`${response.status} documents a JSON body, but there was none`);
      } else {
        const validate = validatorAt(`${pointer}/content/${escapeToken(mediaType)}/schema`);
        if (!validate(response.body)) problems.push(formatErrors(validate.errors, "body"));
      }
    }

    if (response.headers !== undefined && isNode(documented.headers)) {
      for (const [name, header] of Object.entries(documented.headers)) {
        const { node: spec, pointer: headerPointer } = deref(doc, header, `${pointer}/headers/${escapeToken(name)}`);
        const value = headerValue(response.headers, name);
        if (value === undefined) {
          if (spec.required === true) problems.push(`header ${name} is required but missing`);
        } else if (isNode(spec.schema)) {
          const validate = validatorAt(`${headerPointer}/schema`);
          if (!validate(value)) problems.push(formatErrors(validate.errors, `header ${name}`));
        }
      }
    }

    return problems.length === 0 ? { ok: true } : { ok: false, errors: problems.join("; ") };
  }

  return { check, covered: () => [...seen].sort() };
}
