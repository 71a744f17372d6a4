// The web table of Contract Rummy: the game list, the live public table and the replay.
// Reads only the public JSON API (/v1), so it shows what the public may see.
const app = document.getElementById("app");
const page = app.dataset.page;
const gameId = app.dataset.game;
const players = JSON.parse(app.dataset.players || "[]");
const statusLine = document.getElementById("status");

const RANK_NAMES = {A: "ace", J: "jack", Q: "queen", K: "king", 2: "two", 3: "three",
  4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"};
const SUITS = {C: ["♣", "clubs"], D: ["♦", "diamonds"], H: ["♥", "hearts"], S: ["♠", "spades"]};
const PHASES = {draw: "drawing", buying: "a buy offer is open", play: "melding or discarding",
  over: "the round is over"};

// ---- small helpers ----------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

async function getJSON(url) {
  const reply = await fetch(url, {headers: {Accept: "application/json"}});
  if (!reply.ok) {
    let detail = reply.statusText;
    try { detail = (await reply.json()).detail || detail; } catch { /* not JSON */ }
    throw new Error(`${reply.status} ${detail}`);
  }
  return reply.json();
}

function say(text) { statusLine.textContent = text; }

function seatName(seat) {
  const p = players[seat];
  return (p && p.name) || `Seat ${seat + 1}`;
}

function seatKind(seat) {
  const p = players[seat];
  if (!p) return "";
  return p.kind === "bot" ? `bot (${p.level})` : "human";
}

// ---- cards ------------------------------------------------------------------------------

/** "9H" -> "nine of hearts"; "JK" -> "joker"; "JK=9H" -> "joker as nine of hearts". */
export function cardName(code) {
  if (code === "JK") return "joker";
  if (code.startsWith("JK=")) return `joker as ${cardName(code.slice(3))}`;
  const rank = code.slice(0, -1), suit = code.slice(-1);
  return `${RANK_NAMES[rank] || rank} of ${SUITS[suit] ? SUITS[suit][1] : suit}`;
}

/** Short text of a card for the log: "9♥", "joker", "joker as 9♥". */
function cardText(code) {
  if (!code) return "a card";
  if (code === "JK") return "joker";
  if (code.startsWith("JK=")) return `joker as ${cardText(code.slice(3))}`;
  const suit = code.slice(-1);
  return code.slice(0, -1) + (SUITS[suit] ? SUITS[suit][0] : suit);
}

/** A card face: rank and suit symbol (the colour only repeats the suit), named for readers. */
function cardEl(code) {
  if (code === "JK" || code.startsWith("JK=")) {
    const as = code.length > 2 ? code.slice(3) : null;
    return el("span", {class: "card joker", role: "img", "aria-label": cardName(code),
      title: cardName(code)}, el("span", {class: "rank", "aria-hidden": "true", text: "★"}),
      el("span", {class: "suit", "aria-hidden": "true", text: as ? cardText(as) : "JK"}));
  }
  const suit = code.slice(-1);
  return el("span", {class: `card suit-${suit}`, role: "img", "aria-label": cardName(code),
    title: cardName(code)},
    el("span", {class: "rank", "aria-hidden": "true", text: code.slice(0, -1)}),
    el("span", {class: "suit", "aria-hidden": "true", text: SUITS[suit][0]}));
}

function cardBack(label) {
  return el("span", {class: "card back", role: "img", "aria-label": label, title: label});
}

// ---- the event log ----------------------------------------------------------------------

/** A sentence for one public (redacted) event, or null for one not worth a line. */
export function describe(event) {
  const d = event.data, who = (s) => seatName(s);
  switch (event.type) {
    case "GameCreated": return `The game began; ${seatName(d.first_dealer)} deals first.`;
    case "PositionLoaded": return "The game began from a given position.";
    case "RoundDealt": return `Round ${d.round}: ${who(d.dealer)} dealt; the upcard is ${cardText(d.upcard)}.`;
    case "StockChosen": return `${who(d.seat)} chose the stock.`;
    case "OfferOpened": return `${cardText(d.card)} is offered to the other seats.`;
    case "BuyRequested": return `${who(d.seat)} asked to buy it.`;
    case "BuyPassed": return `${who(d.seat)} passed.`;
    case "OfferClosed": return d.buyer === null ? `Nobody bought ${cardText(d.card)}.` : null;
    case "CardBought": return `${who(d.seat)} bought ${cardText(d.card)} and took a penalty card.`;
    case "CardDrawn": return d.source === "discard"
      ? `${who(d.seat)} took ${cardText(d.card)} from the discard pile.`
      : `${who(d.seat)} drew from the stock.`;
    case "ContractOpened": return `${who(d.seat)} went down with ${d.melds.map((m) => m.map(cardText).join(" ")).join(" | ")}.`;
    case "CardLaidOff": return `${who(d.seat)} laid off ${cardText(d.card)} on meld ${d.meld + 1}.`;
    case "JokerSwapped": return `${who(d.seat)} swapped ${cardText(d.card)} for the joker of meld ${d.meld + 1}.`;
    case "CardDiscarded": return `${who(d.seat)} discarded ${cardText(d.card)}.`;
    case "StockRebuilt": return "The stock ran out and was rebuilt from the discard pile.";
    case "RoundEnded": return d.winner === null
      ? `The round ended without a winner (${d.reason === "turn_cap" ? "turn limit" : "no card to draw"}).`
      : `${who(d.winner)} went out.`;
    case "RoundScored": return `Round ${d.round} scored: ${d.scores.map((s, i) => `${who(i)} +${s}`).join(", ")}.`;
    case "GameEnded": return `The game is over: ${d.winners.map(who).join(" and ")} won.`;
    default: return `${event.type}.`;
  }
}

function renderLog(node, events) {
  const lines = [];
  for (const event of events) {
    const text = describe(event);
    if (text) lines.push(el("li", {value: event.version, text}));
  }
  node.replaceChildren(...lines.slice(-60));
  node.scrollTop = node.scrollHeight;
}

// ---- the table --------------------------------------------------------------------------

function deadlineMs(deadline) {
  if (deadline === null || deadline === undefined) return null;
  if (typeof deadline === "number") return deadline > 1e12 ? deadline : deadline * 1000;
  const ms = Date.parse(deadline);
  return Number.isNaN(ms) ? null : ms;
}

let countdownTimer = null;

function renderCountdown(node, table) {
  clearInterval(countdownTimer);
  const due = deadlineMs(table.awaiting && table.awaiting.deadline);
  if (due === null || table.status !== "playing") { node.hidden = true; return; }
  node.hidden = false;
  const tick = () => {
    const left = Math.max(0, Math.ceil((due - Date.now()) / 1000));
    node.textContent = `${left} s left`;
  };
  tick();
  countdownTimer = setInterval(tick, 1000);
}

function offerText(offer, seat) {
  if (!offer) return null;
  if (seat === offer.active_seat) return "offers the card";
  if (offer.buyers.includes(seat)) return "wants to buy";
  if (offer.passed.includes(seat)) return "passed";
  if (offer.barred === seat) return "may not buy (bought last)";
  if (offer.waiting_for.includes(seat)) return "deciding…";
  return null;
}

/** The table (a public, seat or full view of the API) drawn into `root`. */
function renderTable(root, table) {
  const seatCount = (table.hand_sizes || []).length || players.length;
  const turn = table.awaiting ? table.awaiting.turn : table.turn;
  const summary = el("section", {class: "summary", "aria-label": "Game state"},
    el("p", {class: "state", "data-testid": "game-status"},
      el("strong", {text: table.status}),
      table.round ? ` · round ${table.round} of 7` : "",
      table.contract && table.contract.length ? ` · contract: ${table.contract.join(" + ")}` : "",
      table.status === "playing" && turn !== null && turn !== undefined
        ? ` · ${seatName(turn)}'s turn, ${PHASES[table.phase] || table.phase || ""}` : ""),
    el("p", {class: "countdown", hidden: true, "aria-live": "off"}));
  renderCountdown(summary.querySelector(".countdown"), table);

  const piles = el("section", {class: "piles", "aria-label": "Stock and discard pile"},
    el("div", {class: "pile"}, cardBack(`stock, ${table.stock_size} cards`),
      el("span", {"data-testid": "stock-size", text: `Stock ${table.stock_size ?? "–"}`})),
    el("div", {class: "pile", "data-testid": "discard-top", "data-card": table.discard_top || ""},
      table.discard_top ? cardEl(table.discard_top) : el("span", {class: "card empty", role: "img", "aria-label": "the discard pile is empty", text: "–"}),
      el("span", {text: `Discard ${table.discard_size ?? 0}`})));
  if (table.offer) {
    const o = table.offer;
    piles.append(el("div", {class: "offer", "data-testid": "offer"},
      el("span", {text: "On offer: "}), cardEl(o.card),
      el("span", {text: o.waiting_for.length
        ? ` waiting for ${o.waiting_for.map(seatName).join(", ")}` : " all answered"})));
  }

  const seats = el("section", {class: "seats", "aria-label": "Seats"});
  for (let seat = 0; seat < seatCount; seat += 1) {
    const melds = (table.melds || []).filter((m) => m.owner === seat);
    const hand = table.hands ? table.hands[seat] : (table.seat === seat ? table.hand : null);
    const answer = offerText(table.offer, seat);
    const winner = (table.winners || []).includes(seat);
    seats.append(el("article", {class: `seat${seat === turn && table.status === "playing" ? " active" : ""}`,
      "data-testid": `seat-${seat}`, "data-hand-size": table.hand_sizes ? table.hand_sizes[seat] : "",
      "data-melds": melds.length, "aria-label": seatName(seat)},
      el("header", {},
        el("h2", {text: seatName(seat)}),
        el("span", {class: "kind", text: seatKind(seat)}),
        seat === turn && table.status === "playing" ? el("span", {class: "badge", text: "to play"}) : null,
        winner ? el("span", {class: "badge win", text: "winner"}) : null),
      el("p", {class: "facts"},
        `${table.hand_sizes ? table.hand_sizes[seat] : "?"} cards · score ${table.scores ? table.scores[seat] : 0}`,
        table.opened && table.opened[seat] ? " · opened" : "",
        answer ? el("span", {class: "answer", text: ` · ${answer}`}) : null),
      hand ? el("div", {class: "hand", "aria-label": `${seatName(seat)}'s hand`}, hand.map(cardEl)) : null,
      melds.length ? el("div", {class: "melds"}, melds.map((m) =>
        el("div", {class: "meld", "aria-label": `${m.kind} ${m.index + 1}`},
          el("span", {class: "meld-kind", text: `${m.kind} ${m.index + 1}`}), m.cards.map(cardEl)))) : null));
  }
  root.replaceChildren(summary, piles, seats);
}

function tableShell() {
  const root = el("div", {class: "table", id: "table"});
  const log = el("ol", {class: "log", "aria-label": "Event log", tabindex: "0"});
  app.append(el("div", {class: "layout"}, root,
    el("aside", {class: "log-box"}, el("h2", {text: "What happened"}), log)));
  return {root, log};
}

// ---- pages ------------------------------------------------------------------------------

async function listPage() {
  const list = el("ul", {class: "games", "aria-label": "Games"});
  const more = el("button", {type: "button", hidden: true, text: "More games"});
  app.append(list, more);
  let cursor = null;
  const load = async () => {
    const url = "/v1/games?limit=20" + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : "");
    const pageOfGames = await getJSON(url);
    for (const g of pageOfGames.items) {
      list.append(el("li", {class: "game", "data-game": g.id},
        el("span", {class: "game-id", text: g.id}),
        el("span", {class: `pill ${g.status}`, text: g.status}),
        el("span", {text: g.round ? `round ${g.round}` : ""}),
        el("span", {class: "when", text: new Date(g.created).toLocaleString()}),
        el("a", {href: `/watch/${encodeURIComponent(g.id)}`, text: "Watch"}),
        el("a", {href: `/replay/${encodeURIComponent(g.id)}`, text: "Replay"})));
    }
    cursor = pageOfGames.next_cursor;
    more.hidden = !cursor;
    const count = list.children.length;
    say(count ? `${count} game${count === 1 ? "" : "s"} shown.` : "No games yet.");
  };
  more.addEventListener("click", () => load().catch((e) => say(`Could not load: ${e.message}`)));
  await load();
}

async function watchPage() {
  const {root, log} = tableShell();
  const events = [];
  let table = await getJSON(`/v1/games/${gameId}`);
  renderTable(root, table);
  // Long polls of the public event feed: each batch extends the log and refreshes the table.
  while (true) {
    try {
      const batch = (await getJSON(`/v1/games/${gameId}/events?after=${events.length ? events.at(-1).version : 0}&wait=20`)).events;
      if (batch.length) {
        events.push(...batch);
        renderLog(log, events);
        table = await getJSON(`/v1/games/${gameId}`);
        renderTable(root, table);
      }
      say(table.status === "finished" ? "The game is finished." : `Live · version ${table.version}`);
      if (table.status === "finished" && !batch.length) return;
    } catch (error) {
      say(`Connection lost (${error.message}); retrying…`);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

// Every event of the game: the feed comes in pages (`more`, `next_after`).
async function allEvents() {
  const events = [];
  for (let after = 0, more = true; more;) {
    const page = await getJSON(`/v1/games/${gameId}/events?after=${after}&limit=5000`);
    events.push(...page.events);
    ({more, next_after: after} = page);
  }
  return events;
}

async function replayPage() {
  const {root, log} = tableShell();
  const latest = await getJSON(`/v1/games/${gameId}`);
  const last = latest.version;
  const events = await allEvents();
  const roundStarts = events.filter((e) => e.type === "RoundDealt").map((e) => e.version);
  const asked = Number.parseInt(new URLSearchParams(location.search).get("v"), 10);
  let version = Number.isInteger(asked) ? Math.min(Math.max(asked, 1), last) : last;

  const slider = el("input", {type: "range", min: 1, max: last, value: version, id: "version",
    "aria-label": "Version"});
  const label = el("output", {for: "version", "data-testid": "version"});
  const button = (text, name, action) => {
    const b = el("button", {type: "button", "aria-label": name, title: name, text});
    b.addEventListener("click", action);
    return b;
  };
  const play = button("Play", "Play", () => togglePlay());
  const controls = el("div", {class: "controls", role: "group", "aria-label": "Replay controls"},
    button("« Round", "Previous round start", () => go(roundStarts.filter((v) => v < version).at(-1) ?? 1)),
    button("‹ Step", "Step back", () => go(version - 1)),
    play,
    button("Step ›", "Step forward", () => go(version + 1)),
    button("Round »", "Next round start", () => go(roundStarts.find((v) => v > version) ?? last)),
    slider, label);
  app.insertBefore(controls, app.querySelector(".layout"));

  let shown = 0, timer = null;
  async function show(v) {
    const table = await getJSON(`/v1/games/${gameId}/replay?version=${v}`);
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

// ---- the play page ----------------------------------------------------------------------

const TOKEN_KEY = `rummy-token:${gameId}`;

/** The seat token: taken from the URL fragment (#token=…, then dropped from the address bar)
 * into sessionStorage. Never put in a query string, so no server or proxy log records it. */
function seatToken() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.has("token")) {
    sessionStorage.setItem(TOKEN_KEY, fragment.get("token"));
    history.replaceState(null, "", location.pathname);
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

function askForToken() {
  const input = el("input", {type: "password", id: "token", autocomplete: "off", required: true});
  const form = el("form", {class: "token-form"},
    el("label", {for: "token", text: "Your seat's token"}), input,
    el("button", {type: "submit", text: "Sit down"}));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, input.value.trim());
    location.reload();
  });
  app.append(form);
  say("This page needs your seat's token (the game's creator got it).");
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
    case "buy": return `Buy ${offered}`;
    case "pass": return `Pass on ${offered}`;
    case "open": return `Go down: ${action.melds.map((m) => m.map(name).join(" ")).join(" | ")}`;
    case "lay_off": return `Lay off ${name(action.card)} on meld ${action.meld + 1}`;
    case "swap_joker": return `Swap ${name(action.card)} for the joker of meld ${action.meld + 1}`;
    default: return action.type;
  }
}

const SUIT_ORDER = "CDHSJ";
const RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

function sortedHand(hand) {
  const key = (code) => code.startsWith("JK") ? [4, 0]
    : [SUIT_ORDER.indexOf(code.slice(-1)), RANK_ORDER.indexOf(code.slice(0, -1))];
  return [...hand].sort((a, b) => { const x = key(a), y = key(b); return x[0] - y[0] || x[1] - y[1]; });
}

async function playPage() {
  const token = seatToken();
  if (!token) { askForToken(); return; }
  const headers = {Authorization: `Bearer ${token}`, Accept: "application/json"};
  const {root, log} = tableShell();
  const panel = el("section", {class: "you", "aria-label": "Your moves"});
  const refusal = el("p", {class: "refusal", role: "alert", hidden: true, "data-testid": "refusal"});
  app.insertBefore(el("div", {}, refusal, panel), app.querySelector(".layout"));
  const events = [];
  let view = null;

  const authed = async (url, init = {}) => {
    const reply = await fetch(url, {...init, headers: {...headers, ...(init.headers || {})}});
    const body = await reply.json().catch(() => ({detail: reply.statusText}));
    return {ok: reply.ok, status: reply.status, body};
  };
  async function load() {
    const reply = await authed(`/v1/games/${gameId}/view`);
    if (!reply.ok) throw new Error(`${reply.status} ${reply.body.detail}`);
    view = reply.body;
    renderTable(root, view);
    renderMoves();
    say(view.status === "finished" ? "The game is finished."
      : view.awaiting.seats.includes(view.seat) ? "Your move." : "Waiting for the other seats…");
  }
  async function act(action) {
    const reply = await authed(`/v1/games/${gameId}/actions`, {method: "POST",
      body: JSON.stringify(action),
      headers: {"Content-Type": "application/json", "If-Match": `"${view.version}"`}});
    if (reply.ok) refusal.hidden = true;
    else {
      const rule = reply.body.rule;
      refusal.replaceChildren(el("strong", {text: "Refused: "}),
        reply.body.detail || reply.body.title || `${reply.status}`,
        rule ? " (" : "", rule ? ruleLink(rule) : "", rule ? ")" : "");
      refusal.hidden = false;
    }
    await load();
  }
  function renderMoves() {
    const mine = view.awaiting.seats.includes(view.seat);
    const hand = el("div", {class: "hand mine", role: "group",
      "aria-label": "Your hand, by suit: choose a card to discard it"},
      sortedHand(view.hand).map((code) => {
        const button = el("button", {type: "button", class: "card-button",
          "aria-label": `Discard ${cardName(code)}`}, cardEl(code));
        button.addEventListener("click", () => act({type: "discard", card: code}));
        return button;
      }));
    const moves = view.legal_actions.filter((a) => a.type !== "discard").map((action) => {
      const button = el("button", {type: "button", class: "move",
        "aria-label": actionWords(action, view, cardName), text: actionWords(action, view, cardText)});
      button.addEventListener("click", () => act(action));
      return button;
    });
    panel.replaceChildren(el("h2", {text: `You are ${seatName(view.seat)}${mine ? ": your move" : ""}`}),
      hand, el("div", {class: "moves"}, moves));
  }

  await load();
  while (view.status !== "finished") {
    try {
      const after = events.length ? events.at(-1).version : 0;
      const reply = await authed(`/v1/games/${gameId}/events?after=${after}&wait=${after ? 20 : 0}`);
      if (!reply.ok) throw new Error(`${reply.status} ${reply.body.detail}`);
      events.push(...reply.body.events);
      renderLog(log, events);
      if (reply.body.events.length) await load();
    } catch (error) {
      say(`Connection lost (${error.message}); retrying…`);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

const pages = {list: listPage, watch: watchPage, replay: replayPage, play: playPage};
pages[page]().catch((error) => say(`Could not load: ${error.message}`));
