// The journey bench's customer (scripts/bench-journey.ts): a browser without JavaScript, over fetch.

/** A customer's browser without JavaScript: cookies per origin, no redirect followed by itself. */
export class Customer {
  private readonly jars = new Map<string, Map<string, string>>();
  appRequests = 0;

  constructor(private readonly app: string) {}

  async send(url: string, init: RequestInit = {}): Promise<Response> {
    const { origin } = new URL(url);
    if (origin === this.app) this.appRequests++;
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    this.jars.set(origin, jar);
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set("Cookie", [...jar].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const at = pair.indexOf("=");
      if (at > 0) jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    return response;
  }

  async page(url: string, step: string): Promise<string> {
    const response = await this.send(url);
    const html = await response.text();
    if (response.status !== 200) throw new Error(`${step}: ${response.status}`);
    return html;
  }

  /** A form sent as a browser sends it, from the page's origin; the redirect it answers. */
  async post(url: string, fields: [string, string][], step: string): Promise<string> {
    const body = new FormData();
    for (const [name, value] of fields) body.append(name, value);
    const response = await this.send(url, { method: "POST", body, headers: { Origin: new URL(url).origin } });
    await response.arrayBuffer();
    const location = response.headers.get("location");
    if (response.status !== 303 || !location) throw new Error(`${step}: ${response.status}`);
    return new URL(location, url).href;
  }

  /**
   * A GET as a browser sends it: the URL it redirects to (the next request of the navigation), or
   * undefined when it answers a page itself (200). Anything else fails the step.
   */
  async redirectOf(url: string, step: string): Promise<string | undefined> {
    const response = await this.send(url);
    await response.arrayBuffer();
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status <= 399 && location) return new URL(location, url).href;
    if (response.status === 200) return undefined;
    throw new Error(`${step}: ${response.status}`);
  }

  /** Follows the app's own redirects from `url` (each a request of this step) to the first URL that is not one of them. */
  async follow(url: string, step: string): Promise<string> {
    let at = url;
    for (let hops = 0; new URL(at).origin === this.app && hops < 5; hops++) {
      const response = await this.send(at);
      await response.arrayBuffer();
      const location = response.headers.get("location");
      if (response.status < 300 || response.status > 399 || !location) {
        if (response.status === 200) return at;
        throw new Error(`${step}: ${response.status}`);
      }
      at = new URL(location, at).href;
    }
    return at;
  }
}
