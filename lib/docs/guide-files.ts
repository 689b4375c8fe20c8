import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { guideHtml, type Guide } from "./guides";

/**
 * A guide's page content, read from the repository's Markdown where the app runs (`npm run serve`
 * runs from the repository's folder, as the API reference's script is read from node_modules);
 * undefined when the file or its section is missing.
 */
export async function readGuideHtml(guide: Guide, root = process.cwd()): Promise<string | undefined> {
  let text: string;
  try {
    // Not traced into the build: the guides are read where the app runs, from the repository.
    text = await readFile(path.join(/*turbopackIgnore: true*/ root, guide.file), "utf8");
  } catch {
    return undefined;
  }
  return guideHtml(guide, text);
}
