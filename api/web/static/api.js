// The pages' calls to the JSON API: the caller's token (if any) in the Authorization header,
// the server's clock from the Server-Time header, and the game's seats.

/** An API refusal: `status` and the problem+json body. */
export class ApiError extends Error {
  constructor(status, body) {
    super(`${status} ${body.detail || body.title || ""}`.trim());
    this.status = status;
    this.body = body;
  }
}

let serverOffsetMs = 0; // Server-Time minus this browser's clock, at the last response

/** The server's time now (ms since the epoch), whatever this browser's clock says. */
export function serverNow() { return Date.now() + serverOffsetMs; }

function noteServerTime(reply) {
  const stamp = Date.parse(reply.headers.get("Server-Time") || "");
  if (!Number.isNaN(stamp)) serverOffsetMs = stamp - Date.now();
}

const tokenKey = (gameId) => `rummy-token:${gameId}`;

/** The caller's token of `gameId`: taken from the URL fragment (#token=…, then dropped from the
 * address bar) into the tab's sessionStorage, or found there; null without one. Never put in
 * a query string, so no server or proxy log records it. */
export function storedToken(gameId) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (gameId && fragment.has("token")) {
    sessionStorage.setItem(tokenKey(gameId), fragment.get("token"));
    history.replaceState(null, "", location.pathname + location.search);
  }
  return gameId ? sessionStorage.getItem(tokenKey(gameId)) : null;
}

export function keepToken(gameId, token) { sessionStorage.setItem(tokenKey(gameId), token); }

/** A client of the API for one caller: `get(url)` and `post(url, body, headers)` resolve to the
 * JSON body (null for 204) or throw an ApiError. */
export function apiClient(token) {
  const auth = token ? {Authorization: `Bearer ${token}`} : {};
  async function call(url, init = {}) {
    const reply = await fetch(url, {...init,
      headers: {Accept: "application/json", ...auth, ...(init.headers || {})}});
    noteServerTime(reply);
    if (reply.status === 204) return null;
    const body = await reply.json().catch(() => ({detail: reply.statusText}));
    if (!reply.ok) throw new ApiError(reply.status, body);
    return body;
  }
  return {
    token,
    get: (url) => call(url),
    post: (url, body, headers = {}) => call(url, {method: "POST",
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: {...(body === undefined ? {} : {"Content-Type": "application/json"}), ...headers}}),
  };
}

// ---- the seats' names --------------------------------------------------------------------

let players = [];

/** Load the seats of `gameId` (name, human or bot, level) for seatName and seatKind. Throws
 * an ApiError (404 for an unknown game and for a private one without its token). */
export async function loadSeats(client, gameId) {
  players = await client.get(`/web/seats/${encodeURIComponent(gameId)}`);
}

export function seatName(seat) {
  const p = players[seat];
  return (p && p.name) || `Seat ${seat + 1}`;
}

export function seatKind(seat) {
  const p = players[seat];
  if (!p) return "";
  return p.kind === "bot" ? `bot (${p.level})` : p.kind;
}

export function seatCount() { return players.length; }
