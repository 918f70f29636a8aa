/**
 * The scanner's events of one walk, recorded in typed arrays so that a later stage can hear them again without
 * scanning the page a second time: the Markdown and article writers replay pass 1's walk (analysePage's
 * scanLog option) instead of tokenizing the source once more each. Tag names are kept as the scanner gave them.
 */
import type { ScanHandler } from "./scanner";

const EVENT_START = 0;
const EVENT_END = 1;
const EVENT_TEXT = 2;
const SELF_CLOSING = 1;
const FOREIGN = 2;

export class ScanLog implements ScanHandler {
  private count = 0;
  private kind: Uint8Array;
  /** Per event: the start tag's "<", name end, ">" end; the end tag's "<" and ">" end; the text's start and end. */
  private offsets: Int32Array;
  /** Per event: the start tag's flags and namespace, or the text's TEXT_* kind. */
  private detail: Uint8Array;
  private readonly names: string[];

  /** `expected`: about how many events the page will have (more are taken as they come, at the cost of a copy). */
  constructor(expected: number) {
    const capacity = Math.max(64, expected);
    this.kind = new Uint8Array(capacity);
    this.offsets = new Int32Array(3 * capacity);
    this.detail = new Uint8Array(capacity);
    this.names = new Array<string>(capacity);
  }

  startTag(name: string, tagStart: number, nameEnd: number, tagEnd: number, selfClosing: boolean, foreign: boolean, namespace: number): void {
    const event = this.add(EVENT_START, tagStart, nameEnd, tagEnd, (selfClosing ? SELF_CLOSING : 0) | (foreign ? FOREIGN : 0) | (namespace << 2));
    this.names[event] = name;
  }

  endTag(name: string, tagStart: number, tagEnd: number): void {
    const event = this.add(EVENT_END, tagStart, tagEnd, 0, 0);
    this.names[event] = name;
  }

  text(start: number, end: number, kind: number): void {
    this.add(EVENT_TEXT, start, end, 0, kind);
  }

  /** Events recorded. */
  get events(): number {
    return this.count;
  }

  /** Calls the handler with the recorded events [from, to) (every one by default), in order, as the scanner called the recorder. */
  replay(handler: ScanHandler, from = 0, to = this.count): void {
    const { kind, offsets, detail, names } = this;
    for (let event = from; event < Math.min(to, this.count); event++) {
      const at = 3 * event;
      if (kind[event] === EVENT_TEXT) handler.text(offsets[at], offsets[at + 1], detail[event]);
      else if (kind[event] === EVENT_END) handler.endTag(names[event], offsets[at], offsets[at + 1]);
      else {
        const flags = detail[event];
        handler.startTag(names[event], offsets[at], offsets[at + 1], offsets[at + 2], (flags & SELF_CLOSING) !== 0, (flags & FOREIGN) !== 0, flags >> 2);
      }
    }
  }

  private add(kind: number, first: number, second: number, third: number, detail: number): number {
    if (this.count === this.kind.length) this.grow();
    const event = this.count++;
    this.kind[event] = kind;
    this.offsets[3 * event] = first;
    this.offsets[3 * event + 1] = second;
    this.offsets[3 * event + 2] = third;
    this.detail[event] = detail;
    return event;
  }

  private grow(): void {
    const kind = new Uint8Array(this.kind.length * 2);
    kind.set(this.kind);
    this.kind = kind;
    const offsets = new Int32Array(this.offsets.length * 2);
    offsets.set(this.offsets);
    this.offsets = offsets;
    const detail = new Uint8Array(this.detail.length * 2);
    detail.set(this.detail);
    this.detail = detail;
  }
}
