// The board's requests: POST /api (one answer) and POST /api/stream (progress, then the answer).

let counter = 0;

export class ApiError extends Error {
  constructor(answer, status) {
    super(answer.error || `HTTP ${status}`);
    this.answer = answer;
    this.status = status;
    this.field = answer.field ?? null;
  }
}

// An error's message without the API's field name in front of it ("moves: move 19 'lay …': …" ->
// "move 19 'lay …': …"), for a line where the field is plain from the context (the entry's error
// line is about the move entered); any other error's message as it is.
export function messageOf(error) {
  const text = error && error.message ? String(error.message) : String(error);
  const field = error && typeof error.field === "string" ? error.field : "";
  return field && text.startsWith(`${field}: `) ? text.slice(field.length + 2) : text;
}

// A BigInt field (a match's deal seed, up to 2**63) is sent as a JSON whole number, every digit
// kept: JSON.stringify knows no BigInt, and a Number holds only 53 bits.
const BIG = "\u0000bigint:";

function body(cmd, fields) {
  counter += 1;
  const text = JSON.stringify({ id: counter, cmd, ...fields }, (_, v) => (typeof v === "bigint" ? `${BIG}${v}` : v));
  return text.replace(/"\\u0000bigint:(-?[0-9]+)"/g, "$1");
}

// fetch, with a network failure (the server stopped, the connection lost) told as such rather
// than the browser's "Failed to fetch"; an abort stays an AbortError.
async function post(url, text, signal) {
  try {
    return await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: text, signal });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError({ ok: false, error: "the server cannot be reached: is 'conquian serve' still running?" }, 0);
  }
}

// One engine request; resolves with its result, rejects with ApiError (ok: false) or AbortError.
export async function api(cmd, fields = {}, { signal } = {}) {
  const response = await post("/api", body(cmd, fields), signal);
  let answer;
  try {
    answer = await response.json();
  } catch {
    answer = { ok: false, error: `HTTP ${response.status}` };
  }
  if (!answer.ok) throw new ApiError(answer, response.status);
  return answer.result;
}

// A long request whose progress events ({done, planned}) go to onProgress and whose early answer
// (a hint's first half second of sampling) to onEarly; aborting `signal` closes the stream, and
// the server stops the search.
export async function stream(cmd, fields, onProgress, { signal, onEarly } = {}) {
  const response = await post("/api/stream", body(cmd, fields), signal);
  if (!response.ok || !response.body) {
    let answer;
    try {
      answer = await response.json();
    } catch {
      answer = { ok: false, error: `HTTP ${response.status}` };
    }
    throw new ApiError(answer, response.status);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (error) {
      if (error.name === "AbortError") throw error;
      throw new ApiError({ ok: false, error: "the connection to the server was lost: is 'conquian serve' still running?" }, 0);
    }
    const { value, done } = chunk;
    if (done) break;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let event = "message";
      let data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
      }
      const parsed = JSON.parse(data);
      if (event === "progress") onProgress?.(parsed);
      else if (event === "early" && parsed.ok) onEarly?.(parsed.result);
      else if (event === "answer") {
        if (!parsed.ok) throw new ApiError(parsed, parsed.status ?? 400);
        return parsed.result;
      } else if (event === "error") {
        // The server could not answer (busy, past its time cap, a search process lost).
        throw new ApiError(parsed, parsed.status ?? 503);
      }
    }
  }
  throw new ApiError({ ok: false, error: "the stream ended without an answer" }, 0);
}
