import type { Metadata } from "next";
import { headers } from "next/headers";
import { getEnv } from "@/lib/env";
import { CHECKOUT_API_DOCUMENT, referenceConfiguration, SANDBOX_API_DOCUMENT } from "@/lib/docs/reference";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "API reference" };

/*
 * /docs: the API reference for integrators, rendered in the browser by Scalar (served from our
 * origin by /docs/scalar.js) from our documents: the checkout sessions API, and the partner API's
 * sandbox when this deployment serves it. The page's scripts carry this response's nonce; Scalar
 * writes its styles into <style> elements, which the policy only accepts with that nonce, so the
 * first script gives every <style> created on this page the nonce before Scalar loads. Without
 * JavaScript, the links to the documents remain.
 */
export default async function DocsPage() {
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  const documents = [CHECKOUT_API_DOCUMENT, ...(getEnv().SANDBOX_ENABLED ? [SANDBOX_API_DOCUMENT] : [])];
  return (
    <main id="main">
      <h1 className="sr-only">API reference</h1>
      <nav aria-label="OpenAPI documents" className="px-4 py-2 text-sm">
        <ul className="flex flex-wrap gap-4">
          {documents.map((document) => (
            <li key={document.slug}>
              <a className="underline" href={document.url}>
                {document.title} (OpenAPI JSON)
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div id="api-reference" />
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: STYLE_NONCE_SCRIPT }} />
      <script nonce={nonce} src="/docs/scalar.js" />
      <script
        nonce={nonce}
        dangerouslySetInnerHTML={{
          __html: `window.Scalar.createApiReference("#api-reference", ${jsonForScript(referenceConfiguration(documents))});`,
        }}
      />
    </main>
  );
}

/** Gives each <style> element created from now on this page the nonce of the script that runs it. */
const STYLE_NONCE_SCRIPT = `(function () {
  var nonce = document.currentScript && document.currentScript.nonce;
  if (!nonce) return;
  var create = document.createElement;
  document.createElement = function (tagName) {
    var element = create.apply(this, arguments);
    if (String(tagName).toLowerCase() === "style") element.setAttribute("nonce", nonce);
    return element;
  };
})();`;

/** JSON that cannot close the <script> element it is written into. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replaceAll("<", "\\u003c");
}
