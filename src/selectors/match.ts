/**
 * Selector lists matched against a page in pass 1: one more scan of the page (scanner.ts) that rebuilds pass 1's
 * tree of open elements exactly (the same end-tag rule, and the end tags HTML5 implies read from the page model's
 * impliedEnds), so an element ends where pass 1 and lol-html end it, and every element (blocks, inline, void) is
 * tested. For each list it tells which blocks lie inside a matched element and which page text does.
 *
 * Matching runs forwards, as lol-html's does: per open element and selector, a bit set of the steps that its
 * descendants (and, apart, its children) may match next; an element matches a selector when it matches the last
 * step with that step pending. Work is elements × selectors × steps for selectors of several steps; a one-step selector
 * (most of a site's) is tested only on elements whose id, class words or name it requires (OneStepSelectors). No
 * objects per element but the id and class words looked up.
 */
import {
  FLAG_BLOCK, FLAG_VOID, findAttribute, findAttributes, TAG_FLAGS, TAG_OTHER, tagId, walkPage, type PageModel, type ScanHandler,
} from "../page";
import {
  ATTRIBUTE_EQUALS, ATTRIBUTE_INCLUDES, ATTRIBUTE_PREFIX, ATTRIBUTE_PRESENT, ATTRIBUTE_SUBSTRING, ATTRIBUTE_SUFFIX,
  type SelectorList, type SelectorStep,
} from "./parse";

/** What one selector list matched on a page. */
export interface SelectorMatch {
  /** Elements matched (nested ones too). */
  readonly elements: number;
  /** Block ordinal → 1 if the block is a matched element itself. */
  readonly matchedBlocks: Uint8Array;
  /** Block ordinal → 1 if the block is a matched element or lies inside one. */
  readonly coveredBlocks: Uint8Array;
  /** Block ordinal → 1 if it is the innermost block holding a matched element that is not a block. */
  readonly holderBlocks: Uint8Array;
  /** Sorted, disjoint [start, end) pairs of page text inside the top-most matched elements, flattened. */
  readonly text: Int32Array;
  /** The first matched element's start tag: source offsets of its "<", the end of its name and its end; -1s for none. */
  readonly firstElement: Int32Array;
  /** The matched elements that are not blocks, of every list matched in the same scan (one table, shared). */
  readonly inline: InlineElements;
}

/**
 * Matched elements that are not blocks (inline, void, foreign), in document order of their start tags, with where
 * each ends as pass 1 ends it, so that pass 2 can remove one whole (src/plan, src/rewrite).
 */
export interface InlineElements {
  readonly count: number;
  /** Element ordinal → source offset of the "<" of its start tag. */
  readonly sourceStart: Int32Array;
  /** Element ordinal → source offset just after its tag name (where a mark attribute goes). */
  readonly sourceNameEnd: Int32Array;
  /** Element ordinal → source offset just after it ends (its end tag, where it is closed, or its start tag if void). */
  readonly sourceEnd: Int32Array;
  /** Element ordinal → closed by an ancestor's end tag: 1 + open elements of its name inside it; else 0 (as BlockTable.closeRepeat). */
  readonly closeRepeat: Uint16Array;
  /** Element ordinal → [firstTextNode, endTextNode): the text nodes inside it. */
  readonly firstTextNode: Int32Array;
  readonly endTextNode: Int32Array;
  /** Element ordinal → innermost block holding it (0: the root). */
  readonly block: Int32Array;
  /** Element ordinal → bit per list the element matches. */
  readonly lists: Uint32Array;
  /** Element ordinal → bit per list that an enclosing element matches. */
  readonly insideLists: Uint32Array;
}

/** Deepest open element tested: deeper ones (only on pathological pages) match nothing; it bounds the state kept. */
export const SELECTOR_MATCH_MAX_DEPTH = 4096;
/** Most lists matched in one scan (one bit each per open element). */
export const SELECTOR_MATCH_MAX_LISTS = 32;

/**
 * Matches each list against the page in one walk (pass 1's recorded walk where the page model has one, else a
 * scan); throws only if its tree and pass 1's disagree (a defect).
 */
export function matchSelectors(page: PageModel, lists: readonly SelectorList[]): SelectorMatch[] {
  if (lists.length === 0) return [];
  if (lists.length > SELECTOR_MATCH_MAX_LISTS) throw new Error(`at most ${SELECTOR_MATCH_MAX_LISTS} selector lists are matched at once`);
  const walker = new MatchWalker(page, lists);
  walkPage(page, walker);
  return walker.finish();
}

/** A selector flattened for the walk: its steps and the list it belongs to. */
interface FlatSelector {
  readonly steps: readonly SelectorStep[];
  readonly list: number;
}

/**
 * The selectors of one step ("div#nav", ".share", "aside"), most of a site's: they hold no state across elements, so
 * each waits in a bucket under one thing it requires (its first id, else its first class, else its tag) and an
 * element tests only the buckets its own id, class words and name open, each at most once (a class word written
 * twice opens its bucket once), so an element never costs more than testing every selector.
 */
class OneStepSelectors {
  private readonly byId = new Map<string, Bucket>();
  private readonly byClass = new Map<string, Bucket>();
  private readonly byTag = new Map<string, Bucket>();
  private readonly anyElement: Bucket = { selectors: [], element: 0 };
  private element = 0;

  add(selector: FlatSelector): void {
    const [{ tag, ids, classes }] = selector.steps;
    if (ids.length > 0) bucket(this.byId, ids[0]).selectors.push(selector);
    else if (classes.length > 0) bucket(this.byClass, classes[0]).selectors.push(selector);
    else if (tag !== null) bucket(this.byTag, tag).selectors.push(selector);
    else this.anyElement.selectors.push(selector);
  }

  /** Bit per list that the element matches through a one-step selector. */
  match(name: string, attributes: ElementAttributes): number {
    const element = ++this.element;
    if (this.byId.size > 0 && this.byClass.size > 0) attributes.prefetch(ID_AND_CLASS);
    let lists = matchBucket(this.byTag.get(name), element, name, attributes, 0);
    lists = matchBucket(this.anyElement, element, name, attributes, lists);
    const source = attributes.source;
    if (this.byId.size > 0) {
      const id = attributes.range("id");
      if (id !== null) lists = matchBucket(this.byId.get(source.slice(id[0], id[1])), element, name, attributes, lists);
    }
    if (this.byClass.size > 0) {
      const range = attributes.range("class");
      if (range === null) return lists;
      for (let position = range[0]; position < range[1];) {
        while (position < range[1] && isWordSpace(source.charCodeAt(position))) position++;
        const wordStart = position;
        while (position < range[1] && !isWordSpace(source.charCodeAt(position))) position++;
        if (position > wordStart) lists = matchBucket(this.byClass.get(source.slice(wordStart, position)), element, name, attributes, lists);
      }
    }
    return lists;
  }
}

/** One-step selectors that require the same thing, and the last element that tested them. */
interface Bucket {
  readonly selectors: FlatSelector[];
  element: number;
}

const ID_AND_CLASS = ["id", "class"] as const;

function bucket(buckets: Map<string, Bucket>, key: string): Bucket {
  let found = buckets.get(key);
  if (found === undefined) buckets.set(key, (found = { selectors: [], element: 0 }));
  return found;
}

/** `lists` with the bits of the bucket's selectors that the element matches; a bucket already tested on it adds none. */
function matchBucket(bucket: Bucket | undefined, element: number, name: string, attributes: ElementAttributes, lists: number): number {
  if (bucket === undefined || bucket.element === element) return lists;
  bucket.element = element;
  for (const { steps, list } of bucket.selectors) if (stepMatches(steps[0], name, attributes)) lists |= 1 << list;
  return lists;
}

const INITIAL_DEPTH = 64;

class MatchWalker implements ScanHandler {
  private readonly source: string;
  private readonly oneStep = new OneStepSelectors();
  private readonly selectors: FlatSelector[] = []; // those of more than one step, which keep pending steps per open element
  private readonly stride: number;
  // Open elements, bottom (0) to top (openCount - 1); only the first SELECTOR_MATCH_MAX_DEPTH keep states.
  private openCount = 0;
  private readonly openNames: string[] = [];
  private readonly openNameCount = new Map<string, number>();
  private openTag = new Uint8Array(INITIAL_DEPTH); // open index → tag id (TAG_OTHER for foreign elements)
  private openInnermostBlock = new Int32Array(INITIAL_DEPTH); // open index → innermost block at or below it (0: root)
  private openLists = new Uint32Array(INITIAL_DEPTH); // open index → bit per list that the element matches
  private openFirstNode = new Int32Array(INITIAL_DEPTH); // open index → first text node at or after its start tag
  private openInline = new Int32Array(INITIAL_DEPTH); // open index → its InlineElements ordinal, or -1
  private readonly inline = new InlineTable();
  private descendantSteps: Uint32Array; // open index × stride + selector → steps its descendants may match next
  private childSteps: Uint32Array; // open index × stride + selector → steps its children may match next
  // Per list.
  private readonly openMatched: Int32Array; // list → open elements that match it
  private readonly elements: Int32Array; // list → matched elements
  private readonly matchedBlocks: Uint8Array[];
  private readonly coveredBlocks: Uint8Array[];
  private readonly holderBlocks: Uint8Array[];
  private readonly textPairs: number[][]; // list → its text pairs so far
  private readonly firstElements: Int32Array[]; // list → [tagStart, nameEnd, tagEnd] of its first matched element, or -1s
  private readonly attributes: ElementAttributes;
  private nextBlock = 1;
  private implied = 0;
  private node = 0;

  constructor(private readonly page: PageModel, lists: readonly SelectorList[]) {
    this.source = page.source;
    this.attributes = new ElementAttributes(page.source);
    lists.forEach((list, index) => {
      for (const { steps } of list.selectors) {
        if (steps.length === 1) this.oneStep.add({ steps, list: index });
        else this.selectors.push({ steps, list: index });
      }
    });
    this.stride = this.selectors.length;
    this.descendantSteps = new Uint32Array(INITIAL_DEPTH * this.stride);
    this.childSteps = new Uint32Array(INITIAL_DEPTH * this.stride);
    this.openMatched = new Int32Array(lists.length);
    this.elements = new Int32Array(lists.length);
    this.matchedBlocks = lists.map(() => new Uint8Array(page.blockCount));
    this.coveredBlocks = lists.map(() => new Uint8Array(page.blockCount));
    this.holderBlocks = lists.map(() => new Uint8Array(page.blockCount));
    this.textPairs = lists.map(() => []);
    this.firstElements = lists.map(() => Int32Array.of(-1, -1, -1));
  }

  startTag(name: string, tagStart: number, nameEnd: number, tagEnd: number, selfClosing: boolean, foreign: boolean): void {
    const tag = foreign ? TAG_OTHER : tagId(name);
    this.closeImplied(tagStart);
    const empty = foreign ? selfClosing : (TAG_FLAGS[tag] & FLAG_VOID) !== 0;
    if (empty) {
      if (this.openCount < SELECTOR_MATCH_MAX_DEPTH) {
        const lists = this.evaluate(name, nameEnd, tagEnd, -1);
        this.noteEmptyMatch(lists, tagStart, nameEnd, tagEnd);
        if (lists !== 0) this.inline.add(tagStart, nameEnd, this.innermostBlock(), lists, this.insideLists(), this.node, tagEnd);
      }
      return;
    }
    this.push(name, tag, foreign, tagStart, nameEnd, tagEnd);
  }

  endTag(name: string, tagStart: number, tagEnd: number): void {
    if ((this.openNameCount.get(name) ?? 0) === 0) return;
    for (let index = this.openCount - 1; index >= 0; index--) {
      if (this.openNames[index] === name) {
        this.popTo(index, tagStart, tagEnd);
        return;
      }
    }
  }

  text(): void {}

  finish(): SelectorMatch[] {
    this.closeImplied(this.source.length);
    this.popTo(0, this.source.length);
    const inline = this.inline.finish();
    return this.textPairs.map((pairs, list) => ({
      inline,
      elements: this.elements[list], matchedBlocks: this.matchedBlocks[list], coveredBlocks: this.coveredBlocks[list],
      holderBlocks: this.holderBlocks[list], text: Int32Array.from(pairs), firstElement: this.firstElements[list],
    }));
  }

  /** The end tags pass 1 implied at or before `offset`: each closes the nearest open element of its tag. */
  private closeImplied(offset: number): void {
    const { offset: offsets, tag: tags } = this.page.impliedEnds;
    for (; this.implied < this.page.impliedEndCount && offsets[this.implied] <= offset; this.implied++) {
      const tag = tags[this.implied];
      for (let index = this.openCount - 1; index >= 0; index--) {
        if (this.openTag[index] === tag) {
          this.popTo(index, offsets[this.implied]);
          break;
        }
      }
    }
  }

  private push(name: string, tag: number, foreign: boolean, tagStart: number, nameEnd: number, tagEnd: number): void {
    if (this.openCount === this.openTag.length) this.grow();
    const index = this.openCount;
    const parentBlock = index === 0 ? 0 : this.openInnermostBlock[index - 1];
    let block = -1;
    if (!foreign && (TAG_FLAGS[tag] & FLAG_BLOCK) !== 0) {
      block = this.nextBlock++;
      if (block >= this.page.blockCount || this.page.blocks.sourceStart[block] !== tagStart) {
        throw new Error(`selector matching lost step with page analysis at offset ${tagStart}`);
      }
    }
    this.advanceNodes(tagStart);
    this.openNames[index] = name;
    this.openNameCount.set(name, (this.openNameCount.get(name) ?? 0) + 1);
    this.openTag[index] = tag;
    this.openInnermostBlock[index] = block >= 0 ? block : parentBlock;
    this.openFirstNode[index] = this.node;
    this.openCount++;
    const lists = index < SELECTOR_MATCH_MAX_DEPTH ? this.evaluate(name, nameEnd, tagEnd, index) : 0;
    this.openLists[index] = lists;
    this.openInline[index] = lists !== 0 && block < 0 ? this.inline.add(tagStart, nameEnd, parentBlock, lists, this.insideLists(), this.node, -1) : -1;
    for (let list = 0; list < this.openMatched.length; list++) {
      const matched = (lists >>> list) & 1;
      if (matched === 1) {
        this.noteFirst(list, tagStart, nameEnd, tagEnd);
        this.openMatched[list]++;
        this.elements[list]++;
        if (block >= 0) this.matchedBlocks[list][block] = 1;
        else this.holderBlocks[list][parentBlock] = 1;
      }
      if (block >= 0 && this.openMatched[list] > 0) this.coveredBlocks[list][block] = 1;
    }
  }

  /** A matched void or self-closed element: it holds no text; the block that holds it is noted. */
  private noteEmptyMatch(lists: number, tagStart: number, nameEnd: number, tagEnd: number): void {
    if (lists === 0) return;
    const holder = this.innermostBlock();
    for (let list = 0; list < this.openMatched.length; list++) {
      if (((lists >>> list) & 1) === 0) continue;
      this.noteFirst(list, tagStart, nameEnd, tagEnd);
      this.elements[list]++;
      this.holderBlocks[list][holder] = 1;
    }
  }

  private noteFirst(list: number, tagStart: number, nameEnd: number, tagEnd: number): void {
    const first = this.firstElements[list];
    if (first[0] >= 0) return;
    first[0] = tagStart;
    first[1] = nameEnd;
    first[2] = tagEnd;
  }

  /** Innermost block among the open elements (0: the root). */
  private innermostBlock(): number {
    return this.openCount === 0 ? 0 : this.openInnermostBlock[this.openCount - 1];
  }

  /** Bit per list that an open element matches. */
  private insideLists(): number {
    let bits = 0;
    for (let list = 0; list < this.openMatched.length; list++) if (this.openMatched[list] > 0) bits |= 1 << list;
    return bits;
  }

  /**
   * Closes the open elements from the top down to `index` (included), at source offset `offset`: by the end tag of
   * the element at `index` when `endTagEnd` is given (those above it are closed by an ancestor's end tag, as pass 1
   * records it), else implicitly (an implied end tag, the end of the page).
   */
  private popTo(index: number, offset: number, endTagEnd = -1): void {
    if (index >= this.openCount) return;
    this.advanceNodes(offset);
    const sameName = endTagEnd >= 0 && this.openCount - 1 > index ? new Map<string, number>() : null; // tag name → open elements of it seen from the top
    for (let top = this.openCount - 1; top >= index; top--) {
      const name = this.openNames[top];
      this.openNameCount.set(name, (this.openNameCount.get(name) ?? 1) - 1);
      const repeat = sameName === null || top === index ? 0 : (sameName.get(name) ?? 0) + 1;
      if (sameName !== null && top > index) sameName.set(name, repeat);
      if (this.openInline[top] >= 0) this.inline.close(this.openInline[top], top === index && endTagEnd >= 0 ? endTagEnd : offset, repeat, this.node);
      const lists = this.openLists[top];
      if (lists === 0) continue;
      for (let list = 0; list < this.openMatched.length; list++) {
        if (((lists >>> list) & 1) === 0) continue;
        if (--this.openMatched[list] === 0) this.addText(list, this.openFirstNode[top], this.node);
      }
    }
    this.openCount = index;
  }

  /** Moves the text node cursor past the text nodes that start before `offset`. */
  private advanceNodes(offset: number): void {
    const starts = this.page.textNodes.sourceStart;
    while (this.node < this.page.textNodeCount && starts[this.node] < offset) this.node++;
  }

  private addText(list: number, firstNode: number, endNode: number): void {
    if (firstNode >= endNode) return;
    const pairs = this.textPairs[list];
    const start = this.page.textNodes.textStart[firstNode];
    const end = this.page.textNodes.textEnd[endNode - 1];
    if (pairs.length > 0 && pairs[pairs.length - 1] >= start) pairs[pairs.length - 1] = Math.max(pairs[pairs.length - 1], end);
    else pairs.push(start, end);
  }

  /**
   * Tests the element against every selector, given its parent's pending steps; records the element's own
   * pending steps at `index` (-1 for a void element, which has no descendants). Returns a bit per matched list.
   * A one-step selector has no pending steps to keep: its row would stay empty, so it has none.
   */
  private evaluate(name: string, nameEnd: number, tagEnd: number, index: number): number {
    const stride = this.stride;
    const parent = index < 0 ? this.openCount - 1 : index - 1;
    const parentRow = parent >= 0 ? parent * stride : -1;
    const row = index * stride;
    const attributes = this.attributes;
    attributes.reset(nameEnd, tagEnd);
    let lists = this.oneStep.match(name, attributes);
    for (let selector = 0; selector < stride; selector++) {
      const { steps, list } = this.selectors[selector];
      const inherited = parentRow >= 0 ? this.descendantSteps[parentRow + selector] : 0;
      let pending = 1 | inherited | (parentRow >= 0 ? this.childSteps[parentRow + selector] : 0);
      let descendants = inherited;
      let children = 0;
      for (let step = 0; pending !== 0 && step < steps.length; step++, pending >>>= 1) {
        if ((pending & 1) === 0 || !stepMatches(steps[step], name, attributes)) continue;
        if (step === steps.length - 1) lists |= 1 << list;
        else if (steps[step + 1].childOf) children |= 1 << (step + 1);
        else descendants |= 1 << (step + 1);
      }
      if (index >= 0) {
        this.descendantSteps[row + selector] = descendants;
        this.childSteps[row + selector] = children;
      }
    }
    return lists;
  }

  private grow(): void {
    const size = this.openTag.length * 2;
    this.openTag = resized(this.openTag, new Uint8Array(size));
    this.openInnermostBlock = resized(this.openInnermostBlock, new Int32Array(size));
    this.openLists = resized(this.openLists, new Uint32Array(size));
    this.openFirstNode = resized(this.openFirstNode, new Int32Array(size));
    this.openInline = resized(this.openInline, new Int32Array(size));
    const rows = Math.min(size, SELECTOR_MATCH_MAX_DEPTH) * this.stride;
    if (rows > this.descendantSteps.length) {
      this.descendantSteps = resized(this.descendantSteps, new Uint32Array(rows));
      this.childSteps = resized(this.childSteps, new Uint32Array(rows));
    }
  }
}

/** The growing table behind InlineElements. */
class InlineTable {
  private count = 0;
  private sourceStart = new Int32Array(16);
  private sourceNameEnd = new Int32Array(16);
  private sourceEnd = new Int32Array(16);
  private closeRepeat = new Uint16Array(16);
  private firstTextNode = new Int32Array(16);
  private endTextNode = new Int32Array(16);
  private block = new Int32Array(16);
  private lists = new Uint32Array(16);
  private insideLists = new Uint32Array(16);

  /** Adds an element at its start tag; `end` is its end for a void element, -1 until close() for others. Returns its ordinal. */
  add(start: number, nameEnd: number, block: number, lists: number, insideLists: number, firstNode: number, end: number): number {
    if (this.count === this.sourceStart.length) this.grow();
    const element = this.count++;
    this.sourceStart[element] = start;
    this.sourceNameEnd[element] = nameEnd;
    this.sourceEnd[element] = end;
    this.closeRepeat[element] = 0;
    this.firstTextNode[element] = firstNode;
    this.endTextNode[element] = firstNode;
    this.block[element] = block;
    this.lists[element] = lists;
    this.insideLists[element] = insideLists;
    return element;
  }

  close(element: number, end: number, repeat: number, endNode: number): void {
    this.sourceEnd[element] = end;
    this.closeRepeat[element] = Math.min(repeat, 0xffff);
    this.endTextNode[element] = endNode;
  }

  finish(): InlineElements {
    const count = this.count;
    return {
      count, sourceStart: this.sourceStart.subarray(0, count), sourceNameEnd: this.sourceNameEnd.subarray(0, count),
      sourceEnd: this.sourceEnd.subarray(0, count), closeRepeat: this.closeRepeat.subarray(0, count),
      firstTextNode: this.firstTextNode.subarray(0, count), endTextNode: this.endTextNode.subarray(0, count),
      block: this.block.subarray(0, count), lists: this.lists.subarray(0, count), insideLists: this.insideLists.subarray(0, count),
    };
  }

  private grow(): void {
    const size = this.sourceStart.length * 2;
    this.sourceStart = resized(this.sourceStart, new Int32Array(size));
    this.sourceNameEnd = resized(this.sourceNameEnd, new Int32Array(size));
    this.sourceEnd = resized(this.sourceEnd, new Int32Array(size));
    this.closeRepeat = resized(this.closeRepeat, new Uint16Array(size));
    this.firstTextNode = resized(this.firstTextNode, new Int32Array(size));
    this.endTextNode = resized(this.endTextNode, new Int32Array(size));
    this.block = resized(this.block, new Int32Array(size));
    this.lists = resized(this.lists, new Uint32Array(size));
    this.insideLists = resized(this.insideLists, new Uint32Array(size));
  }
}

function resized<T extends Uint8Array | Uint16Array | Int32Array | Uint32Array>(from: T, to: T): T {
  to.set(from.subarray(0, Math.min(from.length, to.length)));
  return to;
}

/**
 * The attributes of one start tag, read on demand: each attribute name the selectors test is looked up at most
 * once per element (a few names, so a short list beats a map), so an element costs its tag's length times the
 * distinct names tested, however many steps test them. One reader for the whole walk; nothing is copied.
 */
class ElementAttributes {
  private from = 0;
  private to = 0;
  private readonly names: string[] = []; // looked-up name ordinal → name, for the current element
  private readonly ranges: ([number, number] | null)[] = []; // looked-up name ordinal → its value range, or null
  private count = 0;
  private readonly found = new Int32Array(4); // prefetch's ranges

  constructor(readonly source: string) {}

  /** Points the reader at another start tag's attributes, source[from, to). */
  reset(from: number, to: number): void {
    this.from = from;
    this.to = to;
    this.count = 0;
  }

  /** Looks up names in one reading of the tag (findAttributes): for names tested on every element. Right after reset only. */
  prefetch(names: readonly string[]): void {
    findAttributes(this.source, this.from, this.to, names, this.found);
    for (let n = 0; n < names.length; n++) {
      this.names[this.count] = names[n];
      this.ranges[this.count++] = this.found[2 * n] < 0 ? null : [this.found[2 * n], this.found[2 * n + 1]];
    }
  }

  range(name: string): [number, number] | null {
    for (let index = 0; index < this.count; index++) if (this.names[index] === name) return this.ranges[index];
    const range = findAttribute(this.source, this.from, this.to, name);
    this.names[this.count] = name;
    this.ranges[this.count++] = range;
    return range;
  }
}

function stepMatches(step: SelectorStep, name: string, attributes: ElementAttributes): boolean {
  if (step.tag !== null && step.tag !== name) return false;
  const source = attributes.source;
  for (const id of step.ids) {
    const range = attributes.range("id");
    if (range === null || range[1] - range[0] !== id.length || !source.startsWith(id, range[0])) return false;
  }
  if (step.classes.length > 0) {
    const range = attributes.range("class");
    if (range === null) return false;
    for (const name of step.classes) if (!hasWord(source, range[0], range[1], name)) return false;
  }
  for (const test of step.attributes) {
    const range = attributes.range(test.name);
    if (range === null || !valueMatches(source, range[0], range[1], test.operator, test.value)) return false;
  }
  return true;
}

function valueMatches(source: string, start: number, end: number, operator: number, value: string): boolean {
  const length = end - start;
  switch (operator) {
    case ATTRIBUTE_PRESENT:
      return true;
    case ATTRIBUTE_EQUALS:
      return length === value.length && source.startsWith(value, start);
    case ATTRIBUTE_INCLUDES:
      return value !== "" && !/[ \t\n\f\r]/.test(value) && hasWord(source, start, end, value);
    case ATTRIBUTE_PREFIX:
      return value !== "" && length >= value.length && source.startsWith(value, start);
    case ATTRIBUTE_SUFFIX:
      return value !== "" && length >= value.length && source.startsWith(value, end - value.length);
    case ATTRIBUTE_SUBSTRING:
      // The engine's substring search (linear in practice); indexOf on the whole page would read past the value.
      return value !== "" && length >= value.length && source.slice(start, end).includes(value);
    default:
      return false;
  }
}

function isWordSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13;
}

/** Whether source[start, end) holds `word` as one of its white-space-separated words: one pass over the value, comparing only words of the same length. */
function hasWord(source: string, start: number, end: number, word: string): boolean {
  let position = start;
  while (position < end) {
    while (position < end && isWordSpace(source.charCodeAt(position))) position++;
    const wordStart = position;
    while (position < end && !isWordSpace(source.charCodeAt(position))) position++;
    if (position - wordStart === word.length && source.startsWith(word, wordStart)) return true;
  }
  return false;
}
