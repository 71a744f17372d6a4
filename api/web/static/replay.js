// /replay/{id}?v=N: the table after event N, with a slider, steps, play/pause and round starts.
import {apiClient, loadSeats, storedToken} from "./api.js";
import {el, say} from "./dom.js";
import {renderLog} from "./log.js";
import {renderTable, tableShell} from "./table.js";

/** Every event of the game the caller may see: the feed comes in pages (`more`, `next_after`). */
async function allEvents(client, base) {
  const events = [];
  for (let after = 0, more = true; more;) {
    const page = await client.get(`${base}/events?after=${after}&limit=5000`);
    events.push(...page.events);
    ({more, next_after: after} = page);
  }
  return events;
}

function button(text, name, action) {
  const b = el("button", {type: "button", "aria-label": name, title: name, text});
  b.addEventListener("click", action);
  return b;
}

export async function replayPage(app, gameId) {
  const client = apiClient(storedToken(gameId));
  await loadSeats(client, gameId);
  const base = `/v1/games/${encodeURIComponent(gameId)}`;
  const latest = await client.get(base);
  const last = latest.version;
  const events = await allEvents(client, base);
  const {root, log} = tableShell(app);
  const roundStarts = events.filter((e) => e.type === "RoundDealt").map((e) => e.version);
  const asked = Number.parseInt(new URLSearchParams(location.search).get("v"), 10);
  let version = Number.isInteger(asked) ? Math.min(Math.max(asked, 1), last) : last;

  const slider = el("input", {type: "range", min: 1, max: last, value: version, id: "version",
    "aria-label": "Version"});
  const label = el("output", {for: "version", "data-testid": "version"});
  const play = button("Play", "Play", () => togglePlay());
  app.insertBefore(el("div", {class: "controls", role: "group", "aria-label": "Replay controls"},
    button("« Round", "Previous round start", () => go(roundStarts.filter((v) => v < version).at(-1) ?? 1)),
    button("‹ Step", "Step back", () => go(version - 1)),
    play,
    button("Step ›", "Step forward", () => go(version + 1)),
    button("Round »", "Next round start", () => go(roundStarts.find((v) => v > version) ?? last)),
    slider, label), app.querySelector(".layout"));

  let shown = 0, timer = null;
  async function show(v) {
    const table = await client.get(`${base}/replay?version=${v}`);
    if (v !== version) return; // a later move of the slider won
    renderTable(root, table);
    renderLog(log, events.filter((e) => e.version <= v));
    shown = v;
    say(`Version ${v} of ${last}${latest.status === "finished" ? " · every hand shown" : ""}`);
  }
  function go(v) {
    version = Math.min(Math.max(v, 1), last);
    slider.value = version;
    label.textContent = `${version} / ${last}`;
    const url = new URL(location.href);
    url.searchParams.set("v", version);
    history.replaceState(null, "", url);
    show(version).catch((e) => say(`Could not load version ${version}: ${e.message}`));
  }
  function togglePlay() {
    if (timer) {
      clearInterval(timer); timer = null;
      play.textContent = "Play"; play.setAttribute("aria-label", "Play");
      return;
    }
    play.textContent = "Pause"; play.setAttribute("aria-label", "Pause");
    timer = setInterval(() => {
      if (version >= last) togglePlay();
      else if (shown === version) go(version + 1);
    }, 300);
  }
  slider.addEventListener("input", () => go(Number(slider.value)));
  go(version);
}
