/**
 * Consent banners: a block whose own class or id names a consent dialog (a consent platform, "privacy-consent",
 * "cookie-banner", "gdpr") is never the article's, whatever its prose ("We use cookies and other tracking
 * technologies..." reads like a paragraph, and stands above the headline on many of today's pages). Only blocks the
 * cookie hint already names (the hintCookie feature) are read again, against the stricter list: "cookie" alone names
 * recipes too, "newsletter" and "modal" name other widgets.
 */
import { FEATURE_NAMES, readAttribute, type FeatureMatrix, type PageModel } from "../page/index";

const COOKIE_HINT_COLUMN = FEATURE_NAMES.indexOf("hintCookie");
/**
 * A class or id word that names a consent dialog: consent platforms' names, consent and GDPR, and a cookie notice.
 * "cmp" (a consent management platform: cmpbox, qc-cmp2-container) but not "cmp-" and a word, the prefix of Adobe
 * Experience Manager's components (cmp-container, cmp-text), which wrap whole pages.
 */
const CONSENT_NAME = /(?:^|[^a-z0-9])(?:consent|gdpr|cmp(?!-[a-z])|cybot|usercentrics|didomi|onetrust|borlabs|klaro|cookie[-_]?(?:banner|notice|consent|bar|law|message|popup|dialog|warning|notification))/i;

/** Block ordinal → 1 for the blocks whose own class or id names a consent dialog. */
export function consentBlocks(page: PageModel, features: FeatureMatrix): Uint8Array {
  const consent = new Uint8Array(page.blockCount);
  const stride = features.featureCount;
  const { source, blocks } = page;
  for (let b = 1; b < page.blockCount; b++) {
    if (features.data[b * stride + COOKIE_HINT_COLUMN] !== 1) continue;
    const names = `${readAttribute(source, blocks.sourceNameEnd[b], blocks.startTagEnd[b], "class") ?? ""} ${readAttribute(source, blocks.sourceNameEnd[b], blocks.startTagEnd[b], "id") ?? ""}`;
    if (CONSENT_NAME.test(names)) consent[b] = 1;
  }
  return consent;
}
