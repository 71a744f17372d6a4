// /play/{id}#token=…: a seat's table and its moves. A hand card is chosen by tapping it (or
// Enter/Space); then it can be discarded, or laid off by tapping a meld that takes it. A card
// can also be dragged onto such a meld. Every other move is one of the server's legal actions.
import {ApiError, apiClient, keepToken, loadSeats, seatName, storedToken} from "./api.js";
import {cardEl, cardName, cardText, sortedHand} from "./cards.js";
import {el, say} from "./dom.js";
import {SEATING, followEvents} from "./live.js";
import {renderLog} from "./log.js";
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
        choices = null;
        keepingFocus(render);
      } while (stale);
    } finally {
      reading = false;
    }
  }
  /** Run `draw`, then give the focus back to what had it (the same card, meld or button). */
  function keepingFocus(draw) {
    const had = document.activeElement;
    const key = !had || !app.contains(had) ? null
      : had.dataset.card ? `[data-testid=hand] [data-card="${CSS.escape(had.dataset.card)}"]`
      : had.dataset.meld ? `.meld[data-meld="${had.dataset.meld}"]`
      : had.getAttribute("aria-label") ? `[aria-label="${CSS.escape(had.getAttribute("aria-label"))}"]` : null;
    draw();
    const again = key && app.querySelector(key);
    if (again && again !== had) again.focus();
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
  function handCard(code, index) {
    const button = el("button", {type: "button", class: "card-button", draggable: "true",
      "aria-pressed": String(code === selected), "aria-label": cardName(code),
      "data-card": code, "data-index": index}, cardEl(code));
    button.addEventListener("click", () => {
      selected = selected === code ? null : code;
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
  function renderMoves() {
    const mine = view.awaiting.seats.includes(view.seat);
    const hand = el("div", {class: "hand mine", role: "group", "data-testid": "hand",
      "aria-label": `Your hand, by ${sortBy}: choose a card, then discard it or lay it off on a meld`},
      sortedHand(view.hand, sortBy).map(handCard));
    const chosen = selected ? el("div", {class: "chosen", "data-testid": "chosen"},
      el("span", {text: `Chosen: ${cardText(selected)}. `}),
      moveButton({type: "discard", card: selected}, view, act),
      layOffsAnywhere(selected) ? el("span", {class: "hint", text: " or tap a highlighted meld to lay it off"}) : null) : null;
    const picks = choices ? el("div", {class: "choices", role: "group", "aria-label": "Choose how"},
      el("span", {text: "Choose: "}), choices.map((a) => moveButton(a, view, act))) : null;
    const moves = view.legal_actions.filter((a) => a.type !== "discard").map((a) => moveButton(a, view, act));
    panel.replaceChildren(...[
      el("div", {class: "you-head"}, el("h2", {text: `You are ${seatName(view.seat)}${mine ? ": your move" : ""}`}), sortToggle()),
      hand, chosen, picks, el("div", {class: "moves"}, moves)].filter(Boolean));
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
