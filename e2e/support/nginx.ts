import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { findNginx as findNginxIn, NGINX_INSTALL_HINT } from "../../scripts/nginx.mjs";

/**
 * nginx from Debian's packages, run by a test as the production recipe says
 * (docs/operators/production.md): its site configuration is read from that page, so the test runs
 * what an operator copies, with only the ports and the certificate's files changed. The main
 * configuration is the test's own (Debian's /etc/nginx/nginx.conf with everything in a temporary
 * folder): `nginx -p <dir> -c <dir>/nginx.conf -g 'daemon off;'`, on loopback ports.
 */

export const RECIPE_PAGE = path.join(process.cwd(), "docs", "operators", "production.md");

/** nginx on PATH or where Debian's package puts it (scripts/nginx.mjs). */
export function findNginx(): string | undefined {
  return findNginxIn(process.env) ?? undefined;
}

export const NGINX_MISSING = `nginx is not installed. ${NGINX_INSTALL_HINT}`;

/** The fenced block of `language` whose first line starts with `firstLine`, from the recipe page. */
export function recipeBlock(language: string, firstLine: string, page = readFileSync(RECIPE_PAGE, "utf8")): string {
  const blocks = [...page.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)];
  const block = blocks.find(([, lang, body]) => lang === language && body!.startsWith(firstLine));
  if (!block) throw new Error(`${RECIPE_PAGE} has no \`\`\`${language} block starting with "${firstLine}"`);
  return block[2]!;
}

/** `NAME=value` lines of the recipe's environment file. */
export function recipeEnvironment(): Record<string, string> {
  const body = recipeBlock("sh", "# /etc/travel-checkout/env");
  return Object.fromEntries(
    body
      .split("\n")
      .filter((line) => /^[A-Z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

export interface RecipeSite {
  httpsPort: number;
  httpPort: number;
  upstreamPorts: [number, number];
  certificateFile: string;
  keyFile: string;
}

/** The recipe's site configuration, its ports and certificate files replaced; each replacement must find its text. */
export function recipeSiteConfig(site: RecipeSite): string {
  let config = recipeBlock("nginx", "# /etc/nginx/sites-available/travel-checkout");
  const replace = (from: string, to: string) => {
    if (!config.includes(from)) throw new Error(`the recipe's nginx configuration no longer has "${from}": update e2e/support/nginx.ts`);
    config = config.replaceAll(from, to);
  };
  replace("listen 443 ssl http2;", `listen 127.0.0.1:${site.httpsPort} ssl http2;`);
  replace("listen [::]:443 ssl http2;", `listen [::1]:${site.httpsPort} ssl http2;`);
  replace("listen 80;", `listen 127.0.0.1:${site.httpPort};`);
  replace("listen [::]:80;", `listen [::1]:${site.httpPort};`);
  replace("server 127.0.0.1:3001 ", `server 127.0.0.1:${site.upstreamPorts[0]} `);
  replace("server 127.0.0.1:3002 ", `server 127.0.0.1:${site.upstreamPorts[1]} `);
  replace("ssl_certificate /etc/ssl/travel-checkout/fullchain.pem;", `ssl_certificate ${site.certificateFile};`);
  replace("ssl_certificate_key /etc/ssl/travel-checkout/privkey.pem;", `ssl_certificate_key ${site.keyFile};`);
  return config;
}

export interface Nginx {
  child: ChildProcess;
  output: string[];
  /** The access log: one line a request, with the upstream that answered it. */
  accessLog(): string;
  errorLog(): string;
  stop(): Promise<void>;
}

function portOpen(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** Starts nginx in the foreground with `site` as its one site, everything else under `dir`; resolves once it listens on `port`. */
export async function startNginx(binary: string, dir: string, site: string, port: number): Promise<Nginx> {
  const temp = path.join(dir, "temp");
  mkdirSync(temp, { recursive: true });
  // Run as root, nginx's workers drop to `nobody`: they must reach the folder and write its temporary files.
  chmodSync(dir, 0o755);
  chmodSync(temp, 0o777);
  const siteFile = path.join(dir, "travel-checkout.conf");
  writeFileSync(siteFile, site);
  const main = `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
    log_format recipe '$remote_addr "$request" $status upstream=$upstream_addr/$upstream_status xff="$http_x_forwarded_for"';
    access_log ${dir}/access.log recipe;
    client_body_temp_path ${temp}/body;
    proxy_temp_path ${temp}/proxy;
    fastcgi_temp_path ${temp}/fastcgi;
    uwsgi_temp_path ${temp}/uwsgi;
    scgi_temp_path ${temp}/scgi;
    include ${siteFile};
}
`;
  const mainFile = path.join(dir, "nginx.conf");
  writeFileSync(mainFile, main);
  const test = spawn(binary, ["-t", "-p", dir, "-e", path.join(dir, "error.log"), "-c", mainFile], { stdio: ["ignore", "pipe", "pipe"] });
  const testOutput: string[] = [];
  test.stderr.on("data", (chunk: Buffer) => testOutput.push(chunk.toString()));
  const tested = await new Promise<number | null>((resolve) => test.on("close", resolve));
  if (tested !== 0) throw new Error(`nginx -t refused the recipe's configuration:\n${testOutput.join("")}\n--- site ---\n${site}`);

  const child = spawn(binary, ["-p", dir, "-e", path.join(dir, "error.log"), "-c", mainFile, "-g", "daemon off;"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  child.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const read = (file: string) => {
    try {
      return readFileSync(path.join(dir, file), "utf8");
    } catch {
      return "";
    }
  };
  const nginx: Nginx = {
    child,
    output,
    accessLog: () => read("access.log"),
    errorLog: () => read("error.log"),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        // SIGQUIT: nginx's graceful stop (SIGTERM is its fast one).
        child.kill("SIGQUIT");
      }),
  };
  const deadline = Date.now() + 20_000;
  while (!(await portOpen(port, "127.0.0.1"))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`nginx did not start listening on ${port}:\n${output.join("")}\n${nginx.errorLog()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return nginx;
}
