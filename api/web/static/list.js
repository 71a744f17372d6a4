// /: the public games, newest first, with links to watch and replay each.
import {apiClient} from "./api.js";
import {el, say} from "./dom.js";

export async function listPage(app) {
  const client = apiClient(null);
  const list = el("ul", {class: "games", "aria-label": "Games"});
  const more = el("button", {type: "button", hidden: true, text: "More games"});
  app.append(list, more);
  let cursor = null;
  const load = async () => {
    const pageOfGames = await client.get("/v1/games?limit=20" + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""));
    for (const g of pageOfGames.items) {
      const id = encodeURIComponent(g.id);
      list.append(el("li", {class: "game", "data-game": g.id},
        el("span", {class: "game-id", text: g.id}),
        el("span", {class: `pill ${g.status}`, text: g.status}),
        el("span", {text: g.round ? `round ${g.round}` : ""}),
        el("span", {class: "when", text: new Date(g.created).toLocaleString()}),
        el("a", {href: `/watch/${id}`, text: "Watch", "aria-label": `Watch game ${g.id}`}),
        el("a", {href: `/replay/${id}`, text: "Replay", "aria-label": `Replay game ${g.id}`})));
    }
    cursor = pageOfGames.next_cursor;
    more.hidden = !cursor;
    const count = list.children.length;
    say(count ? `${count} game${count === 1 ? "" : "s"} shown.` : "No games yet.");
  };
  more.addEventListener("click", () => load().catch((e) => say(`Could not load: ${e.message}`)));
  await load();
}
