// /play/{id}#token=…: a seat's table and its moves. A hand card is chosen by tapping it (or
// Enter/Space); then it can be discarded, or laid off by tapping a meld that takes it. A card
// can also be dragged onto such a meld. A seat that has not gone down may pick cards into melds
// and send them (opening.js). Every other move is one of the server's legal actions.
import {ApiError, apiClient, keepToken, loadSeats, seatName, storedToken} from "./api.js";
import {cardEl, cardName, cardText, sortedHand} from "./cards.js";
import {el, say} from "./dom.js";
import {SEATING, followEvents} from "./live.js";
import {renderLog} from "./log.js";
import {keepOpening, keptOpening, mayOpen, newOpening, openingPanel, togglePick} from "./opening.js";
import {renderTable, tableShell} from "./table.js";
import {notFoundOr} from "./watch.js";

const SORT_KEY = "rummy-hand-sort"; // "suit" or "rank", kept across games (localStorage)

function askForToken(app, gameId, message) {
  const input = el("input", {type: "password", id: "token", autocomplete: "off", required: true});
  const form = el("form", {class: "token-form"},
    el("label", {for: "token", text: "Your seat's token"}), input,
    el("button", {type: "submit", text: "Sit down"}));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    keepToken(gameId, input.value.trim());
    location.reload();
  });
  app.append(form);
  say(message);
}

function ruleLink(rule) {
  return el("a", {href: `/docs/rules#${rule.toLowerCase().replace(/\./g, "-")}`, text: `rule ${rule}`});
}

/** The words of a legal action; `name` writes a card (cardText on screen, cardName aloud). */
function actionWords(action, view, name) {
  const offered = view.offer ? name(view.offer.card) : "the card";
  switch (action.type) {
    case "draw": return action.from === "stock" ? "Draw from the stock"
      : `Take ${name(view.discard_top)} from the discard pile`;
    case "discard": return `Discard ${name(action.card)}`;
    case "buy": return `Buy ${offered}`;
    case "pass": return `Pass on ${offered}`;
    case "open": return `Go down: ${action.melds.map((m) => m.map(name).join(" ")).join(" | ")}`;
    case "lay_off": return `Lay off ${name(action.card)} on ${meldName(view, action.meld)}${action.end ? ` (${action.end} end)` : ""}`;
    case "swap_joker": return `Swap ${name(action.card)} for the joker of ${meldName(view, action.meld)}`;
    default: return action.type.replace(/_/g, " ");
  }
}

/** "run 4": a meld as the table shows it (its kind and its number on the table). */
function meldName(view, index) {
  const meld = (view.melds || []).find((m) => m.index === index);
  return `${meld ? meld.kind : "meld"} ${index + 1}`;
}

function moveButton(action, view, act) {
  const button = el("button", {type: "button", class: "move",
    "aria-label": actionWords(action, view, cardName), text: actionWords(action, view, cardText)});
  button.addEventListener("click", () => act(action));
  return button;
}

/** The legal lay-offs of hand card `code` onto meld `meld` (a joker's may name what it stands for). */
function layOffs(view, code, meld) {
  return view.legal_actions.filter((a) => a.type === "lay_off" && a.meld === meld
    && a.card.split("=")[0] === code);
}

export async function playPage(app, gameId) {
  const token = storedToken(gameId);
  if (!token) { askForToken(app, gameId, "This page needs your seat's token (the game's creator got it)."); return; }
  const client = apiClient(token);
  const base = `/v1/games/${encodeURIComponent(gameId)}`;
  try {
    await loadSeats(client, gameId);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      askForToken(app, gameId, "This token is not one of this game's: enter your seat's token.");
      return;
    }
    throw error;
  }
  const {root, log} = tableShell(app);
  const panel = el("section", {class: "you", "aria-label": "Your moves"});
  const refusal = el("p", {class: "refusal", role: "alert", hidden: true, "data-testid": "refusal"});
  app.insertBefore(el("div", {}, refusal, panel), app.querySelector(".layout"));
  const events = [];
  let view = null, selected = null, choices = null, dragged = null, reading = false, stale = false;
  const openingKey = `opening ${base}`;
  let opening = keptOpening(openingKey); // going down by hand: the cards picked, the melds made
  let sortBy = localStorage.getItem(SORT_KEY) === "rank" ? "rank" : "suit";

  async function load() {
    if (reading) { stale = true; return; }
    reading = true;
    try {
      do {
        stale = false;
        const before = view ? view.version : null;
        view = await client.get(`${base}/view`);
        if (view.version === before) { renderLog(log, events.filter((e) => e.version <= view.version)); continue; }
        if (selected && !view.hand.includes(selected)) selected = null;
        if (!mayOpen(view) || opening.hand !== JSON.stringify(view.hand)) opening = newOpening();
        choices = null;
        keepingFocus(render);
      } while (stale);
    } finally {
      reading = false;
    }
  }
  /** Run `draw`, then give the focus back to what had it (the same card, meld or button); when
   * that went away (into a meld being made) or is disabled, to the first card of the hand. */
  function keepingFocus(draw) {
    const had = document.activeElement;
    const find = !had || !app.contains(had) || had === document.body ? null : finder(had);
    draw();
    if (!find) return;
    const again = find();
    if (again && !again.disabled) { if (again !== had) again.focus(); return; }
    const next = app.querySelector("[data-testid=hand] button") || app.querySelector("[data-testid=go-down]");
    if (next) next.focus();
  }
  /** A function finding, after a redraw, the element that stands for `had`. */
  function finder(had) {
    const one = (selector) => () => app.querySelector(selector);
    if (had.dataset.card) {
      const card = `[data-testid=hand] [data-card="${CSS.escape(had.dataset.card)}"]`;
      return () => app.querySelector(`${card}[data-index="${had.dataset.index}"]`) || app.querySelector(card);
    }
    if (had.dataset.meld) return one(`.meld[data-meld="${had.dataset.meld}"]`);
    if (had.getAttribute("aria-label")) return one(`[aria-label="${CSS.escape(had.getAttribute("aria-label"))}"]`);
    if (had.dataset.testid) return one(`[data-testid="${had.dataset.testid}"]`);
    const text = had.tagName === "BUTTON" && had.textContent;
    return text ? () => [...app.querySelectorAll("button")].find((b) => b.textContent === text) : null;
  }
  function render() {
    renderTable(root, view);
    renderLog(log, events.filter((e) => e.version <= view.version));
    renderMoves();
    markTargets(selected || dragged);
    sayWhatNow();
  }
  function sayWhatNow() {
    say(view.status === "finished" ? "The game is finished."
      : view.awaiting.seats.includes(view.seat) ? "Your move." : "Waiting for the other seats…");
  }
  async function act(action) {
    try {
      await client.post(`${base}/actions`, action, {"If-Match": `"${view.version}"`});
      refusal.hidden = true;
      selected = null;
      opening = newOpening();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const rule = error.body.rule;
      refusal.replaceChildren(el("strong", {text: "Refused: "}),
        error.body.detail || error.body.title || `${error.status}`,
        rule ? " (" : "", rule ? ruleLink(rule) : "", rule ? ")" : "");
      refusal.hidden = false;
    }
    await load();
  }
  function layOff(actions) {
    if (actions.length === 1) { act(actions[0]); return; }
    choices = actions; // a joker, or a run with two free ends: say which
    renderMoves();
    panel.querySelector(".choices button").focus();
  }

  function sortToggle() {
    const option = (by, text) => {
      const b = el("button", {type: "button", class: "toggle", "aria-pressed": String(sortBy === by), text});
      b.addEventListener("click", () => {
        sortBy = by;
        localStorage.setItem(SORT_KEY, by);
        keepingFocus(renderMoves);
      });
      return b;
    };
    return el("div", {class: "sort", role: "group", "aria-label": "Sort your hand"},
      el("span", {text: "Sort:"}), option("suit", "By suit"), option("rank", "By rank"));
  }
  /** A hand card, `index` its place in view.hand (two decks: the same code may come twice). */
  function handCard([code, index]) {
    const pressed = opening.active ? opening.picked.includes(index) : code === selected;
    const button = el("button", {type: "button", class: "card-button", draggable: String(!opening.active),
      "aria-pressed": String(pressed), "aria-label": cardName(code),
      "data-card": code, "data-index": index}, cardEl(code));
    button.addEventListener("click", () => {
      if (opening.active) togglePick(opening, index);
      else selected = selected === code ? null : code;
      choices = null;
      keepingFocus(renderMoves);
      markTargets(selected);
    });
    button.addEventListener("dragstart", (event) => {
      dragged = code;
      event.dataTransfer.setData("text/plain", code);
      event.dataTransfer.effectAllowed = "move";
      markTargets(code);
    });
    button.addEventListener("dragend", () => { dragged = null; markTargets(selected); });
    return button;
  }
  /** [code, index in view.hand] of the hand shown: sorted, without the cards put in melds. */
  function shownHand() {
    const taken = new Set(opening.active ? opening.melds.flatMap((meld) => meld.cards) : []);
    const used = new Set();
    return sortedHand(view.hand, sortBy).map((code) => {
      const index = view.hand.findIndex((c, i) => c === code && !used.has(i));
      used.add(index);
      return [code, index];
    }).filter(([, index]) => !taken.has(index));
  }
  function startOpening() {
    opening = {...newOpening(), active: true, hand: JSON.stringify(view.hand)};
    selected = null;
    choices = null;
    renderMoves();
    markTargets(null);
    panel.querySelector("[data-testid=hand] button, [data-testid=make-meld]").focus();
    say("Going down by hand: choose the cards of a meld, then Make meld.");
  }
  function renderMoves() {
    keepOpening(openingKey, opening);
    const mine = view.awaiting.seats.includes(view.seat);
    const hand = el("div", {class: "hand mine", role: "group", "data-testid": "hand",
      "aria-label": opening.active ? `Your hand, by ${sortBy}: choose the cards of a meld`
        : `Your hand, by ${sortBy}: choose a card, then discard it or lay it off on a meld`},
      shownHand().map(handCard));
    const building = opening.active
      ? openingPanel(opening, view, () => keepingFocus(renderMoves), act) : null;
    const byHand = !opening.active && mayOpen(view)
      ? el("button", {type: "button", class: "move", text: "Go down by picking cards"}) : null;
    if (byHand) byHand.addEventListener("click", startOpening);
    const chosen = selected && !opening.active ? el("div", {class: "chosen", "data-testid": "chosen"},
      el("span", {text: `Chosen: ${cardText(selected)}. `}),
      moveButton({type: "discard", card: selected}, view, act),
      layOffsAnywhere(selected) ? el("span", {class: "hint", text: " or tap a highlighted meld to lay it off"}) : null) : null;
    const picks = choices ? el("div", {class: "choices", role: "group", "aria-label": "Choose how"},
      el("span", {text: "Choose: "}), choices.map((a) => moveButton(a, view, act))) : null;
    const moves = view.legal_actions.filter((a) => a.type !== "discard").map((a) => moveButton(a, view, act));
    panel.replaceChildren(...[
      el("div", {class: "you-head"}, el("h2", {text: `You are ${seatName(view.seat)}${mine ? ": your move" : ""}`}), sortToggle()),
      hand, building, chosen, picks, el("div", {class: "moves"}, byHand, moves)].filter(Boolean));
  }
  function layOffsAnywhere(code) {
    return view.legal_actions.some((a) => a.type === "lay_off" && a.card.split("=")[0] === code);
  }

  /** Make the melds that take `code` targets: tap, Enter/Space or drop lays it off. */
  function markTargets(code) {
    for (const node of root.querySelectorAll(".meld[data-meld]")) {
      const actions = code ? layOffs(view, code, Number(node.dataset.meld)) : [];
      node.classList.toggle("target", actions.length > 0);
      if (actions.length) {
        node.setAttribute("role", "button");
        node.setAttribute("tabindex", "0");
        node.setAttribute("aria-label", `${node.querySelector(".meld-kind").textContent}: lay off ${cardName(code)} here`);
      } else {
        node.removeAttribute("role");
        node.removeAttribute("tabindex");
        node.setAttribute("aria-label", node.querySelector(".meld-kind").textContent);
      }
    }
  }
  const meldOf = (event) => event.target.closest(".meld.target[data-meld]");
  root.addEventListener("click", (event) => {
    const meld = meldOf(event);
    if (meld && selected) layOff(layOffs(view, selected, Number(meld.dataset.meld)));
  });
  root.addEventListener("keydown", (event) => {
    const meld = meldOf(event);
    if (meld && selected && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      layOff(layOffs(view, selected, Number(meld.dataset.meld)));
    }
  });
  root.addEventListener("dragover", (event) => { if (dragged && meldOf(event)) event.preventDefault(); });
  root.addEventListener("drop", (event) => {
    const meld = meldOf(event), code = dragged;
    if (!meld || !code) return;
    event.preventDefault();
    dragged = null;
    layOff(layOffs(view, code, Number(meld.dataset.meld)));
  });

  await load();
  followEvents(client, gameId, 0, {
    async onEvents(batch) {
      events.push(...batch);
      if (batch.some((event) => SEATING.includes(event.type))) await loadSeats(client, gameId).catch(() => {});
      load().catch((e) => say(`Could not load: ${e.message}`));
    },
    onEnd() { load().catch((e) => say(`Could not load: ${e.message}`)); },
    onState(state) { if (state === "live") sayWhatNow(); else say("Connection lost; reconnecting…"); },
    onError: (error) => notFoundOr(app, error),
  });
}
