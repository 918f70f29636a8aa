/**
 * Test-only Worker entry for the Node/workerd feature parity test: POST a page's HTML, get back its block
 * features computed inside workerd by the same code the Worker uses (analysePage + computeFeatures), as
 * raw little-endian float32 bytes, with the block count in a header.
 */
import { analysePage, computeFeatures } from "../../src/page/index";

export default {
  async fetch(request: Request): Promise<Response> {
    if (request.method !== "POST") return new Response("POST a page", { status: 405 });
    const html = await request.text();
    const features = computeFeatures(analysePage(html));
    return new Response(features.data.buffer as ArrayBuffer, {
      headers: { "content-type": "application/octet-stream", "x-block-count": String(features.blockCount), "x-feature-count": String(features.featureCount) },
    });
  },
};
