// A game's events, live, over Server-Sent Events (docs/streams.md): the public stream, or the
// caller's own through a stream ticket (an EventSource cannot send Authorization).
import {ApiError} from "./api.js";
import {sleep} from "./dom.js";

// The server names each SSE event by its type (`event: CardDrawn`): an EventSource hands an
// event only to the listeners of its name, so the page listens to every type there is.
const EVENT_TYPES = ["GameCreated", "PositionLoaded", "ClockSet", "SeatsOpened", "SeatJoined",
  "GameStarted", "RoundDealt", "DeckShuffled",
  "DeckCut", "StockChosen", "OfferOpened", "BuyRequested", "BuyPassed", "OfferClosed",
  "CardBought", "CardDrawn", "ContractOpened", "CardLaidOff", "JokerSwapped", "CardDiscarded",
  "StockRebuilt", "ShanghaiCalled", "ClaimOpened", "ClaimRequested", "ClaimPassed",
  "ClaimClosed", "CardClaimed", "PenaltyCardTaken", "TurnTimedOut", "SeatTakenOver",
  "SeatReclaimed", "RoundEnded", "RoundScored", "GameEnded", "GameAborted", "LobbyExpired",
  "PlayerSeated", "SpectatorAdded", "RematchCreated", "RematchOf", "SeatTokenIssued"];
// No play follows them (only table events may: a spectator let in, a rematch made).
const FINAL = ["GameEnded", "GameAborted", "LobbyExpired"];
const OVER = ["finished", "aborted", "expired"];
const BATCH_MS = 50; // events arriving together are handed over together
/** Events after which the seats' names or kinds may differ (someone joined, bots filled the
 * open seats): a page reloads them (api.js loadSeats). */
export const SEATING = ["SeatJoined", "GameStarted"];

/**
 * Follow `gameId`'s events after version `after` for `client` (api.js apiClient): calls
 * `onEvents(batch)` with new events in version order (none twice), `onEnd()` once after the
 * game's last event, `onState(text)` as the connection goes ("live", "reconnecting"), and
 * `onError(error)` when the game cannot be read (an ApiError: 404 for an unknown game).
 *
 * The browser reconnects a dropped stream by itself (Last-Event-ID). When it gives up (the
 * stream answered 204 because the game is over, 401 because the ticket expired, 429), the
 * game's state decides: over, the rest of the feed is read once and the page ends; otherwise
 * the stream is opened again (a new ticket). So a finished game's page never reconnects.
 */
export function followEvents(client, gameId, after, {onEvents, onEnd, onState, onError}) {
  const base = `/v1/games/${encodeURIComponent(gameId)}`;
  let source = null, ended = false, pending = [], flushTimer = null, retryMs = 1000;

  async function open() {
    let url = `${base}/stream?after=${after}`;
    if (client.token) {
      const {ticket} = await client.post(`${base}/stream-tickets`);
      url += `&ticket=${encodeURIComponent(ticket)}`;
    }
    source = new EventSource(url);
    source.onopen = () => { retryMs = 1000; onState("live"); };
    for (const type of EVENT_TYPES) source.addEventListener(type, receive);
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) gaveUp().catch(fail);
      else onState("reconnecting");
    };
  }
  function receive(message) {
    take([JSON.parse(message.data)]);
  }
  function take(events) {
    for (const event of events) {
      if (ended || event.version <= after) continue;
      after = event.version;
      pending.push(event);
      if (FINAL.includes(event.type)) { end(); return; }
    }
    flushTimer ??= setTimeout(flush, BATCH_MS);
  }
  function flush() {
    clearTimeout(flushTimer);
    flushTimer = null;
    if (pending.length) { const batch = pending; pending = []; onEvents(batch); }
  }
  function end() {
    ended = true;
    if (source) source.close();
    flush();
    onEnd();
  }
  async function gaveUp() {
    source = null;
    for (;;) {
      try {
        if (OVER.includes((await client.get(base)).status)) return await readTheRest();
        onState("reconnecting");
        await sleep(retryMs);
        retryMs = Math.min(retryMs * 2, 15000);
        return await open();
      } catch (error) {
        if (fatal(error)) throw error;
        onState("reconnecting"); // the server is away or busy: try again later
        await sleep(retryMs);
        retryMs = Math.min(retryMs * 2, 15000);
      }
    }
  }
  async function readTheRest() {
    for (let more = true; more && !ended;) {
      const page = await client.get(`${base}/events?after=${after}&limit=5000`);
      take(page.events);
      more = page.more;
    }
    if (!ended) end();
  }
  function fail(error) {
    if (source) source.close();
    ended = true;
    onError(error);
  }

  const fatal = (error) => error instanceof ApiError && error.status < 500 && error.status !== 429;
  open().catch((error) => (fatal(error) ? fail(error) : gaveUp().catch(fail)));
  return {stop() { ended = true; if (source) source.close(); }};
}
