// Next runs this once per server start. The start-up code uses Node APIs, so it is imported only in
// the Node.js runtime (the Edge bundle never sees it).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // Before anything else: every request from now on carries the socket's address (lib/security/client-ip.ts).
    const [http, https, { installSocketAddressStamp }] = await Promise.all([
      import("node:http"),
      import("node:https"),
      import("@/lib/security/socket-address"),
    ]);
    installSocketAddressStamp([http.Server.prototype, https.Server.prototype]);
    const { startServer } = await import("@/lib/startup");
    await startServer();
  }
}
