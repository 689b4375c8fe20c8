import { describe, expect, it } from "vitest";
import { findNginx } from "./nginx.mjs";

describe("findNginx", () => {
  it("finds nginx on PATH first, then where Debian's package puts it, and says none otherwise", () => {
    const at =
      (...files: string[]) =>
      (file: string) =>
        files.includes(file);
    expect(findNginx({ PATH: "/opt/bin:/usr/bin" }, at("/opt/bin/nginx", "/usr/sbin/nginx"))).toBe("/opt/bin/nginx");
    expect(findNginx({ PATH: "/usr/bin" }, at("/usr/sbin/nginx"))).toBe("/usr/sbin/nginx");
    expect(findNginx({}, at("/usr/local/sbin/nginx"))).toBe("/usr/local/sbin/nginx");
    expect(findNginx({ PATH: "relative/bin" }, at("relative/bin/nginx"))).toBeNull();
    expect(findNginx({ PATH: "/usr/bin" }, at())).toBeNull();
  });
});
