import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Image, Nodes } from "mdast";
import { remark } from "remark";
import { describe, expect, it } from "vitest";
import { declaredImages, GUIDE_LANGUAGES, staffGuide, staffImage, STAFF_SHOTS } from "./screenshot-list";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The images a Markdown file shows, from the repository's root. */
function imagesIn(file: string): string[] {
  const images: string[] = [];
  const visit = (node: Nodes) => {
    if (node.type === "image") images.push(path.join(path.dirname(file), (node as Image).url));
    if ("children" in node) for (const child of node.children) visit(child);
  };
  visit(remark().parse(readFileSync(path.join(ROOT, file), "utf8")));
  return images;
}

describe("the docs' screenshots (npm run docs:screenshots)", () => {
  it.each(GUIDE_LANGUAGES)("the %s staff guide shows each of the script's shots of its language, once, and no other image", (language) => {
    const shown = imagesIn(staffGuide(language));
    expect([...shown].sort()).toEqual(STAFF_SHOTS.map((shot) => staffImage(language, shot)).sort());
  });

  it("every image the script writes is in the repository", () => {
    expect(declaredImages().filter((file) => !existsSync(path.join(ROOT, file)))).toEqual([]);
  });

  it("no image is left under docs/staff/img that the script no longer takes", () => {
    const committed = readdirSync(path.join(ROOT, "docs/staff/img"), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".png"))
      .map((file) => path.join("docs/staff/img", file));
    expect(committed.filter((file) => !declaredImages().includes(file))).toEqual([]);
  });
});
