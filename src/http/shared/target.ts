/**
 * Which URLs the service may fetch: http(s) only, and never a loopback, private, link-local, shared,
 * reserved or cloud-metadata address, so that the API cannot be used to reach the network it runs in.
 * Two exceptions, both for local development: origins named in an allow-list (`npm start` lists its
 * sample site), and ALLOW_PRIVATE_TARGETS (the Worker tests). Metadata addresses are refused even then.
 *
 * The WHATWG URL parser already turns every IPv4 spelling (decimal "2130706433", hex "0x7f.1", octal
 * "0177.0.0.1", short "127.1") into dotted form and IPv6 into its compressed hex form, so only those two
 * forms are checked here. Names are checked here by their spelling only; what they resolve to is checked
 * by resolve.ts (DNS over HTTPS) before every fetch, with the same address classes (`addressVerdict`).
 */

export type TargetCheck =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly code: "invalid-url" | "forbidden-target"; readonly message: string };

export interface TargetPolicy {
  /** Loopback and private targets allowed (metadata never): the Worker tests only. */
  readonly allowPrivateTargets: boolean;
  /** Origins ("http://127.0.0.1:8788") fetched whatever their address, metadata excepted. */
  readonly allowedOrigins?: ReadonlySet<string>;
  readonly maxUrlLength: number;
}

/** Why a host or address is refused; `metadata` ones are refused in every configuration. */
export interface HostVerdict {
  readonly reason: string;
  readonly metadata: boolean;
}

const ALLOWED_SCHEMES = new Set(["http:", "https:"]);
const METADATA_REASON = "a link-local or cloud metadata address";

/**
 * Host names that always mean "this machine" or "this private network": RFC 6761 and 8375, the reverse
 * zones (.arpa: in-addr.arpa, ip6.arpa, home.arpa), Kubernetes services (.svc, .cluster.local), Consul.
 */
const PRIVATE_NAME_SUFFIXES = [".localhost", ".local", ".internal", ".arpa", ".lan", ".intranet", ".svc", ".consul"];
const PRIVATE_NAMES = new Set(["localhost"]);
/** Cloud metadata services by name (GCP, AWS, the bare names some clouds answer). */
const METADATA_NAMES = new Set(["metadata", "metadata.google.internal", "instance-data", "instance-data.ec2.internal"]);

export function checkTarget(raw: string, policy: TargetPolicy): TargetCheck {
  if (raw.length > policy.maxUrlLength) return invalid(`url is longer than ${policy.maxUrlLength} characters`);
  const url = parseAbsoluteUrl(raw);
  if (url === null) return invalid("url does not parse as an absolute URL");
  if (!ALLOWED_SCHEMES.has(url.protocol)) return invalid(`scheme ${url.protocol} is not allowed (http or https only)`);
  if (url.hostname === "") return invalid("url has no host");
  if (url.username !== "" || url.password !== "") return invalid("url must not carry credentials");
  const verdict = hostVerdict(url.hostname);
  if (verdict === null || isExempt(verdict, url, policy)) return { ok: true, url };
  return { ok: false, code: "forbidden-target", message: `target ${url.hostname} is ${verdict.reason}; not fetched` };
}

/** Whether a refused host or address is let through by the development settings (never a metadata one). */
export function isExempt(verdict: HostVerdict, url: URL, policy: TargetPolicy): boolean {
  if (verdict.metadata) return false;
  return policy.allowPrivateTargets || (policy.allowedOrigins?.has(url.origin) ?? false);
}

/** Why a (URL-normalised) host name is not a public target, or null if it is one. */
export function privateHostReason(hostname: string): string | null {
  return hostVerdict(hostname)?.reason ?? null;
}

/** Why a (URL-normalised) host name or address literal is not a public target, or null if it is one. */
export function hostVerdict(hostname: string): HostVerdict | null {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[")) return addressVerdict(host.slice(1, -1));
  const ipv4 = parseDottedIpv4(host);
  if (ipv4 !== null) return ipv4Verdict(ipv4);
  if (METADATA_NAMES.has(host)) return { reason: "a cloud metadata name", metadata: true };
  if (PRIVATE_NAMES.has(host) || PRIVATE_NAME_SUFFIXES.some((suffix) => host.endsWith(suffix))) return { reason: "a local name", metadata: false };
  if (!host.includes(".")) return { reason: "a single-label (intranet) name", metadata: false };
  return null;
}

/** Why an address in text form (dotted IPv4, or IPv6 without brackets, as DNS answers give them) is not public, or null. */
export function addressVerdict(address: string): HostVerdict | null {
  const ipv4 = parseDottedIpv4(address);
  if (ipv4 !== null) return ipv4Verdict(ipv4);
  const groups = parseIpv6(address.toLowerCase());
  return groups === null ? { reason: "an unparsable IPv6 address", metadata: false } : ipv6Verdict(groups);
}

/** Whether a host is an address literal (then there is nothing to resolve). */
export function isAddressLiteral(hostname: string): boolean {
  return hostname.startsWith("[") || parseDottedIpv4(hostname.replace(/\.$/, "")) !== null;
}

/**
 * IPv4 ranges that are not public unicast (RFC 6890 special-purpose registry): [first address, prefix
 * length, why]; the first match wins, so the metadata entries come first.
 */
const IPV4_BLOCKED: ReadonlyArray<readonly [number, number, string]> = [
  [ipv4(169, 254, 0, 0), 16, METADATA_REASON], // link-local: AWS, GCP, Azure metadata at .169.254, ECS at .170.2
  [ipv4(100, 100, 100, 200), 32, METADATA_REASON], // Alibaba Cloud metadata
  [ipv4(192, 0, 0, 192), 32, METADATA_REASON], // Oracle Cloud metadata (inside 192.0.0.0/24 below)
  [ipv4(0, 0, 0, 0), 8, "a 'this network' address"],
  [ipv4(10, 0, 0, 0), 8, "a private address"],
  [ipv4(100, 64, 0, 0), 10, "a shared (carrier NAT) address"],
  [ipv4(127, 0, 0, 0), 8, "a loopback address"],
  [ipv4(172, 16, 0, 0), 12, "a private address"],
  [ipv4(192, 0, 0, 0), 24, "an IETF protocol address"],
  [ipv4(192, 0, 2, 0), 24, "a documentation address"],
  [ipv4(192, 88, 99, 0), 24, "a relay address"],
  [ipv4(192, 168, 0, 0), 16, "a private address"],
  [ipv4(198, 18, 0, 0), 15, "a benchmarking address"],
  [ipv4(198, 51, 100, 0), 24, "a documentation address"],
  [ipv4(203, 0, 113, 0), 24, "a documentation address"],
  [ipv4(224, 0, 0, 0), 4, "a multicast address"],
  [ipv4(240, 0, 0, 0), 4, "a reserved or broadcast address"],
];

function ipv4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

function ipv4Verdict(address: number): HostVerdict | null {
  for (const [first, prefix, why] of IPV4_BLOCKED) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if (((address & mask) >>> 0) === first) return { reason: why, metadata: why === METADATA_REASON };
  }
  return null;
}

const DOTTED_IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function parseDottedIpv4(host: string): number | null {
  const match = DOTTED_IPV4.exec(host);
  if (match === null) return null;
  const parts = [match[1], match[2], match[3], match[4]].map(Number);
  return parts.every((part) => part <= 255) ? ipv4(parts[0], parts[1], parts[2], parts[3]) : null;
}

/**
 * A metadata address embedded in an IPv6 one, by every form that carries an IPv4 address to where it names it:
 * IPv4-compatible, -mapped and -translated (::/96, ::ffff:0:0/96, ::ffff:0:0:0/96), NAT64 (64:ff9b::/96, and the
 * local-use 64:ff9b:1::/48 at each RFC 6052 position a prefix of /48 or longer puts it: /48, /56, /64, /96), 6to4
 * (2002::/16), Teredo (2001::/32, the client's address inverted) and ISATAP interface ids (::0:5efe:a.b.c.d,
 * ::200:5efe:a.b.c.d). A metadata service is refused in every configuration, so in every one of its spellings.
 */
function embeddedMetadata(groups: Uint16Array): HostVerdict | null {
  const metadata = (address: number): HostVerdict | null => (ipv4Verdict(address)?.metadata === true ? { reason: METADATA_REASON, metadata: true } : null);
  const last32 = ((groups[6] << 16) | groups[7]) >>> 0;
  const upperZero = groups[0] === 0 && groups[1] === 0 && groups[2] === 0 && groups[3] === 0;
  const candidates: number[] = [];
  if (upperZero && ((groups[4] === 0 && (groups[5] === 0 || groups[5] === 0xffff)) || (groups[4] === 0xffff && groups[5] === 0))) candidates.push(last32);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups[2] === 0) candidates.push(last32);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups[2] === 1) {
    // RFC 6052, 2.2: the IPv4 bits skip bits 64-71 (the "u" octet).
    const byte = (bit: number): number => (groups[bit >> 4] >> (8 - (bit & 8))) & 0xff;
    const at = (bits: readonly number[]): number => bits.reduce((address, bit) => ((address << 8) | byte(bit)) >>> 0, 0);
    candidates.push(at([48, 56, 72, 80]), at([56, 72, 80, 88]), at([72, 80, 88, 96]), last32);
  }
  if (groups[0] === 0x2002) candidates.push(((groups[1] << 16) | groups[2]) >>> 0);
  if (groups[0] === 0x2001 && groups[1] === 0) candidates.push(~last32 >>> 0);
  if ((groups[4] === 0 || groups[4] === 0x0200) && groups[5] === 0x5efe) candidates.push(last32);
  for (const address of candidates) {
    const verdict = metadata(address);
    if (verdict !== null) return verdict;
  }
  return null;
}

/** Why an IPv6 address (eight groups) is not public, or null. Embedded IPv4 forms are checked as IPv4. */
function ipv6Verdict(groups: Uint16Array): HostVerdict | null {
  const metadata = embeddedMetadata(groups);
  if (metadata !== null) return metadata;
  const reason = (text: string): HostVerdict => ({ reason: text, metadata: false });
  const first = groups[0];
  const upperZero = groups[0] === 0 && groups[1] === 0 && groups[2] === 0 && groups[3] === 0;
  const embedded = ((groups[6] << 16) | groups[7]) >>> 0;
  if (upperZero && groups[4] === 0 && groups[5] === 0xffff) return ipv4Verdict(embedded); // ::ffff:a.b.c.d (IPv4-mapped)
  if (upperZero && groups[4] === 0xffff && groups[5] === 0) return ipv4Verdict(embedded); // ::ffff:0:a.b.c.d (IPv4-translated, RFC 2765)
  if (upperZero && groups[4] === 0 && groups[5] === 0) return reason(embedded <= 1 ? "a loopback or unspecified address" : "an IPv4-compatible address");
  if (first === 0x64 && groups[1] === 0xff9b) return groups[2] === 0 ? ipv4Verdict(embedded) : reason("a local NAT64 address");
  if ((first & 0xff00) === 0) return reason("a reserved address (::/8)");
  if (first === 0x2002) return ipv4Verdict(((groups[1] << 16) | groups[2]) >>> 0); // 6to4
  if (first === 0xfd00 && groups[1] === 0x0ec2 && groups[2] === 0 && groups[3] === 0 && groups[4] === 0 && groups[5] === 0 && groups[6] === 0 && groups[7] === 0x254) {
    return { reason: "a cloud metadata address", metadata: true }; // AWS metadata over IPv6
  }
  if ((first & 0xffc0) === 0xfe80) return { reason: "a link-local address", metadata: true }; // where metadata services answer too
  // 2001::/23: IETF protocol assignments (Teredo 2001::/32, benchmarking 2001:2::/48, ORCHID 2001:10::/28, ORCHIDv2 2001:20::/28…).
  if (first === 0x2001 && groups[1] < 0x0200) return reason(groups[1] === 0 ? "a Teredo address" : "an IETF protocol address");
  if (first === 0x2001 && groups[1] === 0x0db8) return reason("a documentation address");
  if (first === 0x3fff && groups[1] < 0x1000) return reason("a documentation address"); // 3fff::/20 (RFC 9637)
  if (first === 0x5f00) return reason("a segment routing (SRv6) address"); // 5f00::/16 (RFC 9602)
  if (first === 0x0100 && groups[1] === 0 && groups[2] === 0 && groups[3] === 0) return reason("a discard address");
  if ((first & 0xfe00) === 0xfc00) return reason("a unique local (private) address");
  if ((first & 0xffc0) === 0xfec0) return reason("a site-local address");
  if ((first & 0xff00) === 0xff00) return reason("a multicast address");
  return null;
}

/** Eight 16-bit groups of an IPv6 address in text form (with "::" and an optional dotted IPv4 tail), or null. */
function parseIpv6(text: string): Uint16Array | null {
  if (text.length > 45) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] === "" ? [] : halves[0].split(":");
  const tail = halves.length === 2 && halves[1] !== "" ? halves[1].split(":") : [];
  const groups = [...head, ...tail].flatMap(expandDottedTail);
  const headCount = head.flatMap(expandDottedTail).length;
  if (groups.some((group) => group === null)) return null;
  if (halves.length === 1 ? groups.length !== 8 : groups.length > 7) return null;
  const result = new Uint16Array(8);
  const values = groups as number[];
  for (let i = 0; i < headCount; i++) result[i] = values[i];
  for (let i = headCount; i < values.length; i++) result[8 - (values.length - i)] = values[i];
  return result;
}

/** One textual group → its 16-bit values: a hex group gives one, a dotted IPv4 tail gives two; null if malformed. */
function expandDottedTail(group: string): Array<number | null> {
  const dotted = parseDottedIpv4(group);
  if (dotted !== null) return [dotted >>> 16, dotted & 0xffff];
  return /^[0-9a-f]{1,4}$/.test(group) ? [parseInt(group, 16)] : [null];
}

function parseAbsoluteUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

function invalid(message: string): TargetCheck {
  return { ok: false, code: "invalid-url", message };
}
