/**
 * The README's tour, read as checkable examples. A block marked `<!-- example: service -->` is one curl request
 * to the running service (`npm start`'s ports and keys) and `<!-- example: shell -->` one `npm run` command; the
 * fenced block after it is its output as the README shows it. In an output, `…` stands for text left out: within
 * a line it matches any characters, and a line that is only `…` matches any number of lines. A `curl -i` output
 * shows the status line, then some of the headers (each must be in the answer, in any order), a blank line, and
 * the body. Pure functions: the Node tests and the Worker tests (workerd) both read them.
 */

export type ExampleKind = "service" | "shell";

export interface ReadmeExample {
  readonly kind: ExampleKind;
  /** The command as written, continuation lines joined. */
  readonly command: string;
  /** The output block as written. */
  readonly expected: string;
  /** 1-based line of the marker in the README, for messages. */
  readonly line: number;
}

const MARKER = /^<!-- example: (service|shell) -->$/;
const FENCE = /^(`{3,})/;

/** Every marked example of a Markdown text, in order. Throws on a marker without a command and an output block. */
export function readmeExamples(markdown: string): ReadmeExample[] {
  const lines = markdown.split("\n");
  const examples: ReadmeExample[] = [];
  for (let index = 0; index < lines.length; index++) {
    const marker = MARKER.exec(lines[index].trim());
    if (marker === null) continue;
    const command = fencedBlockAfter(lines, index + 1);
    const output = command === null ? null : fencedBlockAfter(lines, command.end + 1);
    if (command === null || output === null) throw new Error(`README line ${index + 1}: an example marker needs a command block and an output block after it`);
    examples.push({ kind: marker[1] as ExampleKind, command: command.text.replace(/\\\n\s*/g, ""), expected: output.text, line: index + 1 });
  }
  return examples;
}

function fencedBlockAfter(lines: readonly string[], from: number): { text: string; end: number } | null {
  let start = from;
  while (start < lines.length && lines[start].trim() === "") start++;
  const open = FENCE.exec(lines[start] ?? "");
  if (open === null) return null;
  for (let end = start + 1; end < lines.length; end++) {
    if (lines[end].trim() === open[1]) return { text: lines.slice(start + 1, end).join("\n"), end };
  }
  return null;
}

const ELLIPSIS = "…";

/** Whether one actual line matches one expected line (trailing white space ignored; `…` matches anything). */
function lineMatches(expected: string, actual: string): boolean {
  const want = expected.trimEnd();
  const got = actual.trimEnd();
  if (!want.includes(ELLIPSIS)) return want === got;
  const pattern = want.split(ELLIPSIS).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${pattern}$`, "s").test(got);
}

/** Whether the actual lines match the expected ones, a line of `…` alone standing for any number of lines. */
export function linesMatch(expected: readonly string[], actual: readonly string[]): boolean {
  const memo = new Map<number, boolean>();
  const from = (i: number, j: number): boolean => {
    const key = i * (actual.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (i === expected.length) result = j === actual.length;
    else if (expected[i].trim() === ELLIPSIS) result = from(i + 1, j) || (j < actual.length && from(i, j + 1));
    else result = j < actual.length && lineMatches(expected[i], actual[j]) && from(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return from(0, 0);
}

/** Lines of a text, without the one empty line a final newline leaves. */
export function linesOf(text: string): string[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

export interface CurlRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** `-i`: the output starts with the status line and headers. */
  readonly include: boolean;
  /** `-d '<body>'`: sent as it is written (and the method is POST unless -X says otherwise); null without one. */
  readonly body: string | null;
}

/** The request a curl command line makes: `-s`, `-i`, `-X METHOD`, `-H 'name: value'`, `-d 'body'`, one URL. Anything else throws. */
export function parseCurl(command: string): CurlRequest {
  const words = shellWords(command);
  if (words[0] !== "curl") throw new Error(`not a curl command: ${command}`);
  let method = "GET";
  let url: string | null = null;
  let include = false;
  let body: string | null = null;
  let methodGiven = false;
  const headers: Array<readonly [string, string]> = [];
  for (let index = 1; index < words.length; index++) {
    const word = words[index];
    if (word === "-X") {
      method = words[++index];
      methodGiven = true;
    } else if (word === "-d") {
      body = words[++index];
      if (!methodGiven) method = "POST";
    } else if (word === "-H") {
      const header = words[++index];
      const colon = header.indexOf(":");
      headers.push([header.slice(0, colon).trim(), header.slice(colon + 1).trim()]);
    } else if (/^-[si]+$/.test(word)) include ||= word.includes("i");
    else if (word.startsWith("-")) throw new Error(`curl option ${word} is not read by the README check: ${command}`);
    else if (url === null) url = word;
    else throw new Error(`curl with two URLs: ${command}`);
  }
  if (url === null) throw new Error(`curl without a URL: ${command}`);
  return { method, url, headers, include, body };
}

/** Words of a command line with single and double quotes (no variables, no escapes inside single quotes). */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let index = 0; index < command.length; index++) {
    const character = command[index];
    if (character === "'" || character === '"') {
      const close = command.indexOf(character, index + 1);
      if (close < 0) throw new Error(`unclosed quote in: ${command}`);
      word = (word ?? "") + command.slice(index + 1, close);
      index = close;
    } else if (/\s/.test(character)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (character === "|" || character === ">" || character === "<" || character === ";" || character === "&") {
      throw new Error(`the README check runs single commands, without ${character}: ${command}`);
    } else word = (word ?? "") + character;
  }
  if (word !== null) words.push(word);
  return words;
}

/**
 * Checks a curl answer against the README's output; null when it matches, else what differs. With `-i`, the
 * expected status line must match the answer's, each expected header must be among the answer's, and the body
 * lines must match.
 */
export function checkHttpOutput(expected: string, request: CurlRequest, status: number, statusText: string, headers: Headers, body: string): string | null {
  let bodyLines = linesOf(expected);
  const problems: string[] = [];
  if (request.include) {
    const blank = bodyLines.findIndex((line) => line.trim() === "");
    const head = blank < 0 ? bodyLines : bodyLines.slice(0, blank);
    bodyLines = blank < 0 ? [] : bodyLines.slice(blank + 1);
    // The status line's reason phrase is compared when the answer has one (a Response made in the Worker may not).
    const shown = /^HTTP\/[\d.]+ (\d{3})(?: (.*))?$/.exec((head[0] ?? "").trim());
    if (shown === null || Number(shown[1]) !== status || (statusText !== "" && (shown[2] ?? "") !== statusText)) {
      problems.push(`status: README says "${head[0]}", the service answered ${status} ${statusText}`);
    }
    for (const line of head.slice(1)) {
      const colon = line.indexOf(":");
      const name = line.slice(0, colon).trim();
      const value = headers.get(name);
      if (value === null || !lineMatches(line.slice(colon + 1).trim(), value)) problems.push(`header: README says "${line}", the service answered ${value === null ? "without it" : `"${name}: ${value}"`}`);
    }
  }
  if (!linesMatch(bodyLines, linesOf(body))) problems.push(`body differs; the service answered:\n${body}`);
  return problems.length === 0 ? null : problems.join("\n");
}
