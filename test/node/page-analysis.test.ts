/**
 * Pass 1 on malformed snippets (tree shape, text, offsets) and on every page of ../shared/data (no crash,
 * sane counts, the gold text's words found in the page text).
 */
import { describe, expect, it } from "vitest";
import { DATA_SETS, hasData, loadDataset, tokenize } from "../../src/evaluation/index";
import {
  analysePage, CLOSED_BY_ANCESTOR_END_TAG, CLOSED_BY_END_OF_PAGE, CLOSED_BY_IMPLIED_END, CLOSED_BY_OWN_END_TAG,
  MARKUP_COUNTERS, MARKUP_TAGS, scanHtml, sourceOffsetOfText, tagName, TEXT_CDATA, TEXT_DATA, TEXT_RAW, TEXT_RCDATA, type PageModel,
} from "../../src/page/index";
import { everyDevPage } from "../support/dev-data";

/** Blocks as "tag(parent):text", in document order (root left out). */
function describeBlocks(page: PageModel): string[] {
  const lines: string[] = [];
  for (let block = 1; block < page.blockCount; block++) {
    const text = page.text.slice(page.blocks.textStart[block], page.blocks.textEnd[block]);
    lines.push(`${tagName(page.blocks.tag[block])}(${page.blocks.parent[block]}):${text}`);
  }
  return lines;
}

describe("page analysis on malformed HTML", () => {
  it("closes <p> at the next <p> and at blocks, recording implied end tags", () => {
    const page = analysePage("<body><p>one<p>two<div>three</div>four</body>");
    expect(describeBlocks(page)).toEqual(["p(0):one", "p(0):two", "div(0):three"]);
    expect(page.text).toBe("one\ntwo\nthree\nfour");
    expect(Array.from(page.impliedEnds.tag, tagName)).toEqual(["p", "p"]);
    expect(Array.from(page.blocks.closeKind.subarray(1))).toEqual([CLOSED_BY_IMPLIED_END, CLOSED_BY_IMPLIED_END, CLOSED_BY_OWN_END_TAG]);
  });

  it("closes <li>, <dd>/<dt>, cells and rows implicitly; a list's end tag closes its last item", () => {
    expect(describeBlocks(analysePage("<ul><li>a<li>b</ul>after"))).toEqual(["ul(0):a\nb", "li(1):a", "li(1):b"]);
    expect(describeBlocks(analysePage("<dl><dt>t<dd>d<dt>u</dl>"))).toEqual(["dl(0):t\nd\nu", "dt(1):t", "dd(1):d", "dt(1):u"]);
    const table = analysePage("<table><tr><td>a<td>b<tr><td>c</table>z");
    expect(describeBlocks(table)).toEqual(["table(0):a\nb\nc", "tr(1):a\nb", "td(2):a", "td(2):b", "tr(1):c", "td(5):c"]);
    expect(table.blocks.closeKind[5]).toBe(CLOSED_BY_ANCESTOR_END_TAG);
    expect(table.blocks.closeRepeat[5]).toBe(1);
  });

  it("keeps nested lists and tables nested", () => {
    expect(describeBlocks(analysePage("<ul><li>a<ul><li>b<li>c</ul><li>d</ul>"))).toEqual([
      "ul(0):a\nb\nc\nd", "li(1):a\nb\nc", "ul(2):b\nc", "li(3):b", "li(3):c", "li(1):d",
    ]);
    expect(describeBlocks(analysePage("<table><tr><td>x<table><tr><td>in</table>y<td>z</table>"))).toEqual([
      "table(0):x\nin\ny\nz", "tr(1):x\nin\ny\nz", "td(2):x\nin\ny", "table(3):in", "tr(4):in", "td(5):in", "td(2):z",
    ]);
  });

  it("ignores stray end tags and runs unclosed elements to the end of the page", () => {
    const page = analysePage("<div>a</span></p>b<div>c");
    expect(describeBlocks(page)).toEqual(["div(0):ab\nc", "div(1):c"]);
    expect(page.blocks.closeKind[1]).toBe(CLOSED_BY_END_OF_PAGE);
    expect(page.blocks.sourceEnd[1]).toBe(page.source.length);
  });

  it("closes a title left open to the end of the page at its first tag, in the source both passes read", () => {
    const html = "<html><head><title>Otters return' + ad + '\"><\\/SCRIPT>');\n<div class=story><p>Otters are back in the river.</p></div>";
    const page = analysePage(html);
    expect(page.title.startsWith("Otters return")).toBe(true);
    expect(page.text).toBe("Otters are back in the river.");
    expect(page.source).toBe(html.replace("<div", "</title><div"));
    expect(page.unclosedRawText).toBe(true); // the warning stands
    // A script or a textarea left open is not closed: its text may hold "<" (code), and a browser runs it to the end too.
    expect(analysePage("<p>Before</p><script>var a = 1;<div>after</div>").text).toBe("Before");
  });

  it("closes everything above the element an end tag names, like lol-html", () => {
    const page = analysePage("<div>x<section><p>y</div>z");
    expect(describeBlocks(page)).toEqual(["div(0):x\ny", "section(1):y", "p(2):y"]);
    expect(page.blocks.closeKind[2]).toBe(CLOSED_BY_ANCESTOR_END_TAG);
    expect(page.source.slice(page.blocks.sourceStart[2], page.blocks.sourceEnd[2])).toBe("<section><p>y");
  });

  it("keeps text outside body, skips script, style, comments, templates of raw text and svg that is not drawn", () => {
    const page = analysePage("before <html lang=\"de-CH\"><head><title> T &amp;\n t </title><style>p{}</style></head>" +
      "<!-- c --><script>if (a < b) document.write('<p>x</p>')</script><body>in <svg><desc>no</desc><g>no</g></svg>&lt;ok&gt;</body></html> after");
    expect(page.text).toBe("before in <ok> after");
    expect(page.title).toBe("T & t");
    expect(page.lang).toBe("de-CH");
  });

  it("decodes entities and collapses white space inside a block", () => {
    const page = analysePage("<p>  caf&eacute;&nbsp;&nbsp;au   lait &#8364;5 &#x1F600; &amp &copy2024 &bogus; </p>");
    expect(page.text).toBe("café au lait €5 😀 & ©2024 &bogus;");
    expect(page.textNodeCount).toBe(1);
  });

  it("separates inline runs with spaces only where the source has white space or <br>", () => {
    expect(analysePage("<p>a<b>b</b> c<br>d<i>e</i></p>").text).toBe("ab c de");
  });

  it("maps page-text offsets back to source offsets through entities and collapsed spaces", () => {
    const page = analysePage("<p>x &amp;   y&eacute;z</p>");
    expect(page.text).toBe("x & yéz");
    const offsets = [0, 1, 2, 3, 4, 5, 6, 7].map((offset) => sourceOffsetOfText(page, 0, offset));
    // "x", " " (run at 4), "&amp;" (5), " " (run at 10), "y" (13), "&eacute;" (14), "z" (22), end (23)
    expect(offsets).toEqual([3, 4, 5, 10, 13, 14, 22, 23]);
  });

  it("reads quoted attribute values holding '>' and '/>' without ending the tag", () => {
    const page = analysePage("<div title='a>b' data-x=\"</div>\">in</div>out");
    expect(describeBlocks(page)).toEqual(["div(0):in"]);
    expect(page.text).toBe("in\nout");
  });

  it("reads svg and math as foreign content: self-closing tags, CDATA, no raw text", () => {
    const events: string[] = [];
    scanHtml("<svg><g/><style>a<a>c</a></style><![CDATA[x<y]]></svg><style><b></style><p/>", {
      startTag: (name, _start, _nameEnd, _end, selfClosing, foreign) => events.push(`<${name}${selfClosing ? "/" : ""}${foreign ? " foreign" : ""}`),
      endTag: (name) => events.push(`</${name}`),
      text: (start, end, kind) => events.push(`text ${kind}`),
    });
    expect(events).toEqual([
      "<svg foreign", "<g/ foreign", "<style foreign", `text ${TEXT_DATA}`, "<a foreign", `text ${TEXT_DATA}`, "</a", "</style",
      `text ${TEXT_CDATA}`, "</svg", "<style", `text ${TEXT_RAW}`, "</style", "<p/",
    ]);
  });

  it("tracks svg and math as lol-html does: a self-closed <svg> enters svg, an HTML tag such as <b> or <p> leaves it", () => {
    const kinds = (html: string): string[] => {
      const events: string[] = [];
      scanHtml(html, {
        startTag: (name, _start, _nameEnd, _end, _selfClosing, foreign) => events.push(`<${name}${foreign ? " foreign" : ""}`),
        endTag: () => {},
        text: (_start, _end, kind) => events.push(`text ${kind}`),
      });
      return events;
    };
    expect(kinds("<svg/><style>x</style>")).toEqual(["<svg foreign", "<style foreign", `text ${TEXT_DATA}`]);
    expect(kinds("<svg><g><b>x</b><style>y</style>")).toEqual(["<svg foreign", "<g foreign", "<b", `text ${TEXT_DATA}`, "<style", `text ${TEXT_RAW}`]);
    expect(kinds("<math><mi><style>x</style></mi><style>y</style>")).toEqual(["<math foreign", "<mi foreign", "<style", `text ${TEXT_RAW}`, "<style foreign", `text ${TEXT_DATA}`]);
    expect(kinds("<svg><font color=red>x</font><style>y</style>")).toEqual(["<svg foreign", "<font", `text ${TEXT_DATA}`, "<style", `text ${TEXT_RAW}`]);
  });

  it("renders text as a browser does around svg and math: text after a breakout, svg <text>, MathML, not <template> contents", () => {
    expect(analysePage('<div><svg><path d="M0"></div><p>Some text here</p>').text).toBe("Some text here");
    expect(analysePage("<svg><g>hidden</g><text x=1>Label <tspan>two</tspan></text><desc>no</desc></svg><p>after").text).toBe("Label two\nafter");
    expect(analysePage("<p>x = <math><mi>a</mi><mo>+</mo><mn>1</mn><annotation>no</annotation></math></p>").text).toBe("x = a+1");
    expect(analysePage("<svg><foreignObject><p>inside</p></foreignObject></svg>").text).toBe("inside");
    expect(analysePage("<div>a<template><p>inert</p>b</template>c</div>").text).toBe("a\nc");
    expect(analysePage("<math><![CDATA[x &amp; y]]></math><div><xmp>&lt;b&gt;</xmp></div>").text).toBe("x &amp; y\n&lt;b&gt;");
  });

  it("drops U+0000 from text as HTML5's tree builder does, and reads it as U+FFFD in raw text and titles", () => {
    const page = analysePage("<title>a\u0000b</title><p>fil\u0000ler \u0000 text</p><plaintext>x\u0000");
    expect(page.title).toBe("a\ufffdb");
    expect(page.text).toBe("filler text\nx\ufffd");
  });

  it("counts start tags, links, images and inputs directly in each block", () => {
    const page = analysePage("<div><a href=x>x</a><img src=i><!-- <a> --><p><a>y</a><input><script>'<a>'</script></p></div>");
    const row = (block: number) => Array.from(page.blocks.markup?.subarray(block * MARKUP_COUNTERS, (block + 1) * MARKUP_COUNTERS) ?? []);
    // [tags, links, images, inputs]; the p's counts are not in the div's
    expect(row(1)).toEqual([3, 1, 1, 0]);
    expect(row(2)).toEqual([4, 1, 0, 1]);
    expect(MARKUP_TAGS).toBe(0);
  });

  it("finds the charset label of <meta charset> and of <meta http-equiv content>", () => {
    const label = (html: string) => {
      const [start, end] = analysePage(html).charsetDeclaration ?? [-1, -1];
      return start < 0 ? null : html.slice(start, end);
    };
    expect(label('<head><meta charset=" Windows-1252 "><meta charset="utf-8">')).toBe("Windows-1252");
    expect(label('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">')).toBe("Shift_JIS");
    expect(label('<meta name="description" content="charset=no">')).toBeNull();
  });

  it("gives the scanner's offsets for tags and text runs", () => {
    const events: string[] = [];
    scanHtml("<P class=x>a<!--c--><script>1<2</script><textarea>t</textarea></p>", {
      startTag: (name, start, nameEnd, end, selfClosing) => events.push(`<${name} ${start} ${nameEnd} ${end} ${selfClosing}`),
      endTag: (name, start, end) => events.push(`</${name} ${start} ${end}`),
      text: (start, end, kind) => events.push(`text ${start} ${end} ${kind}`),
    });
    expect(events).toEqual([
      "<p 0 2 11 false", `text 11 12 ${TEXT_DATA}`, "<script 20 27 28 false", `text 28 31 ${TEXT_RAW}`, "</script 31 40",
      "<textarea 40 49 50 false", `text 50 51 ${TEXT_RCDATA}`, "</textarea 51 62", "</p 62 66",
    ]);
  });
});

/** Whether a raw-text or RCDATA element opens and never closes, so that it holds the rest of the page. */
function swallowedByRawText(html: string): boolean {
  for (const match of html.matchAll(/<(title|textarea|script|style|xmp|iframe|noembed|noframes)[\s>]/gi)) {
    if (!new RegExp(`</${match[1]}[\\s/>]`, "i").test(html.slice(match.index))) return true; // "</titlevalue" closes nothing
  }
  return false;
}

describe.runIf(everyDevPage(hasData(), "page-analysis.test.ts"))("page analysis on every page of ../shared/data", () => {
  /** Least share of the gold's words found in the page text, on average over a set (gold is hand-cleaned page text). */
  const MIN_MEAN_GOLD_RECALL = 0.95;
  for (const set of DATA_SETS) {
    it(`set ${set}`, () => {
      const { pages } = loadDataset(set);
      let recallSum = 0;
      const problems: string[] = [];
      for (const page of pages) {
        const model = analysePage(page.html);
        // A page cut short inside an unclosed script, textarea… is all that element, in a browser too (a title is closed at its first tag).
        const tooFew = model.blockCount < 2 && !swallowedByRawText(page.html);
        if (tooFew || model.blockCount > page.html.length / 4 + 2) problems.push(`${page.id}: ${model.blockCount} blocks`);
        for (let block = 1; block < model.blockCount; block++) {
          const parent = model.blocks.parent[block];
          const nested = parent < block && model.blocks.sourceEnd[block] <= model.blocks.sourceEnd[parent] &&
            model.blocks.textStart[block] >= model.blocks.textStart[parent] && model.blocks.textEnd[block] <= model.blocks.textEnd[parent];
          if (!nested) problems.push(`${page.id}: block ${block} not inside its parent ${parent}`);
        }
        const words = new Set(tokenize(model.text.toLowerCase()));
        const gold = tokenize(page.gold.toLowerCase());
        recallSum += gold.length === 0 ? 1 : gold.filter((word) => words.has(word)).length / gold.length;
      }
      expect(problems.slice(0, 10)).toEqual([]);
      expect(recallSum / pages.length).toBeGreaterThan(MIN_MEAN_GOLD_RECALL);
    });
  }
});
