// Next runs this once per server start. The start-up code uses Node APIs, so it is imported only in
// the Node.js runtime (the Edge bundle never sees it).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startServer } = await import("@/lib/startup");
    await startServer();
  }
}
