import { describe, expect, it } from "vitest";
import { checkTarget } from "../../src/http";
import { addressVerdict, hostVerdict } from "../../src/http/shared/target";

// The target guard, run inside workerd so the URL parser is the one the Worker uses in production.
const STRICT = { allowPrivateTargets: false, maxUrlLength: 8192 };
const DEVELOPMENT = { allowPrivateTargets: true, maxUrlLength: 8192 };

function verdict(url: string, policy = STRICT): string {
  const check = checkTarget(url, policy);
  return check.ok ? "ok" : check.code;
}

describe("target guard", () => {
  it("refuses loopback in every spelling the URL parser accepts", () => {
    for (const url of [
      "http://127.0.0.1/",
      "http://127.1/",
      "http://2130706433/", // decimal
      "http://0x7f000001/", // hex
      "http://0x7f.0.0.1/",
      "http://0177.0.0.1/", // octal
      "http://127.255.255.254:8080/x",
      "http://localhost/",
      "http://LOCALHOST./",
      "http://app.localhost/",
      "http://[::1]/",
      "http://[0:0:0:0:0:0:0:1]/",
      "http://[::ffff:127.0.0.1]/", // IPv4-mapped
      "http://[::ffff:7f00:1]/",
      "http://[::]/",
      "http://0.0.0.0/",
      "http://0/",
    ]) {
      expect(verdict(url), url).toBe("forbidden-target");
    }
  });

  it("refuses private, link-local, shared, multicast and metadata addresses", () => {
    for (const url of [
      "http://10.0.0.1/",
      "http://172.16.5.4/",
      "http://172.31.255.255/",
      "http://192.168.1.1/",
      "http://100.64.0.1/",
      "http://169.254.169.254/latest/meta-data/", // cloud metadata
      "http://[fd00:ec2::254]/", // AWS metadata over IPv6 (unique local)
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://metadata/",
      "http://[fe80::1]/",
      "http://[fc00::1]/",
      "http://[ff02::1]/",
      "http://[::ffff:10.1.2.3]/",
      "http://[::ffff:169.254.169.254]/",
      "http://[::ffff:0:169.254.169.254]/", // IPv4-translated form of the metadata address
      "http://[::ffff:0:7f00:1]/",
      "http://[2001:10::1]/", // ORCHID
      "http://[2001:2::1]/", // benchmarking
      "http://[2001:20::5]/", // ORCHIDv2
      "http://[5f00::1]/", // SRv6
      "http://[3fff::1]/", // documentation (RFC 9637)
      "http://[3fff:fff::1]/",
      "http://[fd00:ec2::254]/",
      "http://kubernetes.default.svc/",
      "http://vault.service.consul/",
      "http://1.0.0.127.in-addr.arpa/",
      "http://1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.ip6.arpa/",
      "http://metadata.google.internal./",
      "http://[64:ff9b::a9fe:a9fe]/", // NAT64 of 169.254.169.254
      "http://[2002:c0a8:101::1]/", // 6to4 of 192.168.1.1
      "http://224.0.0.1/",
      "http://255.255.255.255/",
      "http://printer.local/",
      "http://intranet/",
    ]) {
      expect(verdict(url), url).toBe("forbidden-target");
    }
  });

  it("lets public hosts and addresses through", () => {
    for (const url of [
      "https://example.com/a?b=c",
      "http://www.bbc.co.uk/news",
      "http://8.8.8.8/",
      "http://172.32.0.1/", // just outside 172.16.0.0/12
      "http://100.128.0.1/", // just outside 100.64.0.0/10
      "http://[2606:4700::6810:85e5]/",
      "http://[::ffff:8.8.8.8]/",
      "http://[::ffff:0:8.8.8.8]/",
      "http://[2001:4860:4860::8888]/",
      "http://[2001:200::1]/", // just outside 2001::/23
      "http://[3fff:1000::1]/", // just outside 3fff::/20
      "http://[5f01::1]/",
      "http://svc.example.com/",
      "http://consul.io/",
      "http://xn--bcher-kva.example/",
    ]) {
      expect(verdict(url), url).toBe("ok");
    }
  });

  it("answers invalid-url for bad schemes, credentials, relative or malformed URLs and very long ones", () => {
    for (const url of [
      "ftp://example.com/",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "data:text/html,<p>x</p>",
      "gopher://example.com/",
      "http://user:pass@example.com/",
      "/relative/path",
      "example.com",
      "http://",
      "http://exa mple.com/",
      "",
      `https://example.com/${"a".repeat(9000)}`,
    ]) {
      expect(verdict(url), url).toBe("invalid-url");
    }
  });

  it("allows private targets only under the development setting, and metadata addresses never", () => {
    expect(verdict("http://127.0.0.1:8788/", DEVELOPMENT)).toBe("ok");
    expect(verdict("http://[::1]/", DEVELOPMENT)).toBe("ok");
    expect(verdict("ftp://127.0.0.1/", DEVELOPMENT)).toBe("invalid-url");
    for (const url of ["http://169.254.169.254/", "http://[::ffff:169.254.169.254]/", "http://[::ffff:0:a9fe:a9fe]/", "http://[fd00:ec2::254]/", "http://100.100.100.200/", "http://metadata.google.internal/", "http://metadata/", "http://[fe80::1]/"]) {
      expect(verdict(url, DEVELOPMENT), url).toBe("forbidden-target");
    }
  });

  it("allows exactly the listed origins, and never a metadata one", () => {
    const policy = { ...STRICT, allowedOrigins: new Set(["http://127.0.0.1:8788", "http://169.254.169.254"]) };
    expect(verdict("http://127.0.0.1:8788/page.html", policy)).toBe("ok");
    expect(verdict("http://127.0.0.1:8789/", policy)).toBe("forbidden-target");
    expect(verdict("https://127.0.0.1:8788/", policy)).toBe("forbidden-target");
    expect(verdict("http://127.0.0.1:1/", policy)).toBe("forbidden-target");
    expect(verdict("http://169.254.169.254/latest/meta-data/", policy)).toBe("forbidden-target");
  });

  it("classifies resolved addresses as DNS answers spell them", () => {
    expect(addressVerdict("127.0.0.1")?.reason).toBe("a loopback address");
    expect(addressVerdict("0:0:0:0:0:0:0:1")?.reason).toBe("a loopback or unspecified address");
    expect(addressVerdict("0:0:0:0:ffff:0:a9fe:a9fe")).toEqual({ reason: "a link-local or cloud metadata address", metadata: true });
    expect(addressVerdict("2001:10:0:0:0:0:0:1")?.reason).toBe("an IETF protocol address");
    expect(addressVerdict("93.184.215.14")).toBeNull();
    expect(addressVerdict("2606:4700:0:0:0:0:6810:85e5")).toBeNull();
    expect(hostVerdict("10.0.0.1")).toEqual({ reason: "a private address", metadata: false });
    expect(hostVerdict("example.com")).toBeNull();
  });
});
