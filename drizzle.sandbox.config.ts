import { defineConfig } from "drizzle-kit";

// The partner API sandbox's own schema and migrations (a separate system that may share the app's
// database): `npx drizzle-kit generate --config drizzle.sandbox.config.ts`. The sandbox applies
// them itself on start (lib/sandbox/db/connection.ts), recorded in sandbox.__drizzle_migrations.
export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/sandbox/db/schema.ts",
  out: "./lib/sandbox/db/migrations",
  schemaFilter: ["sandbox"],
  strict: true,
  verbose: true,
});
