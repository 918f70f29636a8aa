import { HTMLRewriter } from "html-rewriter-wasm";
import { expect, it } from "vitest";
it("loads html-rewriter-wasm", async () => {
  const out: Uint8Array[] = [];
  const rw = new HTMLRewriter((c: Uint8Array) => out.push(c));
  rw.on("b", { element(e: any) { e.remove(); } });
  await rw.write(new TextEncoder().encode("<p>a<b>x</b>c</p>"));
  await rw.end();
  rw.free();
  expect(Buffer.concat(out).toString()).toBe("<p>ac</p>");
});
