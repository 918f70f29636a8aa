/**
 * Resolving a page's URL references against its base, for the Markdown and article writers. The URL parser
 * costs microseconds a call (it parses the base again each time, and throws on what it cannot parse), which a
 * page of 200,000 links turned into seconds; the two forms that links mostly take, a path from the root
 * ("/a/b") and one from the base's folder ("a/b"), are joined to the parsed base here, when they hold nothing
 * the parser would change (no dot segment, backslash, percent-encoded character or white space): the same
 * result, without the parser.
 */

/** A path reference the parser leaves as written: characters it neither encodes nor reads specially ("'" is encoded in queries, "%" checked). */
const PLAIN_REFERENCE = /^[A-Za-z0-9\-._~!$&()*+,;=:@/?#]*$/;
/** A "." or ".." path segment, which the parser removes (anywhere: conservative, the query included). */
const DOT_SEGMENT = /(?:^|\/)\.{1,2}(?:[/?#]|$)/;

/** A resolved reference: its absolute form and its scheme ("https:"). */
export interface ResolvedReference {
  readonly href: string;
  readonly protocol: string;
}

export class ReferenceResolver {
  /** The parsed base as text (undefined: none, or it does not parse). */
  private readonly base: string | undefined;
  /** Scheme, "scheme://host:port" of an http(s) base, and its path up to its last "/"; origin null: every reference goes to the parser. */
  private readonly protocol: string = "";
  private readonly origin: string | null = null;
  private readonly folder: string = "";

  constructor(base: string | undefined) {
    const parsed = base === undefined ? null : parse(base, undefined);
    this.base = parsed?.href;
    if (parsed !== null && (parsed.protocol === "http:" || parsed.protocol === "https:")) {
      this.protocol = parsed.protocol;
      this.origin = parsed.origin;
      this.folder = parsed.pathname.slice(0, parsed.pathname.lastIndexOf("/") + 1);
    }
  }

  /** Whether there is a base to resolve against. */
  get hasBase(): boolean {
    return this.base !== undefined;
  }

  /** The reference resolved against the base, or null when it does not parse (with no base, only an absolute URL parses). */
  resolve(reference: string): ResolvedReference | null {
    const joined = this.joined(reference);
    if (joined !== null) return { href: joined, protocol: this.protocol };
    if (this.base === undefined && !HAS_SCHEME_PART.test(reference.replace(URL_IGNORED_CHARACTERS, ""))) return null;
    return parse(reference, this.base);
  }

  /** The absolute URL of a plain root or folder reference, joined without the parser; null for any other. */
  private joined(reference: string): string | null {
    if (this.origin === null || reference === "" || !PLAIN_REFERENCE.test(reference) || DOT_SEGMENT.test(reference)) return null;
    const first = reference.charCodeAt(0);
    if (first === 0x2f /* / */) return reference.charCodeAt(1) === 0x2f ? null : this.origin + reference;
    if (first === 0x3f /* ? */ || first === 0x23 /* # */ || HAS_SCHEME_PART.test(reference)) return null;
    return this.origin + this.folder + reference;
  }
}

/** What the URL parser strips or drops from a reference (C0 controls, space, DEL), before looking for a scheme. */
export const URL_IGNORED_CHARACTERS = /[\u0000-\u0020\u007f]/g;
/** A ":" before any "/", "?" or "#": the reference may carry a scheme (every absolute URL does). */
export const HAS_SCHEME_PART = /^[^/?#]*:/;

function parse(reference: string, base: string | undefined): URL | null {
  try {
    return new URL(reference, base);
  } catch {
    return null; // URL.canParse is missing from the Workers type declarations; the constructor is the test
  }
}
