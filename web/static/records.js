// A game record put in an address and read back from it (docs/web.md, "A record in the
// address": `?record=` the JSON lines compressed with raw DEFLATE, RFC 1951, in base64url without
// padding, RFC 4648 section 5). The server reads a record's text itself (`record` with `text`).

function base64url(bytes) {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

// A record's text as the address carries it.
export async function encodeRecord(text) {
  const compressed = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return base64url(new Uint8Array(await new Response(compressed).arrayBuffer()));
}

// The record's text an address carries. Error: not base64url, or not a DEFLATE stream.
export async function decodeRecord(code) {
  const b64 = String(code).trim().replaceAll("-", "+").replaceAll("_", "/");
  let binary;
  try {
    binary = atob(b64 + "===".slice((b64.length + 3) % 4));
  } catch {
    throw new Error("the address's record is not base64url text");
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  try {
    const plain = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return await new Response(plain).text();
  } catch {
    throw new Error("the address's record cannot be read: it is not a compressed record (raw DEFLATE)");
  }
}
