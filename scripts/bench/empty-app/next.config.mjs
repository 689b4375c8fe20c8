import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

/** @type {import('next').NextConfig} */
const config = {
  poweredByHeader: false,
  // Next and React come from the project's node_modules, three levels up.
  turbopack: { root: path.resolve(here, "../../..") },
};

export default config;
