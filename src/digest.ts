/** SHA-256 through Web Crypto (workerd and Node alike): cache keys, ETags, rate-limit keys, sampled page names. */

/** The SHA-256 of a text (as UTF-8) or of bytes. */
export async function sha256(data: string | ArrayBuffer | Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", typeof data === "string" ? new TextEncoder().encode(data) : data));
}

/** Hex SHA-256 of a text or of bytes, the first `length` digits. */
export async function hexDigest(data: string | ArrayBuffer | Uint8Array, length = 64): Promise<string> {
  let hex = "";
  for (const byte of await sha256(data)) hex += byte.toString(16).padStart(2, "0");
  return hex.slice(0, length);
}
