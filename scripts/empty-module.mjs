// What `server-only` becomes in the compiled server entry (scripts/build-server.mjs).
export {};
