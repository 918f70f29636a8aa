/**
 * Which URLs the service may fetch: http(s) only, and (unless the local-development setting allows it)
 * never a loopback, private, link-local, shared, reserved or cloud-metadata address, so that the API
 * cannot be used to reach the network it runs in.
 *
 * The WHATWG URL parser already turns every IPv4 spelling (decimal "2130706433", hex "0x7f.1", octal
 * "0177.0.0.1", short "127.1") into dotted form and IPv6 into its compressed hex form, so only those two
 * forms are checked here. Names that resolve to private addresses are not resolved here: on Cloudflare,
 * Worker subrequests leave through Cloudflare's network, which does not route to private ranges.
 */

export type TargetCheck =
  | { readonly ok: true; readonly url: URL }
  | { readonly ok: false; readonly code: "invalid-url" | "forbidden-target"; readonly message: string };

export interface TargetPolicy {
  readonly allowPrivateTargets: boolean;
  readonly maxUrlLength: number;
}

const ALLOWED_SCHEMES = new Set(["http:", "https:"]);

/** Host names that always mean "this machine" or "this private network" (RFC 6761, RFC 8375, cloud metadata). */
const PRIVATE_NAME_SUFFIXES = [".localhost", ".local", ".internal", ".home.arpa", ".lan", ".intranet"];
const PRIVATE_NAMES = new Set(["localhost", "metadata", "instance-data"]);

export function checkTarget(raw: string, policy: TargetPolicy): TargetCheck {
  if (raw.length > policy.maxUrlLength) return invalid(`url is longer than ${policy.maxUrlLength} characters`);
  const url = parseAbsoluteUrl(raw);
  if (url === null) return invalid("url does not parse as an absolute URL");
  if (!ALLOWED_SCHEMES.has(url.protocol)) return invalid(`scheme ${url.protocol} is not allowed (http or https only)`);
  if (url.hostname === "") return invalid("url has no host");
  if (url.username !== "" || url.password !== "") return invalid("url must not carry credentials");
  if (policy.allowPrivateTargets) return { ok: true, url };
  const reason = privateHostReason(url.hostname);
  return reason === null
    ? { ok: true, url }
    : { ok: false, code: "forbidden-target", message: `target ${url.hostname} is ${reason}; not fetched` };
}

/** Why a (URL-normalised) host name is not a public target, or null if it is one. */
export function privateHostReason(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[")) return ipv6Reason(host.slice(1, -1));
  const ipv4 = parseDottedIpv4(host);
  if (ipv4 !== null) return ipv4Reason(ipv4);
  if (PRIVATE_NAMES.has(host) || PRIVATE_NAME_SUFFIXES.some((suffix) => host.endsWith(suffix))) return "a local name";
  if (!host.includes(".")) return "a single-label (intranet) name";
  return null;
}

/** IPv4 ranges that are not public unicast (RFC 6890 special-purpose registry): [first address, prefix length, why]. */
const IPV4_BLOCKED: ReadonlyArray<readonly [number, number, string]> = [
  [ipv4(0, 0, 0, 0), 8, "a 'this network' address"],
  [ipv4(10, 0, 0, 0), 8, "a private address"],
  [ipv4(100, 64, 0, 0), 10, "a shared (carrier NAT) address"],
  [ipv4(127, 0, 0, 0), 8, "a loopback address"],
  [ipv4(169, 254, 0, 0), 16, "a link-local or metadata address"],
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

function ipv4Reason(address: number): string | null {
  for (const [first, prefix, why] of IPV4_BLOCKED) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if (((address & mask) >>> 0) === first) return why;
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

/** Why an IPv6 address (without brackets) is not public, or null. Embedded IPv4 forms are checked as IPv4. */
function ipv6Reason(text: string): string | null {
  const groups = parseIpv6(text);
  if (groups === null) return "an unparsable IPv6 address";
  const first = groups[0];
  const upperZero = groups[0] === 0 && groups[1] === 0 && groups[2] === 0 && groups[3] === 0 && groups[4] === 0;
  const embedded = ((groups[6] << 16) | groups[7]) >>> 0;
  if (upperZero && groups[5] === 0xffff) return ipv4Reason(embedded); // ::ffff:a.b.c.d (IPv4-mapped)
  if (upperZero && groups[5] === 0) return embedded <= 1 ? "a loopback or unspecified address" : "an IPv4-compatible address";
  if (first === 0x64 && groups[1] === 0xff9b) return groups[2] === 0 ? ipv4Reason(embedded) : "a local NAT64 address";
  if (first === 0x2002) return ipv4Reason(((groups[1] << 16) | groups[2]) >>> 0); // 6to4
  if (first === 0x2001 && groups[1] === 0) return "a Teredo address";
  if (first === 0x2001 && groups[1] === 0x0db8) return "a documentation address";
  if (first === 0x0100 && groups[1] === 0 && groups[2] === 0 && groups[3] === 0) return "a discard address";
  if ((first & 0xfe00) === 0xfc00) return "a unique local (private) address";
  if ((first & 0xffc0) === 0xfe80 || (first & 0xffc0) === 0xfec0) return "a link-local or site-local address";
  if ((first & 0xff00) === 0xff00) return "a multicast address";
  return null;
}

/** Eight 16-bit groups of an IPv6 address in text form (with "::" and an optional dotted IPv4 tail), or null. */
function parseIpv6(text: string): Uint16Array | null {
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
