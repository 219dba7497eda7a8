// Game records on the page (docs/record-format.md): a record's text read into its start and moves
// (a match record's deal chosen), and a record put in an address and read back from it
// (docs/web.md, "A record in the address": `?record=` the JSON lines compressed with raw DEFLATE,
// RFC 1951, in base64url without padding, RFC 4648 section 5).

import { toFrench } from "./cards.js";
import { variantInfo } from "./shared.js";

// The game of a record's text: {header, start (position data, its own labels), view (the viewing
// seat of a view record, or null), players (names, or null), seed, moves (French texts), lines
// (each move's line: its number in the text, its text as written, and the seat it names when it
// names one, for checkPlayers), deals (how many the text holds)}; of a match record (R21), deal
// `deal` (from 1). Error: a line that is not JSON, a move number that is not the move's, no game
// header, no such deal. The server checks the rest.
export function parseRecord(text, deal = 1) {
  const games = [];
  // Lines are numbered as the server numbers them: blank lines counted, not read.
  String(text).split(/\r?\n/).forEach((raw, k) => {
    const line = raw.trim();
    if (!line) return;
    let item;
    try {
      item = JSON.parse(line);
    } catch {
      throw new Error(`line ${k + 1} of the record is not JSON`);
    }
    if (item && item.format === "conquian-record") games.push({ header: item, moves: [], lines: [] });
    else if (item && typeof item.move === "string" && games.length) {
      const game = games[games.length - 1];
      const n = game.moves.length + 1;
      if ("n" in item && item.n !== n) throw new Error(`line ${k + 1}: move number ${JSON.stringify(item.n)} should be ${n}`);
      game.moves.push(item.move);
      game.lines.push({ number: k + 1, text: item.move, named: "player" in item, player: item.player });
    }
  });
  if (!games.length) throw new Error('not a game record: no line with "format": "conquian-record"');
  if (deal > games.length) throw new Error(`deal ${deal}: the match record holds ${games.length} deals`);
  const { header, moves } = games[deal - 1];
  const start = header.start;
  // Moves are written in the start's labels (its own, else the variant's, R2).
  const variant = header.variant || start?.variant || "classic";
  const own = (start && typeof start === "object" && start.labels) || variantInfo(variant)?.labels || "french";
  const names = Array.isArray(header.players) && header.players.every((p) => typeof p === "string") ? header.players : null;
  return {
    header,
    start,
    view: Number.isInteger(header.view) ? header.view : null,
    players: names,
    seed: Number.isInteger(header.seed) ? header.seed : null,
    moves: moves.map((m) => toFrench(m, own)),
    lines: games[deal - 1].lines,
    deals: games.length,
  };
}

// The record's `player` keys checked against the seats that acted in its replay (`plies`, the
// server's `record` answer: each ply's `player`, null for a turn of the stock), as the server's
// reading of a record checks them (docs/record-format.md). Error: the first line that names
// another seat, in the server's words.
export function checkPlayers(game, plies) {
  game.lines.forEach((line, k) => {
    const ply = plies[k];
    if (!line.named || !ply || line.player === ply.player) return;
    const text = line.text.length <= 40 ? line.text : `${line.text.slice(0, 39)}…`;
    const said = `player ${JSON.stringify(line.player)}${line.player === null ? " (a chance move)" : ""}`;
    const acts = ply.player === null ? "chance" : `player ${ply.player}`;
    throw new Error(`line ${line.number} (move ${k + 1}) '${text}': the record says ${said}, but ${acts} acts here`);
  });
}

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
