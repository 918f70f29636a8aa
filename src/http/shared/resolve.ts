/**
 * Name resolution before fetching: a host name is looked up over DNS over HTTPS (RFC 8484, wire format,
 * GET ?dns=) at a configured resolver, and every A and AAAA answer is checked with the same address
 * classes as address literals (target.ts). A name with any forbidden answer is refused; a name that
 * cannot be resolved is reported as unreachable (the same answer as a refused connection).
 *
 * Answers are kept in a small per-isolate cache for at most their TTL (and RESOLVE_CACHE_MAX_MS), so a
 * page with many subrequests to one host costs one lookup.
 *
 * What this does not close: the fetch that follows resolves the name again, by the runtime's own
 * resolver, so a name that changes its answer between the two lookups (DNS rebinding with a zero TTL)
 * can still reach what the check refused. See docs/security.md.
 */
import { addressVerdict, type HostVerdict } from "./target";

export interface ResolverSettings {
  /** The DoH endpoint, e.g. https://cloudflare-dns.com/dns-query. */
  readonly url: string;
  readonly timeoutMs: number;
}

export type Resolution =
  | { readonly ok: true; readonly addresses: readonly string[] }
  /** `forbidden`: an answer is a refused address; `unresolved`: no answer, or the resolver failed. */
  | { readonly ok: false; readonly kind: "forbidden"; readonly address: string; readonly verdict: HostVerdict }
  | { readonly ok: false; readonly kind: "unresolved"; readonly detail: string };

const TYPE_A = 1;
const TYPE_CNAME = 5;
const TYPE_AAAA = 28;
/** How many CNAME targets are looked up in turn when a resolver answers with the alias alone. */
const MAX_CNAME_HOPS = 4;
/** Longest time an answer is kept, in milliseconds, whatever its TTL: short, so a changed record is seen soon. */
const RESOLVE_CACHE_MAX_MS = 60_000;
/** How long "no such name" or a resolver failure is kept, in milliseconds. */
const RESOLVE_NEGATIVE_CACHE_MS = 5_000;
/** Most names kept per isolate; the oldest entry goes first past it. */
const RESOLVE_CACHE_ENTRIES = 2_000;

interface CacheEntry {
  readonly expires: number;
  readonly addresses: readonly string[];
}

const cache = new Map<string, CacheEntry>();

/** The addresses a name resolves to (A and AAAA, CNAMEs followed), each checked; cached for a short while. */
export async function resolveAndCheck(hostname: string, resolver: ResolverSettings): Promise<Resolution> {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  const lookup = await cachedLookup(name, resolver);
  if (!lookup.ok) return lookup;
  if (lookup.addresses.length === 0) return { ok: false, kind: "unresolved", detail: `${name} has no A or AAAA record` };
  for (const address of lookup.addresses) {
    const verdict = addressVerdict(address);
    if (verdict !== null) return { ok: false, kind: "forbidden", address, verdict };
  }
  return lookup;
}

/** Empties the cache (tests; a resolver change). */
export function clearResolveCache(): void {
  cache.clear();
}

async function cachedLookup(name: string, resolver: ResolverSettings): Promise<Resolution> {
  const key = `${resolver.url} ${name}`;
  const hit = cache.get(key);
  if (hit !== undefined && hit.expires > Date.now()) return { ok: true, addresses: hit.addresses };
  const answers = await Promise.all([lookupFollowing(name, TYPE_A, resolver), lookupFollowing(name, TYPE_AAAA, resolver)]);
  const failed = answers.find((answer) => !answer.ok);
  if (failed !== undefined && !failed.ok) return { ok: false, kind: "unresolved", detail: failed.detail };
  const addresses = answers.flatMap((answer) => (answer.ok ? answer.addresses : []));
  const ttl = Math.min(...answers.map((answer) => (answer.ok ? answer.ttlMs : 0)));
  if (cache.size >= RESOLVE_CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(key, { expires: Date.now() + (addresses.length === 0 ? RESOLVE_NEGATIVE_CACHE_MS : Math.min(ttl, RESOLVE_CACHE_MAX_MS)), addresses });
  return { ok: true, addresses };
}

type Lookup = { readonly ok: true; readonly addresses: string[]; readonly ttlMs: number } | { readonly ok: false; readonly detail: string };

/** One record type for a name; an answer holding only a CNAME is followed by asking for its target. */
async function lookupFollowing(name: string, type: number, resolver: ResolverSettings): Promise<Lookup> {
  let current = name;
  for (let hop = 0; hop <= MAX_CNAME_HOPS; hop++) {
    const answer = await query(current, type, resolver);
    if (!answer.ok) return answer;
    if (answer.message.addresses.length > 0 || answer.message.cname === null) {
      return { ok: true, addresses: answer.message.addresses, ttlMs: answer.message.ttlSeconds * 1000 };
    }
    current = answer.message.cname;
  }
  return { ok: false, detail: `${name}: more than ${MAX_CNAME_HOPS} CNAMEs` };
}

async function query(name: string, type: number, resolver: ResolverSettings): Promise<{ ok: true; message: DnsAnswer } | { ok: false; detail: string }> {
  const url = new URL(resolver.url);
  url.searchParams.set("dns", base64Url(encodeQuery(name, type)));
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), resolver.timeoutMs);
  try {
    const response = await fetch(url.href, { headers: { accept: "application/dns-message" }, signal: controller.signal });
    if (!response.ok) {
      await response.body?.cancel();
      return { ok: false, detail: `the resolver answered ${response.status}` };
    }
    const message = parseAnswer(new Uint8Array(await response.arrayBuffer()), type);
    return message === null ? { ok: false, detail: "the resolver's answer is malformed" } : { ok: true, message };
  } catch {
    return { ok: false, detail: controller.signal.aborted ? "the resolver did not answer in time" : "the resolver could not be reached" };
  } finally {
    clearTimeout(timer);
  }
}

/** A DNS query message (RFC 1035 4.1) for one name and type, recursion desired, id 0 (RFC 8484 4.1). */
export function encodeQuery(name: string, type: number): Uint8Array {
  const labels = name.split(".").filter((label) => label !== "");
  const encoder = new TextEncoder();
  const parts: number[] = [0, 0, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0];
  for (const label of labels) {
    const bytes = encoder.encode(label).slice(0, 63);
    parts.push(bytes.length, ...bytes);
  }
  parts.push(0, type >> 8, type & 0xff, 0, 1);
  return new Uint8Array(parts);
}

export interface DnsAnswer {
  /** Addresses of the asked type, in text form. */
  readonly addresses: string[];
  /** The last CNAME target in the answer, when it holds no address of the asked type. */
  readonly cname: string | null;
  /** Smallest TTL among the answers, in seconds. */
  readonly ttlSeconds: number;
}

/** Reads the answer section of a DNS response; null when malformed or an error other than "no such name". */
export function parseAnswer(bytes: Uint8Array, type: number): DnsAnswer | null {
  if (bytes.length < 12) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const rcode = view.getUint8(3) & 0x0f;
  const empty: DnsAnswer = { addresses: [], cname: null, ttlSeconds: RESOLVE_NEGATIVE_CACHE_MS / 1000 };
  if (rcode === 3) return empty; // NXDOMAIN
  if (rcode !== 0) return null;
  const questions = view.getUint16(4);
  const answers = view.getUint16(6);
  let offset = 12;
  for (let index = 0; index < questions; index++) {
    const end = skipName(bytes, offset);
    if (end < 0) return null;
    offset = end + 4;
  }
  const addresses: string[] = [];
  let cname: string | null = null;
  let ttlSeconds = Number.POSITIVE_INFINITY;
  for (let index = 0; index < answers; index++) {
    const end = skipName(bytes, offset);
    if (end < 0 || end + 10 > bytes.length) return null;
    const recordType = view.getUint16(end);
    const ttl = view.getUint32(end + 4);
    const length = view.getUint16(end + 8);
    const data = end + 10;
    if (data + length > bytes.length) return null;
    if (recordType === type && type === TYPE_A && length === 4) addresses.push(bytes.subarray(data, data + 4).join("."));
    if (recordType === type && type === TYPE_AAAA && length === 16) addresses.push(ipv6Text(bytes.subarray(data, data + 16)));
    if (recordType === TYPE_CNAME) cname = readName(bytes, data);
    if (recordType === type || recordType === TYPE_CNAME) ttlSeconds = Math.min(ttlSeconds, ttl);
    offset = data + length;
  }
  if (addresses.length > 0) cname = null;
  return { addresses, cname, ttlSeconds: Number.isFinite(ttlSeconds) ? ttlSeconds : empty.ttlSeconds };
}

/** Offset after a (possibly compressed) name, or -1. */
function skipName(bytes: Uint8Array, offset: number): number {
  let position = offset;
  while (position < bytes.length) {
    const length = bytes[position];
    if (length === 0) return position + 1;
    if ((length & 0xc0) === 0xc0) return position + 2 <= bytes.length ? position + 2 : -1;
    position += length + 1;
  }
  return -1;
}

/** A (possibly compressed) name as text; pointers are followed a bounded number of times. */
function readName(bytes: Uint8Array, offset: number): string | null {
  const labels: string[] = [];
  let position = offset;
  for (let jumps = 0; jumps < 32 && position < bytes.length; ) {
    const length = bytes[position];
    if (length === 0) return labels.join(".");
    if ((length & 0xc0) === 0xc0) {
      if (position + 1 >= bytes.length) return null;
      position = ((length & 0x3f) << 8) | bytes[position + 1];
      jumps++;
      continue;
    }
    if (position + 1 + length > bytes.length) return null;
    labels.push(new TextDecoder().decode(bytes.subarray(position + 1, position + 1 + length)).toLowerCase());
    position += length + 1;
  }
  return null;
}

function ipv6Text(bytes: Uint8Array): string {
  const groups: string[] = [];
  for (let index = 0; index < 16; index += 2) groups.push(((bytes[index] << 8) | bytes[index + 1]).toString(16));
  return groups.join(":");
}

function base64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
