import { sniffBody } from "../../page";
import { ServiceError, type ErrorCode } from "./errors";

/**
 * Reading bodies under a byte limit and a deadline, without ever cutting a page short: a body over the
 * limit is either refused (request bodies) or handed back whole as a stream (fetched pages, passed through).
 */

export type BodyRead =
  | { readonly kind: "complete"; readonly bytes: Uint8Array }
  /** Over the limit: `stream` yields the bytes read so far, then the rest, unchanged. */
  | { readonly kind: "too-large"; readonly stream: ReadableStream<Uint8Array> }
  | { readonly kind: "timeout" };

/** What reading a fetched page gives: a body read under the limit, or one whose Content-Encoding went wrong. */
export type FetchedBodyRead =
  | BodyRead
  /** A body decoded from its Content-Encoding (decodeFetchedResponse; in Node, the runtime) that is over the limit decoded, or does not
   * decode (corrupt, or mislabelled): never passed through, since a few KB of gzip can decode to gigabytes. */
  | { readonly kind: "bad-encoding"; readonly message: string };

/** What a body that breaks part-way throws: by default a 502 (an origin's body), never a truncated page. */
export interface BrokenBody {
  readonly code: ErrorCode;
  readonly message: string;
}

const BROKEN_ORIGIN_BODY: BrokenBody = { code: "origin-unreachable", message: "the connection closed before the whole body arrived" };
/**
 * A fetched response's body under the limit, counted in decoded bytes: the origin's Content-Encoding is undone as the
 * body is read (decodeFetchedResponse, or Node's fetch), so with one the count is of what it decoded, and a body over the limit
 * or that fails to decode is "bad-encoding" (a clean origin-error for the caller), never a pass-through.
 */
export async function readFetchedBody(response: Response, maxBytes: number, timeoutMs: number): Promise<FetchedBodyRead> {
  const coding = contentCoding(response.headers);
  if (coding === null) return readBodyLimited(response.body, maxBytes, timeoutMs);
  const broken = { code: "origin-error" as const, message: "the page does not decode as its Content-Encoding says" };
  try {
    const read = await readBodyLimited(response.body, maxBytes, timeoutMs, broken);
    if (read.kind !== "too-large") return read;
    await read.stream.cancel().catch(() => undefined);
    return { kind: "bad-encoding", message: `the page is over ${maxBytes} bytes once decoded; not passed through` };
  } catch (error) {
    if (error instanceof ServiceError) return { kind: "bad-encoding", message: error.message };
    throw error;
  }
}

/**
 * Content codings of fetched pages this service undoes itself, and the Accept-Encoding it asks origins for. In
 * workerd a body is fetched raw (encodeResponseBody "manual") and decoded here, where a body that does not decode is
 * an error on our read: left to the runtime, a mislabelled or corrupt gzip body threw inside workerd where nothing
 * catches it once the inspector's network view reads the body too (wrangler dev, npm start), ending the process.
 * "deflate" is zlib-wrapped by the standard and raw from some servers: the first two bytes say which.
 */
const FETCHED_CODINGS: ReadonlyMap<string, "gzip" | "deflate"> = new Map<string, "gzip" | "deflate">([
  ["gzip", "gzip"],
  ["x-gzip", "gzip"],
  ["deflate", "deflate"],
]);
export const FETCH_ACCEPT_ENCODING = "gzip, deflate";

/** A fetched response with its body decoded by us (still labelled encoded, so that readFetchedBody counts it as
 * encoded: never passed through over the limit), or why it cannot be. */
export type DecodedFetch = { readonly ok: true; readonly response: Response } | { readonly ok: false; readonly message: string };

/** `response` (fetched raw) with its Content-Encoding undone as its body is read; a coding we do not read is refused. */
export function decodeFetchedResponse(response: Response): DecodedFetch {
  const coding = contentCoding(response.headers);
  if (coding === null || response.body === null) return { ok: true, response };
  const format = FETCHED_CODINGS.get(coding);
  if (format === undefined) return { ok: false, message: `the page's Content-Encoding (${coding.slice(0, 40)}) is not one this service reads (it asks for ${FETCH_ACCEPT_ENCODING})` };
  const body = format === "gzip" ? response.body.pipeThrough(new DecompressionStream("gzip")) : inflated(response.body);
  // Labelled gzip whatever it came in, without its (encoded) length: workerd gzips a body so labelled on its way out
  // and encodes no other coding, so a body passed through (the proxy) reaches the client as its label says.
  const headers = new Headers(response.headers);
  headers.set("content-encoding", "gzip");
  headers.delete("content-length");
  return { ok: true, response: new Response(body, { status: response.status, statusText: response.statusText, headers }) };
}

/** Whether two bytes open a zlib stream (RFC 1950: method 8, header check a multiple of 31). */
function opensZlibStream(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && (bytes[0] & 0x0f) === 8 && ((bytes[0] << 8) | bytes[1]) % 31 === 0;
}

/** A "deflate" body decoded as zlib or as raw deflate, whichever its first bytes say. */
function inflated(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let decoded: ReadableStreamDefaultReader<Uint8Array> | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (decoded === null) {
        const head: Uint8Array[] = [];
        let length = 0;
        while (length < 2) {
          const step = await reader.read();
          if (step.done) break;
          head.push(step.value);
          length += step.value.byteLength;
        }
        const first = concatenate(head, length);
        const format = opensZlibStream(first) ? "deflate" : "deflate-raw";
        decoded = prependChunks([first], reader).pipeThrough(new DecompressionStream(format)).getReader();
      }
      const step = await decoded.read();
      if (step.done) controller.close();
      else controller.enqueue(step.value);
    },
    cancel(reason) {
      return (decoded ?? reader).cancel(reason);
    },
  });
}

/** The origin's Content-Encoding ("gzip", "br", "deflate", or a list), or null when none or identity. */
export function contentCoding(headers: Headers): string | null {
  const coding = (headers.get("content-encoding") ?? "").trim().toLowerCase();
  return coding === "" || coding === "identity" ? null : coding;
}

/** Whether a fetched response declares a body over the limit that may be passed through unread: its declared length
 * is the length of what is passed, so not when it is encoded (the length is then of the compressed bytes). */
export function declaredTooLarge(response: Response, maxBytes: number): boolean {
  return response.body !== null && contentCoding(response.headers) === null && Number(response.headers.get("content-length") ?? "0") > maxBytes;
}

export async function readBodyLimited(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  timeoutMs: number,
  broken: BrokenBody = BROKEN_ORIGIN_BODY,
): Promise<BodyRead> {
  if (body === null) return { kind: "complete", bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const step = await readWithDeadline(reader, deadline, broken);
    if (step === "timeout") {
      reader.cancel().catch(() => undefined);
      return { kind: "timeout" };
    }
    if (step.done) return { kind: "complete", bytes: concatenate(chunks, total) };
    chunks.push(step.value);
    total += step.value.byteLength;
    if (total > maxBytes) return { kind: "too-large", stream: prependChunks(chunks, reader) };
  }
}

async function readWithDeadline(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  deadline: number,
  broken: BrokenBody,
): Promise<ReadableStreamReadResult<Uint8Array> | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), Math.max(0, deadline - Date.now()));
  });
  // A read that loses the race and fails later (the stream is cancelled on timeout) must not go unhandled.
  const read = reader.read().then(
    (step) => step,
    () => "failed" as const,
  );
  try {
    const step = await Promise.race([read, timeout]);
    if (step === "failed") throw new ServiceError(broken.code, broken.message);
    return step;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

function concatenate(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** A stream of `chunks` followed by whatever `reader` still has. */
function prependChunks(chunks: Uint8Array[], reader: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (index < chunks.length) {
        controller.enqueue(chunks[index]);
        chunks[index++] = EMPTY;
        return;
      }
      const step = await reader.read();
      if (step.done) controller.close();
      else controller.enqueue(step.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

const EMPTY = new Uint8Array(0);

/** Media types of HTML pages: the ones we clean. */
export const HTML_MEDIA_TYPES = new Set(["text/html", "application/xhtml+xml"]);
/** Media types that say nothing about the content, so the body is sniffed instead. */
const UNDECLARED_MEDIA_TYPES = new Set(["", "application/octet-stream"]);

/** The media type of a Content-Type value, lower case, without parameters ("" when absent). */
export function mediaType(contentType: string | null | undefined): string {
  return (contentType ?? "").split(";")[0].trim().toLowerCase();
}

/** Whether a body with this Content-Type and these first bytes is HTML we can take. */
export function isHtmlBody(contentType: string | null | undefined, bytes: Uint8Array): boolean {
  const type = mediaType(contentType);
  const sniff = sniffBody(bytes);
  if (HTML_MEDIA_TYPES.has(type)) return sniff !== "binary";
  if (UNDECLARED_MEDIA_TYPES.has(type)) return sniff === "html" || sniff === "utf-16";
  return false;
}

/** Content codings a request body may use. Undone before the size limit applies, so a small compressed body cannot expand past it. */
const DECOMPRESSIBLE: ReadonlyMap<string, "gzip" | "deflate"> = new Map<string, "gzip" | "deflate">([
  ["gzip", "gzip"],
  ["x-gzip", "gzip"],
  ["deflate", "deflate"],
]);

/** A request's body as plain bytes (gzip and deflate undone), or null if its Content-Encoding is not one we read. */
export function requestBodyStream(request: Request): ReadableStream<Uint8Array> | null {
  const coding = (request.headers.get("content-encoding") ?? "").trim().toLowerCase();
  if (coding === "" || coding === "identity" || request.body === null) return request.body;
  const format = DECOMPRESSIBLE.get(coding);
  return format === undefined ? null : request.body.pipeThrough(new DecompressionStream(format));
}

/** A small request body (JSON of the MCP endpoint, the admin routes) read whole, or the error to answer with. */
export type RequestText =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly code: "payload-too-large" | "bad-request" | "unsupported-media-type"; readonly message: string };

/** `request`'s body as text, its Content-Encoding undone, refused past `maxBytes` (413, the limit named) unread. */
export async function readRequestText(request: Request, maxBytes: number, timeoutMs: number): Promise<RequestText> {
  const stream = requestBodyStream(request);
  if (stream === null) return { ok: false, code: "unsupported-media-type", message: "content-encoding must be gzip, deflate or none" };
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes && request.headers.get("content-encoding") === null) {
    await stream.cancel().catch(() => undefined);
    return tooLargeRequest(maxBytes);
  }
  const body = await readBodyLimited(stream, maxBytes, timeoutMs, { code: "bad-request", message: "the body could not be read to its end" });
  if (body.kind === "too-large") {
    await body.stream.cancel().catch(() => undefined);
    return tooLargeRequest(maxBytes);
  }
  if (body.kind === "timeout") return { ok: false, code: "bad-request", message: "the request body did not arrive in time" };
  return { ok: true, text: new TextDecoder().decode(body.bytes) };
}

function tooLargeRequest(maxBytes: number): RequestText {
  return { ok: false, code: "payload-too-large", message: `the body is over the limit of ${maxBytes} bytes` };
}
