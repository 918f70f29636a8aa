import { describe, expect, it } from "vitest";
import { checkTarget } from "../../src/http";

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

  it("allows private targets only under the development setting", () => {
    expect(verdict("http://127.0.0.1:8788/", DEVELOPMENT)).toBe("ok");
    expect(verdict("http://[::1]/", DEVELOPMENT)).toBe("ok");
    expect(verdict("ftp://127.0.0.1/", DEVELOPMENT)).toBe("invalid-url");
  });
});
