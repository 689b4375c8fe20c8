import { defineConfig } from "drizzle-kit";

// Only generation runs through drizzle-kit; the app applies migrations itself on start
// (lib/db/connection.ts), so no credentials are needed here.
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema.ts",
  out: "./lib/db/migrations",
  strict: true,
  verbose: true,
});
