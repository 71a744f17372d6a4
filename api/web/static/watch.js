// /watch/{id}: the public table, live. The events come over SSE (live.js) and each batch makes
// the page read the public table; the table and the log are drawn together at the table's
// version (a table read ahead of the stream waits for the stream's events up to its version),
// so both always show the same moment.
import {apiClient, loadSeats, storedToken} from "./api.js";
import {say, sleep} from "./dom.js";
import {SEATING, followEvents} from "./live.js";
import {renderLog} from "./log.js";
import {renderTable, tableShell} from "./table.js";

const MIN_REFRESH_MS = 250; // a bots' game moves fast: at most four table reads a second

export async function watchPage(app, gameId) {
  const client = apiClient(storedToken(gameId)); // a private game's player or spectator
  await loadSeats(client, gameId);
  const {root, log} = tableShell(app);
  const base = `/v1/games/${encodeURIComponent(gameId)}`;
  const events = [];
  let shown = 0, table = null, reading = false, ended = false, connection = "live";

  function sayState() {
    if (table && table.status === "finished" && ended) say("The game is finished.");
    else if (table && table.status === "aborted" && ended) say("The game was stopped.");
    else say(connection === "live" ? `Live · version ${shown}` : "Connection lost; reconnecting…");
  }
  let caughtUp = () => {};
  const lastVersion = () => (events.length ? events.at(-1).version : 0);
  /** Resolves once the stream has brought version `version`, or after `ms`. */
  function streamReaches(version, ms) {
    if (lastVersion() >= version) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      caughtUp = () => { if (lastVersion() >= version) { clearTimeout(timer); resolve(); } };
    });
  }
  async function refresh() {
    if (reading) return; // the running read takes the newest version when done
    reading = true;
    try {
      while (shown < lastVersion()) {
        table = await client.get(base);
        await streamReaches(table.version, 5000);
        renderTable(root, table);
        renderLog(log, events.filter((event) => event.version <= table.version));
        shown = table.version;
        sayState();
        await sleep(MIN_REFRESH_MS);
      }
    } finally {
      reading = false;
    }
    sayState();
  }
  const failed = (error) => say(`Could not load the table: ${error.message}`);
  followEvents(client, gameId, 0, {
    async onEvents(batch) {
      events.push(...batch);
      caughtUp();
      if (batch.some((event) => SEATING.includes(event.type))) await loadSeats(client, gameId).catch(failed);
      refresh().catch(failed);
    },
    onEnd() { ended = true; refresh().catch(failed); },
    onState(state) { connection = state; sayState(); },
    onError: (error) => notFoundOr(app, error),
  });
}

/** A page's answer to an API refusal: "not found" (and nothing else) for a 404, else the error. */
export function notFoundOr(app, error) {
  if (error.status === 404) {
    for (const node of [...app.children]) if (node.id !== "status" && node.tagName !== "H1") node.remove();
    say("Game not found: no such game, or it is private and this browser holds no token of it.");
  } else {
    say(`Could not load: ${error.message}`);
  }
}
