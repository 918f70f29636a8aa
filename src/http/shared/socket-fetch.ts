/**
 * A page fetched over a TCP socket (workerd's `cloudflare:sockets`) instead of the runtime's fetch(): what
 * origin-fetch.ts uses in workerd for plain http wherever addresses are pinned (local and self-hosted modes; an
 * https URL by name is refused there, and TLS to a checked address would name the address to the certificate).
 * Two reasons:
 * - the socket goes to the address the guard checked and nowhere else, and the request names the host;
 * - the runtime never reads the origin's answer. With a DevTools session attached to the Worker (wrangler dev,
 *   and so `npm start`, attach one to show requests), workerd decodes every fetch() body labelled gzip for that
 *   view, outside any code of ours, and a body that does not decode threw where nothing catches it, ending the
 *   process. Here the body's Content-Encoding is undone by decodeFetchedResponse (body.ts), whose errors are ours.
 * HTTP/1.1, `Connection: close`; a request body goes with its Content-Length, or chunked; an answer's body is framed
 * by chunked transfer coding, Content-Length or the end of the connection. Any malformed answer throws, as a failed
 * fetch() does (origin-fetch answers it as unreachable).
 */

interface Socket {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  readonly opened: Promise<unknown>;
  readonly closed: Promise<unknown>;
  close(): Promise<void>;
}
interface SocketsModule {
  connect(address: { hostname: string; port: number }): Socket;
}

/** Longest status line and headers taken, in bytes: Node's HTTP parser stops at 16 KiB; four times that leaves room. */
const MAX_HEAD_BYTES = 64 * 1024;
/** Longest chunk-size or trailer line, in bytes. */
const MAX_CHUNK_LINE_BYTES = 4 * 1024;
/** Request headers the socket's own framing decides. */
const FRAMING_HEADERS = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive", "upgrade", "te", "trailer", "proxy-connection"]);
const STATUSES_WITHOUT_BODY = new Set([204, 205, 304]);

/** A malformed answer from an origin (the message goes to the log; the client sees "could not reach"). */
class MalformedAnswer extends Error {}

/** What is sent: the method, the headers (framing ones are the socket's own) and a body, of `bodyLength` bytes where
 * the client said (sent with that Content-Length, as some origins require), else streamed chunked. */
export interface SocketRequestInit {
  readonly method: string;
  readonly headers: Headers;
  readonly body: ReadableStream<Uint8Array> | null;
  readonly bodyLength: number | null;
}

/**
 * Requests `url` from `address` (an IP address, or the host itself where there is none to pin). `signal` aborts the
 * wait for the answer's head; the body is then read by the caller under its own deadline.
 */
export async function fetchOverSocket(url: URL, address: string, init: SocketRequestInit, signal: AbortSignal): Promise<Response> {
  // Imported where it is used, so that this module loads in Node too (the CLI fetches with Node's fetch).
  const sockets = (await import("cloudflare:sockets")) as SocketsModule;
  if (url.protocol !== "http:") throw new MalformedAnswer(`${url.protocol} is not fetched over a socket (plain http only)`);
  const socket = sockets.connect({ hostname: address.replace(/^\[|\]$/g, ""), port: Number(url.port) || 80 });
  // A connection lost is answered through the reads and writes that meet it; `closed` would reject unhandled.
  socket.closed.catch(() => undefined);
  const close = (): void => void socket.close().catch(() => undefined);
  const onAbort = (): void => close();
  signal.addEventListener("abort", onAbort);
  try {
    await socket.opened;
    const writer = socket.writable.getWriter();
    writer.closed.catch(() => undefined);
    await writer.write(new TextEncoder().encode(requestHead(url, init)));
    if (init.body !== null) await (init.bodyLength === null ? writeChunked(writer, init.body) : writeExactly(writer, init.body, init.bodyLength));
    writer.releaseLock();
    const source = new ByteSource(socket.readable.getReader());
    const head = await readHead(source);
    const body = init.method === "HEAD" ? null : bodyOf(head, source, close);
    if (body === null) close();
    return new Response(body, { status: head.status, statusText: head.statusText, headers: head.headers });
  } catch (error) {
    close();
    throw error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

function requestHead(url: URL, init: SocketRequestInit): string {
  const lines = [`${init.method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`];
  for (const [name, value] of init.headers) if (!FRAMING_HEADERS.has(name)) lines.push(`${name}: ${value}`);
  if (init.body !== null) lines.push(init.bodyLength === null ? "Transfer-Encoding: chunked" : `Content-Length: ${init.bodyLength}`);
  lines.push("Connection: close", "", "");
  return lines.join("\r\n");
}

/** A request body of a declared length: exactly that many bytes, or an error (never a request cut short unsaid). */
async function writeExactly(writer: WritableStreamDefaultWriter<Uint8Array>, body: ReadableStream<Uint8Array>, length: number): Promise<void> {
  let written = 0;
  const reader = body.getReader();
  for (let step = await reader.read(); !step.done; step = await reader.read()) {
    written += step.value.byteLength;
    if (written > length) throw new MalformedAnswer(`the request body is longer than its Content-Length (${length})`);
    await writer.write(step.value);
  }
  if (written !== length) throw new MalformedAnswer(`the request body is shorter than its Content-Length (${length})`);
}

/** A request body in chunked transfer coding (RFC 9112, 7.1), its length unknown in advance. */
async function writeChunked(writer: WritableStreamDefaultWriter<Uint8Array>, body: ReadableStream<Uint8Array>): Promise<void> {
  const encoder = new TextEncoder();
  const reader = body.getReader();
  for (let step = await reader.read(); !step.done; step = await reader.read()) {
    if (step.value.byteLength === 0) continue;
    await writer.write(encoder.encode(`${step.value.byteLength.toString(16)}\r\n`));
    await writer.write(step.value);
    await writer.write(encoder.encode("\r\n"));
  }
  await writer.write(encoder.encode("0\r\n\r\n"));
}

interface Head {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
}

/** The final answer's status line and headers (interim 1xx answers skipped). */
async function readHead(source: ByteSource): Promise<Head> {
  let budget = MAX_HEAD_BYTES;
  for (;;) {
    const statusLine = await source.line(budget);
    budget -= statusLine.length + 2;
    const status = /^HTTP\/1\.[01] ([1-5]\d\d)(?: (.*))?$/.exec(statusLine);
    if (status === null) throw new MalformedAnswer(`not an HTTP/1.x status line: ${statusLine.slice(0, 60)}`);
    const headers = new Headers();
    for (;;) {
      const line = await source.line(budget);
      budget -= line.length + 2;
      if (line === "") break;
      const colon = line.indexOf(":");
      if (colon <= 0 || /^\s/.test(line)) throw new MalformedAnswer("a malformed header line");
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    const code = Number(status[1]);
    if (code >= 200) return { status: code, statusText: status[2] ?? "", headers };
  }
}

/** The body as its framing says, or null where the status has none. */
function bodyOf(head: Head, source: ByteSource, close: () => void): ReadableStream<Uint8Array> | null {
  if (STATUSES_WITHOUT_BODY.has(head.status)) return null;
  const transfer = (head.headers.get("transfer-encoding") ?? "").toLowerCase();
  if (transfer !== "") {
    if (!/(^|,)\s*chunked\s*$/.test(transfer)) throw new MalformedAnswer(`transfer coding ${transfer.slice(0, 40)} without chunked last`);
    return streamOf(chunked(source), close);
  }
  const lengths = new Set((head.headers.get("content-length") ?? "").split(",").map((value) => value.trim()).filter((value) => value !== ""));
  if (lengths.size > 1) throw new MalformedAnswer("Content-Length values that differ");
  if (lengths.size === 1) {
    const [length] = lengths;
    if (!/^\d{1,15}$/.test(length)) throw new MalformedAnswer("a malformed Content-Length");
    return streamOf(exactly(source, Number(length)), close);
  }
  return streamOf(untilClosed(source), close);
}

async function* exactly(source: ByteSource, length: number): AsyncGenerator<Uint8Array> {
  let remaining = length;
  while (remaining > 0) {
    const bytes = await source.take(remaining);
    remaining -= bytes.byteLength;
    yield bytes;
  }
}

async function* untilClosed(source: ByteSource): AsyncGenerator<Uint8Array> {
  for (let bytes = await source.takeAny(); bytes !== null; bytes = await source.takeAny()) yield bytes;
}

/** RFC 9112, 7.1: chunk-size lines (extensions ignored), data, CRLF; a zero size, trailers, an empty line. */
async function* chunked(source: ByteSource): AsyncGenerator<Uint8Array> {
  for (;;) {
    const sizeText = (await source.line(MAX_CHUNK_LINE_BYTES)).split(";")[0].trim();
    if (!/^[0-9a-fA-F]{1,12}$/.test(sizeText)) throw new MalformedAnswer("a malformed chunk size");
    const size = parseInt(sizeText, 16);
    if (size === 0) break;
    yield* exactly(source, size);
    if ((await source.line(2)) !== "") throw new MalformedAnswer("a chunk not followed by CRLF");
  }
  while ((await source.line(MAX_CHUNK_LINE_BYTES)) !== "") {
    // trailers: read past, not used
  }
}

/** A byte stream pulled from a generator of non-empty chunks; the socket closes at its end, on an error or a cancel. */
function streamOf(chunks: AsyncGenerator<Uint8Array>, close: () => void): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const step = await chunks.next();
        if (step.done) {
          close();
          controller.close();
        } else controller.enqueue(step.value.slice());
      } catch (error) {
        close();
        controller.error(error);
      }
    },
    async cancel() {
      close();
      await chunks.return(undefined);
    },
  });
}

/** The socket's bytes, read as lines (the head, chunk sizes) and as runs of bytes (bodies). */
class ByteSource {
  private buffer: Uint8Array = new Uint8Array(0);
  private offset = 0;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(reader: ReadableStreamDefaultReader<Uint8Array>) {
    this.reader = reader;
  }

  /** One line without its CRLF (or LF), at most `maxBytes` long; throws at the connection's end. */
  async line(maxBytes: number): Promise<string> {
    for (;;) {
      const end = this.buffer.indexOf(0x0a, this.offset);
      if (end >= 0) {
        const stop = end > this.offset && this.buffer[end - 1] === 0x0d ? end - 1 : end;
        const text = latin1(this.buffer.subarray(this.offset, stop));
        this.offset = end + 1;
        return text;
      }
      if (this.buffer.length - this.offset > maxBytes) throw new MalformedAnswer(`a line over ${maxBytes} bytes`);
      if (!(await this.fill())) throw new MalformedAnswer("the connection closed mid-answer");
    }
  }

  /** Between 1 and `maxBytes` bytes; throws at the connection's end. */
  async take(maxBytes: number): Promise<Uint8Array> {
    if (this.offset >= this.buffer.length && !(await this.fill())) throw new MalformedAnswer("the connection closed before the whole body arrived");
    const count = Math.min(maxBytes, this.buffer.length - this.offset);
    const bytes = this.buffer.subarray(this.offset, this.offset + count);
    this.offset += count;
    return bytes;
  }

  /** What is buffered, or the next bytes read; null at the connection's end. */
  async takeAny(): Promise<Uint8Array | null> {
    if (this.offset >= this.buffer.length && !(await this.fill())) return null;
    const bytes = this.buffer.subarray(this.offset);
    this.offset = this.buffer.length;
    return bytes;
  }

  private async fill(): Promise<boolean> {
    const step = await this.reader.read();
    if (step.done) return false;
    const rest = this.buffer.subarray(this.offset);
    if (rest.length === 0) this.buffer = step.value;
    else {
      const joined = new Uint8Array(rest.length + step.value.length);
      joined.set(rest);
      joined.set(step.value, rest.length);
      this.buffer = joined;
    }
    this.offset = 0;
    return true;
  }
}

function latin1(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}
