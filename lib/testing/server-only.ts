// Stand-in for the `server-only` marker package under Vitest, which runs server modules directly.
export {};
