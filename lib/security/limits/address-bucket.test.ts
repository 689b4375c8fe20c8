import { describe, expect, it } from "vitest";
import { addressBucket } from "./address-bucket";

describe("addressBucket", () => {
  it("keeps an IPv4 address whole", () => {
    expect(addressBucket("203.0.113.7")).toBe("203.0.113.7");
  });

  it("puts every address of one IPv6 /64 in the same bucket, whatever its spelling", () => {
    const bucket = addressBucket("2001:db8:1:2::1");
    expect(bucket).toBe("2001:0db8:0001:0002::/64");
    for (const ip of ["2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:0DB8:0001:0002:0:0:0:9", "2001:db8:1:2::a:b"]) {
      expect(addressBucket(ip), ip).toBe(bucket);
    }
    expect(addressBucket("2001:db8:1:3::1")).not.toBe(bucket);
    expect(addressBucket("::1")).toBe("0000:0000:0000:0000::/64");
    expect(addressBucket("64:ff9b::198.51.100.1")).toBe("0064:ff9b:0000:0000::/64");
  });

  it("leaves what is not an address as it is", () => {
    expect(addressBucket("unknown")).toBe("unknown");
  });
});
