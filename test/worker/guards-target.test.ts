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

  // docs/security.md: metadata addresses "in every spelling, in every configuration" (strict, ALLOW_PRIVATE_TARGETS,
  // an allow-listed origin), as URLs and as the addresses a resolver answers with.
  it("refuses a metadata address in every spelling, in every configuration", () => {
    const spellings = [
      "169.254.169.254", "2852039166", "0xa9fea9fe", "0251.0376.0251.0376", "0xa9.0xfe.0xa9.0xfe", "169.254.43518", // AWS, GCP, Azure
      "192.0.0.192", "3221225664", // Oracle Cloud
      "100.100.100.200", // Alibaba Cloud
      "[::a9fe:a9fe]", "[::169.254.169.254]", // IPv4-compatible
      "[::ffff:a9fe:a9fe]", "[::ffff:169.254.169.254]", "[::ffff:0:a9fe:a9fe]", // mapped, translated
      "[64:ff9b::a9fe:a9fe]", "[64:ff9b::169.254.169.254]", "[64:ff9b::c000:c0]", // NAT64 well-known prefix
      "[64:ff9b:1::a9fe:a9fe]", // NAT64 local-use prefix, /96 position
      "[64:ff9b:1:a9fe:a9:fe00::]", // … /48 position (bits 48-63, then 72-87)
      "[64:ff9b:1:a9:fe:a9fe::]", // … /56 position
      "[64:ff9b:1:0:a9:fea9:fe00:0]", // … /64 position
      "[2002:a9fe:a9fe::1]", // 6to4
      "[2001:0:4136:e378:8000:63bf:5601:5601]", // Teredo, client address inverted
      "[fe80::5efe:a9fe:a9fe]", "[2001:db8::200:5efe:a9fe:a9fe]", // ISATAP interface ids
      "[fd00:ec2::254]", "[fe80::a9fe:a9fe]", // AWS over IPv6; link-local
      "metadata", "metadata.google.internal", "instance-data",
    ];
    const origins = new Set(spellings.map((host) => new URL(`http://${host}/`).origin));
    const policies = { strict: STRICT, "private targets allowed": DEVELOPMENT, "origin allow-listed": { ...DEVELOPMENT, allowedOrigins: origins } };
    for (const [name, policy] of Object.entries(policies)) {
      for (const host of spellings) {
        const url = `http://${host}/latest/meta-data/`;
        expect(checkTarget(url, policy), `${name}: ${url}`).toMatchObject({ ok: false, code: "forbidden-target" });
        expect(hostVerdict(new URL(url).hostname)?.metadata, url).toBe(true);
      }
    }
    for (const host of spellings.filter((host) => host.startsWith("[") || /^(?:0|[1-9]\d{0,2})(?:\.(?:0|[1-9]\d{0,2})){3}$/.test(host))) {
      const address = host.replace(/^\[|\]$/g, "");
      expect(addressVerdict(address)?.metadata, `DNS answer ${address}`).toBe(true);
    }
  });

  it("does not take a public IPv6 address for metadata because its last bits look like one", () => {
    expect(addressVerdict("2606:4700::a9fe:a9fe")).toBeNull();
    expect(addressVerdict("2a00:1450:4001::c000:c0")).toBeNull();
  });
});
