/**
 * Where HTMLRewriter refuses a page. lol-html rewrites from tokens, without a tree, and after a <select> or a
 * <frameset> start tag a start tag that switches the tokenizer to text (<style>, <noscript>, <iframe>…) may be
 * ignored by a browser's tree builder or not: lol-html cannot tell whether what follows is text or markup, and
 * refuses the page rather than guess (its ambiguity guard). Pass 1 follows the same states over the same start and
 * end tags, so that pass 2 knows when a page that needs nothing from HTMLRewriter must still go through it: its
 * refusal stands (a bailout: the page goes out as it came), and nothing is cut where the parse is in doubt.
 */

/** The start tags that switch the tokenizer to text. */
const SWITCHES_TO_TEXT = new Set(["textarea", "title", "plaintext", "script", "style", "iframe", "xmp", "noembed", "noframes", "noscript"]);
/** Start tags that end a <select> early (as a browser's tree builder does). */
const LEAVES_SELECT = new Set(["select", "textarea", "input", "keygen"]);

const OUTSIDE = 0;
const IN_SELECT = 1;
const IN_TEMPLATE_IN_SELECT = 2;
const IN_OR_AFTER_FRAMESET = 3;

export class RewriterAmbiguity {
  private state = OUTSIDE;
  private templateDepth = 0;
  /** A start tag was read where HTMLRewriter refuses the page. */
  found = false;

  /** Whether a start tag other than <select> or <frameset> can matter now (outside, none does). */
  get watching(): boolean {
    return this.state !== OUTSIDE;
  }

  startTag(name: string): void {
    switch (this.state) {
      case OUTSIDE:
        if (name === "select") this.state = IN_SELECT;
        else if (name === "frameset") this.state = IN_OR_AFTER_FRAMESET;
        return;
      case IN_SELECT:
        if (LEAVES_SELECT.has(name)) this.state = OUTSIDE;
        else if (name === "template") {
          this.state = IN_TEMPLATE_IN_SELECT;
          this.templateDepth = 1;
        } else if (name !== "script" && SWITCHES_TO_TEXT.has(name)) this.found = true; // a script belongs in a select
        return;
      case IN_TEMPLATE_IN_SELECT:
        if (name === "template") this.templateDepth++;
        else if (SWITCHES_TO_TEXT.has(name)) this.found = true;
        return;
      default:
        if (name !== "noframes" && SWITCHES_TO_TEXT.has(name)) this.found = true; // noframes belongs with a frameset
    }
  }

  endTag(name: string): void {
    if (this.state === IN_SELECT && name === "select") this.state = OUTSIDE;
    else if (this.state === IN_TEMPLATE_IN_SELECT && name === "template" && --this.templateDepth === 0) this.state = IN_SELECT;
  }
}
