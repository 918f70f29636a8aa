/**
 * Tuned numbers and limits, in one place. Each constant says its unit and where its value came from.
 * After changing a calibrated value, re-run `npm run eval` (and `npm run bench` for limits).
 * Each module keeps its constants in its own section below.
 */

// ── page analysis (src/page) ───────────────────────────────────────────────────────────────────────

// ── site rules (src/rules) ─────────────────────────────────────────────────────────────────────────

/** Most rules compiled for one site; the rest are skipped and listed, and an upload with more is refused. Mined sites
 * keep tens to a few hundred, and the miner writes at most MINING_MAX_RULES_PER_SITE (1,000). */
export const RULES_MAX_RULE_COUNT = 1000;
/** Longest rule set text read or accepted, in UTF-16 code units (about bytes for the ASCII JSON the miner writes). The
 * largest mined set is 54 KB; 1 Mi bounds parsing, compiling and the /v1/rules answer. */
export const RULES_MAX_RULE_SET_CHARACTERS = 1024 * 1024;
/** Longest pattern accepted, in UTF-16 code units; a 60-token template string with separators is about 1,500. */
export const RULES_MAX_PATTERN_LENGTH = 4096;
/** Most rule matches collected on one page (all rules together); beyond it the page keeps its text (a bailout,
 * "too-many-rule-matches", not a cut). */
export const RULES_MAX_MATCHES_PER_PAGE = 100_000;
/** Most page text scanned by rules on one page, in UTF-16 code units summed over the rules that run (rules whose
 * required words are not on the page do not run); beyond it a "rule-work" bailout. Each rule scans the text once,
 * at about 5-8 ns per code unit in V8, so this bounds rule matching to about a second. Mined sets on their own
 * pages stay far below it (1,000 rules × 100 KB of page text = 10^8). */
export const RULES_MAX_SCAN_CHARACTERS = 150_000_000;
/** Two rule intervals merge when the text between them is white space or punctuation only and at most this many
 * UTF-16 code units long (paper 002, 3.4.1: "separated by less than a user-defined number of characters").
 * 32 covers separators such as " | ", " · ", "\n\n" and runs of dashes; a gap holding a letter or digit never merges. */
export const RULES_MERGE_GAP_MAX_CHARACTERS = 32;
/** How long an isolate keeps a compiled rule set before reading KV again, in seconds (KV itself caches 60 s): the
 * delay before a newly published set is applied, against a KV read per site a minute. The Worker var RULES_CACHE_TTL
 * overrides it (0: KV is read on every request). */
export const RULES_CACHE_TTL_SECONDS = 60;
/** Most compiled rule sets one isolate keeps; the oldest is dropped first. */
export const RULES_CACHE_MAX_ENTRIES = 256;
/** Most path segments in a site key (`bbc.co.uk/news` has 1): a URL looks up this many longer keys before its host,
 * in one parallel round of KV reads. Sections of sites are named by their first folder or two. */
export const RULES_KEY_MAX_PATH_SEGMENTS = 2;

// ── CSS selectors (src/selectors) ──────────────────────────────────────────────────────────────────

/** Longest selector list accepted, in UTF-16 code units (a request header or one RuleSet entry). Hand-written and
 * imported selectors are tens of characters; 1,024 bounds parsing and the per-element work of a hostile one. */
export const SELECTOR_MAX_LENGTH = 1024;
/** Most selectors (comma-separated alternatives) in one list; Full-Text RSS configs join a few per line. */
export const SELECTOR_MAX_ALTERNATIVES = 32;
/** Most compound selectors (steps joined by combinators) in one selector: the matcher keeps one bit per step. */
export const SELECTOR_MAX_STEPS = 16;
/** Most simple selectors (#id, .class, [attr]) in one step. */
export const SELECTOR_MAX_TESTS = 16;
/** Most selectors (alternatives) in one RuleSet's strip, main, keep and metadata together. With a request's
 * X-Target-Selector and X-Remove-Selector (SELECTOR_MAX_ALTERNATIVES each) at most 256 run on a page: the matcher's
 * work is that times the page's elements times SELECTOR_MAX_STEPS at worst. */
export const SELECTOR_MAX_PER_RULE_SET = 192;
/** Most `main` entries (fallbacks) in one RuleSet, and most entries per metadata field: each is matched as its own
 * list, and one scan matches at most 32 lists (strip, keep, a request's two, 8 main, 3 × 4 metadata fit). */
export const SELECTOR_MAX_MAIN_ENTRIES = 8;
export const SELECTOR_MAX_METADATA_ENTRIES = 4;

// ── classifier and smoothing (src/classify, src/training) ─────────────────────────────────────────

/** Automatic labels: share of a site's pages a block text must be on to be template (paper 000, paper 003 sec. 5.1). */
export const LABEL_TEMPLATE_PAGE_SHARE = 0.1;
/** Automatic labels: an internal block with at least this share of its text in template blocks is template (paper 003 sec. 5.1). */
export const LABEL_TEMPLATE_COVER_SHARE = 0.85;
/** Automatic labels: blocks whose normalised text is shorter than this (characters) are not fingerprinted (paper 000: too little text). */
export const LABEL_MIN_CHARS = 3;
/** Gold labels: a block with at least this share of its tokens in the gold text is content, at most the second share template; between, left out (a block mixing both teaches nothing). */
export const GOLD_LABEL_CONTENT_SHARE = 0.8;
export const GOLD_LABEL_TEMPLATE_SHARE = 0.2;
/** The article guard: text nodes outside links at least this long (characters) are prose (Readability's 25 for a paragraph worth scoring). */
export const PROSE_MIN_CHARS = 25;
/** Hidden elements go (classify/hidden.ts) unless the page shows less prose than this (characters) and less
 * than it hides: then it hides its body until a script shows it. Origin: about two paragraphs of a story; pages that
 * carry hidden schema.org copies of their story (businessinsider.de on scrapinghub) hide more prose than they show. */
export const HIDDEN_MIN_VISIBLE_PROSE = 1000;
/** A <noscript> is read as markup, for the formats that show text (page/noscript.ts), when the page shows less prose
 * than this outside it and the <noscript> holds this much or more (characters, counted as PROSE_MIN_CHARS counts it).
 * Origin: a notice to enable scripts is a sentence or two; the forum pages of wceb2026 served in <noscript> show at most
 * 120 characters of prose outside it and hold 2,700-24,000 in it; a page that shows 680 (dragnet's bbc.co.uk gallery)
 * shows its own text. */
export const NOSCRIPT_MIN_PROSE_CHARS = 500;
/** The JSON-LD articleBody (classify/article-body.ts): read when it holds at least ARTICLE_BODY_MIN_WORDS words (a
 * teaser-length description says nothing of where the article ends) and the page shows at least
 * ARTICLE_BODY_SHOWN_SHARE of them outside hidden blocks; its words are compared in shingles of ARTICLE_BODY_SHINGLE
 * words. A block with at least ARTICLE_BODY_CONTENT_SHARE of its words in it is the article's; a block after the
 * article's last such block with at most ARTICLE_BODY_TEMPLATE_SHARE is another story's. Origin: the gold labels'
 * shares (GOLD_LABEL_CONTENT_SHARE and GOLD_LABEL_TEMPLATE_SHARE), a paragraph's worth of words, and a half. */
export const ARTICLE_BODY_MIN_WORDS = 100;
export const ARTICLE_BODY_SHOWN_SHARE = 0.5;
export const ARTICLE_BODY_SHINGLE = 3;
export const ARTICLE_BODY_CONTENT_SHARE = 0.8;
export const ARTICLE_BODY_TEMPLATE_SHARE = 0.2;
/** Smoothing: classifier scores are quantised to this many levels before smoothing (keeps the DP at O(blocks x levels); 32 costs ~0.7 ms on 3,000 blocks). */
export const SMOOTHING_SCORE_LEVELS = 32;
/** Page kinds (classify/kind.ts). Products on a page (JSON-LD or microdata) from which it is a collection, not one product's
 * page: a product page names its product, at most with a variant or an accessory beside it. */
export const KIND_COLLECTION_MIN_PRODUCTS = 3;
/** <pre> blocks with text from which a page without a schema.org type is documentation: code shown by example, more than
 * the one snippet an article may quote. */
export const KIND_CODE_MIN_BLOCKS = 2;
/** Signed posts side by side (each with a link and a <time>, no heading) from which a container is a thread's run of
 * posts: a question and two answers. */
export const KIND_POST_RUN_MIN_POSTS = 3;
/** Share of the page's text in runs of posts from which a page without a schema.org type is a forum thread: the posts
 * are half of what it says (an article's comments follow a longer text of its own). */
export const KIND_POST_RUN_MIN_TEXT_SHARE = 0.5;
/** A paragraph of an article's own text, as kind.ts looks for one outside a run of posts: a run of text outside links
 * of this many characters or more (two sentences). */
export const KIND_PARAGRAPH_MIN_CHARS = 150;
/** Cards side by side (alike elements, each with a link) from which a container is a listing's grid or list of cards:
 * more than a row of teasers under an article. */
export const KIND_CARD_RUN_MIN_CARDS = 5;
/** A card's text, at least: a title of a few words. */
export const KIND_CARD_MIN_CHARS = 40;
/** Share of the page's text outside its frame in one run of cards from which a page without a schema.org type is a
 * listing: the cards are half of what it says. */
export const KIND_CARD_RUN_MIN_TEXT_SHARE = 0.5;
/** Share of the page's prose in one container's own paragraphs from which the page has an article's body beside its
 * cards, and is no listing: a tenth, as the fall-back's shape test (SPREAD_MAIN_MAX_SHARE). */
export const KIND_BODY_MIN_SHARE = 0.1;
/** Candidate unsure margins of the fall-back (classify/decide.ts fallbackKind), in score units above the classifier's
 * threshold; training chooses one per page kind inside the folds, 0 (no fall-back) where none does better without leaving
 * a set worse. 1 keeps every block the page does not mark as its frame, set apart or hide. */
export const UNSURE_MARGIN_GRID = [0, 0.2, 0.4, 0.6, 1];
/** Share of an unknown page's prose (runs of text outside links, classify/decide.ts isProseNode) in its main-content block at
 * or below which the page is not shaped as an article: an article is one body of prose, and its main-content block holds
 * it; a service page's sections, a listing's summaries and a product's parts spread over many blocks. Prose, not all the
 * text: a short article beside a long menu is still one body of prose (a menu is links). */
export const SPREAD_MAIN_MAX_SHARE = 0.1;
/** Share of a page's text inside the elements that mark its frame (<nav>, <header>, <footer>, <aside>) from which the
 * page marks its frame: the fall-back removes that frame and keeps the rest, so it is for pages that mark one (1 in 20
 * characters: a menu and a footer's links). */
export const FRAME_MIN_SHARE = 0.05;
/** Logistic regression: full-batch Adam epochs, step size and L2 weight (chosen on out-of-fold log-loss; `npm run train`). */
export const LOGISTIC_EPOCHS = 300;
export const LOGISTIC_STEP = 0.05;
export const LOGISTIC_L2 = 1e-4;
/** Boosted trees: count, depth, shrinkage, leaf L2, least hessian per child, histogram bins (chosen on out-of-fold scores; `npm run train`). */
export const BOOSTED_TREES = 80;
export const BOOSTED_DEPTH = 3;
export const BOOSTED_LEARNING_RATE = 0.2;
export const BOOSTED_L2 = 1;
export const BOOSTED_MIN_HESSIAN = 5;
export const BOOSTED_BINS = 32;
/** Training: folds of the cross-validation by site, and least pages for a dragnet site to give automatic labels (the data README's 8+). */
export const TRAIN_FOLDS = 4;
export const TRAIN_MIN_SITE_PAGES = 8;

// ── rewrite and formats (src/rewrite) ──────────────────────────────────────────────────────────────

/** Most elements the Markdown writer acts on (lists, quotes, blocks, links, emphasis, tables) open at once; deeper
 * ones add no structure, only their text. Each open element costs work at every close and a prefix on every line,
 * so this bounds the writer to O(page × this). Origin: on 929 pages of the four data sets, Markdown with a cap of 16
 * differs on 161 pages, 32 on 5, 48 and above on none; 64 leaves a margin. */
export const MARKDOWN_MAX_NESTING = 64;

/** The text format leaves out the headline it starts with (rewrite/text-writer.ts leadingHeadline): a headline comes
 * after at most this much kept text (characters, white space not counted: a kicker, a section name, a date line) and
 * is at most HEADLINE_MAX_CHARS long (a heading that holds more is not a headline). Origin: scrapinghub's kickers and
 * section names run to about 60 characters, and its longest headline to about 200. */
export const HEADLINE_MAX_LEAD_CHARS = 200;
export const HEADLINE_MAX_CHARS = 300;
/** The article's header (rewrite/text-writer.ts articleHeader) ends at the first paragraph only within this much kept text
 * after the headline (characters, white space not counted): a byline, a date line, a standfirst and a caption or two.
 * Past it the text after the headline is the article's, paragraphs or not. Origin: a few short lines and a paragraph; on the dev pages 500 and any larger bound give the same text but on one page. */
export const ARTICLE_HEADER_MAX_CHARS = 1000;

/** Seconds the reader API keeps an answer in the Cache API (GET /v1/clean?url=, /v1/read, /v1/feed; Worker var
 * READER_CACHE_TTL overrides, 0 turns it off). Origin: a full-text feed polled every few minutes re-fetched every
 * article each poll; five minutes keeps a news page fresh enough and cuts a poller's fetches to one per period. */
export const READER_CACHE_TTL_SECONDS = 300;

// ── feeds (src/feed, src/http/feed*) ───────────────────────────────────────────────────────────────

/** Most items of one feed that are cleaned; later items go out as they came. Origin: large news feeds carry 50-100 items; 200 bounds the work per request. */
export const FEED_MAX_ITEMS = 200;
/** Items whose link is fetched for full text when the request gives no `limit`. Origin: feed readers show the newest 10-20. */
export const FEED_FULLTEXT_DEFAULT_ITEMS = 10;
/** Largest `limit` accepted for full text, in items. Origin: Workers allow 50 subrequests per request on the free plan; 30 leaves room for redirects. */
export const FEED_FULLTEXT_MAX_ITEMS = 30;
/** Item pages fetched at once. Origin: a Worker may hold 6 connections open at a time; one is the feed's own. */
export const FEED_FULLTEXT_CONCURRENCY = 4;
/** Time for one item page (headers and body), in milliseconds; a slow item is marked, the feed goes on. */
export const FEED_ITEM_TIMEOUT_MS = 8_000;
/** Time after which no further item page is started, in milliseconds from the request; the rest are marked skipped. */
export const FEED_FULLTEXT_BUDGET_MS = 25_000;

// ── pipeline limits (src/clean.ts) ─────────────────────────────────────────────────────────────────

/** Largest page clean() works on, in UTF-8 bytes; past it the result is a "too-large" bailout. Same as the HTTP
 * body limit (HTTP_MAX_BODY_BYTES), so a page the API accepts is never refused by the pipeline. Origin: modern pages
 * that inline their data (a framework's state, JSON-LD, bundles) reach 5-10 MB (wceb2026's largest, 5.3 MB, was refused
 * at 5 MiB); inline scripts cost one unit per 64 characters scanned, so a 10 MiB page of them takes about 170,000 units
 * of CLEAN_WORK_BUDGET_UNITS, and the work budget, not this cap, bounds a dense page's time. */
export const CLEAN_MAX_BYTES = 10 * 1024 * 1024;
/** Most blocks clean() works on; past it a "too-many-blocks" bailout. The largest dev page has about 4,000
 * blocks; 60,000 bounds the smoothing and the rewrite on hostile pages (a few ms per 10,000 blocks). */
export const CLEAN_MAX_BLOCKS = 60_000;
/** Time one page may take in clean(), in milliseconds of the clock: checked between stages, between a paced page's
 * slices and in rule matching; past it a "time-budget" bailout (the page passes through). A paced page's pauses
 * count, so a large page in a busy isolate is passed through in time rather than left running behind the others.
 * Every stage is linear with the caps above, so this is a backstop: pages of the dev sets take under 0.5 s in Node.
 * Deployed workerd advances its clock only across I/O, so there the check sees no time pass within one page and the
 * caps (bytes, blocks, rules, nesting, work) are what bound it; Node and local workerd (wrangler dev, Miniflare) do
 * advance it. */
export const CLEAN_TIME_BUDGET_MS = 10_000;
/** Work one page may take in clean(), in units counted by work-meter.ts (a scanner event, a block, a text node, a
 * block at one smoothing level, a writer's event, 64 characters); past it a "time-budget" bailout, in whichever stage
 * (the writers check as they walk). Counted, not timed, since deployed workerd's clock stands still between I/O.
 * Origin: json, the format that counts most, takes at most 124,000 units on every 10th dev page (dragnet 131) and at
 * most 75,600 per 100 KB, so a 5 MiB page of that density fits; the 200,000-link page takes 1.8 M; Node does 700-2,400
 * units per ms (a loaded 2-core machine), so this bounds a page to a few seconds. */
export const CLEAN_WORK_BUDGET_UNITS = 4_000_000;
/** Most characters of a page read for the text a bailout falls back to where the page is over a limit (size, blocks,
 * work): the text of the page's start, in UTF-16 code units, read by pass 1's scanner alone (src/rewrite/fallback-writer.ts).
 * Origin: 1 Mi holds the whole of 2,166 of the 2,214 dev pages (median 62 KB, 99th percentile 1.5 MB, largest 5.3 MB)
 * and is a fifth of the largest page accepted (CLEAN_MAX_BYTES), so the fallback costs at most a fifth of one scan of
 * such a page. */
export const CLEAN_FALLBACK_MAX_CHARACTERS = 1024 * 1024;
/** Pages from this size on (UTF-8 bytes) give the isolate back to other requests between clean()'s stages, so that
 * /healthz and small pages are answered while a large one is cleaned. Origin: a 100 KB page cleans in about 10 ms,
 * below which a pause gains nothing. */
export const CLEAN_YIELD_MIN_BYTES = 256 * 1024;
/** Pages with this many blocks or more pause between clean()'s stages too, whatever their size: the classifier costs
 * per block (features, scores, smoothing: about 20 us a block in Node, so 8,000 blocks take about 160 ms), and a
 * page of nested lists or a huge table packs 20,000 blocks in 100 KB. The dev pages have at most about 4,000. */
export const CLEAN_YIELD_MIN_BLOCKS = 8_000;
/** Source characters pass 1 scans between two pauses of a paced clean() (src/slices.ts), and events of its recorded walk
 * a writer replays between two. Origin: the 200,000-link page (4 MB, 600,000 events) scans at about 75 ms per MB and
 * its writers replay about 2 us per event in Node on the loaded 2-core machine, local workerd 2-4x slower: a slice is
 * then 5-20 ms in Node, under 80 ms in workerd. At twice these (128 K, 16,384) the hostile load scenario's /healthz
 * came within 949 ms of its 1 s (load average 11-12); smaller slices cost the heavy page a pause each (about 1 ms). */
export const CLEAN_SLICE_CHARACTERS = 64 * 1024;
export const CLEAN_SLICE_EVENTS = 8_192;

// ── mining (src/mining) ─────────────────────────────────────────────────────────────────────────────

/** Strings of fewer tokens are not template candidates (paper 002, step 7: "less than two tokens"). */
export const MINING_MIN_TOKENS = 2;
/** Strings in fewer pages are dropped before the histogram (paper 002, step 7); 2 = "repeated across pages". */
export const MINING_MIN_DOCUMENTS = 2;
/** Strings need this many word or class tokens (punctuation tokens do not count), the paper's two-token minimum
 * for its whitespace-separated tokens. */
export const MINING_MIN_WORD_TOKENS = 2;
/** Least share of a string's occurrences that start or end at a block boundary or span one (template strings are
 * blocks, run across blocks, or from a block edge to the page's own content; idioms sit inside running text).
 * Mean cleaned F1 on the 30 dev sites with 8+ pages (`npm run mine:eval -- --direct`): 0 (off) → 0.714,
 * 0.3 → 0.743, 0.5 → 0.747, 0.8 → 0.751, 0.9 → 0.755, 1 → 0.755. */
export const MINING_MIN_BOUNDARY_SHARE = 0.9;
/** Occurrences sampled per string for the boundary share (bounds the work on very frequent strings). */
export const MINING_BOUNDARY_SAMPLE = 64;
/** Bins of the document-frequency histogram (paper 002, step 9a). */
export const MINING_HISTOGRAM_BINS = 100;
/** Conservative cutoff: bin pairs whose eq. 3.1 energy is at most (1 + tolerance) × the least compete, and the lowest
 * cut wins (the paper prefers keeping template to losing it). 1 = within twice the least energy. On the 30 dev sites
 * with 8+ pages (two folds, `npm run mine:eval -- --direct`), mean cleaned F1: 0 → 0.733, 0.1 → 0.734, 1 → 0.742. */
export const MINING_CUTOFF_ENERGY_TOLERANCE = 1;
/** Cross-site filter: n-gram length in tokens; an n-gram is shared when it is in template candidates of at least
 * max(MIN_SITES, ceil(SITE_SHARE × sites)) sites. Calibrated on the 30 dev sites with 8+ pages. */
export const MINING_CROSS_SITE_NGRAM_TOKENS = 3;
export const MINING_CROSS_SITE_MIN_SITES = 3;
export const MINING_CROSS_SITE_SITE_SHARE = 0.25;
/** Longest rule in tokens; longer template strings become several rules (the Worker merges adjacent matches).
 * 60 tokens with separators stay far below RULES_MAX_PATTERN_LENGTH. */
export const MINING_MAX_RULE_TOKENS = 60;
/** Literal words a rule needs. With 1, rules of mutable values and punctuation only (a date, "⟨time⟩ ⟨am/pm⟩") are
 * not written, since they also match such values in article text; measured with `npm run mine:eval -- --direct`
 * such rules remove far more template (comment and list timestamps) than content: mean F1 0.754 with 0, 0.743 with 1. */
export const MINING_MIN_RULE_LITERAL_WORDS = 0;
/** Most rules written per site (highest document frequency first); below RULES_MAX_RULE_COUNT. */
export const MINING_MAX_RULES_PER_SITE = 1000;
/** Sites with fewer pages are not mined by default (too few pages for a bimodal histogram). */
export const MINING_MIN_PAGES_PER_SITE = 4;
/** Shards of the learned cross-site table (src/consumer), in Durable Objects; every job calls each once. 32: at a
 * million sites the table is about 13 GB (docs/learning.md, from `npm run bench:learn`), 0.4 GB a shard, far below an
 * object's 10 GB, and a queue batch of 4 jobs makes 128 calls, far below an invocation's 1,000 subrequests. */
export const CROSS_SITE_SHARDS = 32;
/** Attempts of one shard call that the runtime marks retryable (an object reset or overloaded), in calls. */
export const CROSS_SITE_MAX_ATTEMPTS = 4;

// ── HTTP (src/http) ─────────────────────────────────────────────────────────────────────────────────

/** Largest request body or fetched page the API accepts, in bytes (env MAX_BODY_BYTES overrides). Origin: the pipeline's
 * cap, CLEAN_MAX_BYTES (10 MiB: pages heavy with inline data reach 5-10 MB), far below the Worker's 128 MB memory. */
export const HTTP_MAX_BODY_BYTES = CLEAN_MAX_BYTES;
/** Time to wait for an origin's response headers, in milliseconds (env FETCH_TIMEOUT_MS overrides). */
export const HTTP_FETCH_TIMEOUT_MS = 10_000;
/** Time to wait for a fetched page's whole body once the headers arrived, in milliseconds (env FETCH_BODY_TIMEOUT_MS overrides). */
export const HTTP_FETCH_BODY_TIMEOUT_MS = 15_000;
/** Redirects followed when fetching a page; each hop is checked against the target guard. Browsers allow 20; pages need 1-3. */
export const HTTP_MAX_REDIRECTS = 5;
/** Longest URL accepted as a target, in characters (beyond common browser and CDN limits of 2-8 KB). */
export const HTTP_MAX_URL_LENGTH = 8192;
/** Largest body of POST /v1/read (Jina's `{url, …}` form), in bytes: a URL and a few options, with room to spare. */
export const READ_POST_MAX_BYTES = 64 * 1024;

/**
 * The Content-Signal (contentsignals.org) the proxy sends with a site's Markdown and text: Cloudflare's Markdown for
 * Agents default (developers.cloudflare.com/fundamentals/reference/markdown-for-agents/), so that a site moved
 * behind the proxy says what it said before. The CONTENT_SIGNAL var replaces it ("off": none).
 */
export const CONTENT_SIGNAL = "ai-train=yes, search=yes, ai-input=yes";

// ── learning from traffic (src/learning, src/consumer) ──────────────────────────────────────────────

/** A site's sample takes at most one page per this many minutes (env LEARN_SAMPLE_SPACING_MINUTES overrides): a burst
 * of requests, a forger's included, adds one page an hour, so the 10 pages a job needs (LEARN_MIN_PAGES) come from 10
 * hours at least. An hour keeps a busy site's sample spread over the second half of its week-long staleness period
 * (84 hours: up to 84 pages, above LEARN_MAX_PAGES' 50). */
export const LEARNING_SAMPLE_SPACING_MINUTES = 60;
/** A learned set is published only from pages whose sampling times span at least this many hours, and each of its
 * rules and strip selectors must remove something on pages that span as long (env LEARN_MIN_SPAN_HOURS overrides): text
 * put on the site for a while (a comment in a sidebar, a banner) must stay a day to become a rule. A day is below the
 * time an hourly-spaced sample of 10 pages takes on a site that is read all day, and far below a template's life. */
export const LEARNING_MIN_SPAN_HOURS = 24;
/** Each rule and strip selector of a learned set must remove text on at least this many sampled pages, and on at least
 * LEARNING_RULE_MIN_PAGE_SHARE of them, or it is dropped: text of one page is never template. The miner's own rules sit
 * above both on every set in rules/ (least document frequency 5 pages, 22 % of a site's pages: blogs.nfl.com). */
export const LEARNING_RULE_MIN_PAGES = 3;
export const LEARNING_RULE_MIN_PAGE_SHARE = 0.2;
/** A learned set that removes more than the set it would replace by this share of the sampled pages' text (0-1; env
 * LEARN_REVIEW_MARGIN overrides) waits for an admin (GET /admin/learn/:site, POST /admin/rules/:site/approve). For a
 * site without rules, the set it replaces is the classifier, which cleaned its pages until then. Measured on the 21
 * dragnet and 2 l3s-gn1 sites with 10+ pages (up to 20 each, test/control/learning-evidence.test.ts): a learned set
 * removes at most 0.015 more than the classifier (sethgodin.typepad.com), median 0.008 less, guardian.co.uk 0.32 less;
 * samples/learn-test.example 0.094 more (published under npm start). 0.1 lets every one of them through. */
export const LEARNING_REVIEW_MARGIN = 0.1;
