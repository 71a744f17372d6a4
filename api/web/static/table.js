// The table drawn from one view of the API (public, seat or full): seats, piles, melds, the
// open offer, whose turn and a countdown to the awaited decision's deadline.
import {cardBack, cardEl} from "./cards.js";
import {seatCount, seatKind, seatName, serverNow} from "./api.js";
import {el} from "./dom.js";

const PHASES = {draw: "drawing", buying: "a buy offer is open", play: "melding or discarding",
  over: "the round is over"};

let countdownTimer = null;

/** Count down in `node` to the table's `awaiting.deadline` (RFC 3339), by the server's clock
 * (the Server-Time header), not the browser's; hidden when nothing has a deadline. */
function renderCountdown(node, table) {
  clearInterval(countdownTimer);
  const due = Date.parse((table.awaiting && table.awaiting.deadline) || "");
  if (Number.isNaN(due) || table.status !== "playing") { node.hidden = true; return; }
  node.hidden = false;
  const tick = () => {
    const left = Math.max(0, Math.ceil((due - serverNow()) / 1000));
    node.dataset.seconds = left;
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

function summaryEl(table, turn) {
  const summary = el("section", {class: "summary", "aria-label": "Game state"},
    el("p", {class: "state", "data-testid": "game-status"},
      el("strong", {text: table.status}),
      table.round ? ` · round ${table.round}` : "",
      table.contract && table.contract.length
        ? ` · contract: ${table.contract.map((c) => typeof c === "string" ? c : `${c.kind} of ${c.min}`).join(" + ")}` : "",
      table.status === "playing" && turn !== null && turn !== undefined
        ? ` · ${seatName(turn)}'s turn, ${PHASES[table.phase] || table.phase || ""}` : ""),
    el("p", {class: "countdown", hidden: true, "data-testid": "countdown", role: "timer",
      "aria-label": "Time left for the awaited decision"}));
  renderCountdown(summary.querySelector(".countdown"), table);
  return summary;
}

function pilesEl(table) {
  const piles = el("section", {class: "piles", "aria-label": "Stock and discard pile"},
    el("div", {class: "pile"}, cardBack(`stock, ${table.stock_size} cards`),
      el("span", {"data-testid": "stock-size", text: `Stock ${table.stock_size ?? "–"}`})),
    el("div", {class: "pile", "data-testid": "discard-top", "data-card": table.discard_top || ""},
      table.discard_top ? cardEl(table.discard_top)
        : el("span", {class: "card empty", role: "img", "aria-label": "the discard pile is empty", text: "–"}),
      el("span", {text: `Discard ${table.discard_size ?? 0}`})));
  if (table.offer) {
    const o = table.offer;
    piles.append(el("div", {class: "offer", "data-testid": "offer"},
      el("span", {text: "On offer: "}), cardEl(o.card),
      el("span", {text: o.waiting_for.length
        ? ` waiting for ${o.waiting_for.map(seatName).join(", ")}` : " all answered"})));
  }
  return piles;
}

function meldEl(m) {
  return el("div", {class: "meld", "data-meld": m.index, "aria-label": `${m.kind} ${m.index + 1}`},
    el("span", {class: "meld-kind", text: `${m.kind} ${m.index + 1}`}), m.cards.map(cardEl));
}

function seatEl(table, seat, turn) {
  const melds = (table.melds || []).filter((m) => m.owner === seat);
  const hand = table.hands ? table.hands[seat] : (table.seat === seat ? table.hand : null);
  const answer = offerText(table.offer, seat);
  const active = seat === turn && table.status === "playing";
  const size = table.hand_sizes ? table.hand_sizes[seat] : null;
  return el("article", {class: `seat${active ? " active" : ""}`, "data-testid": `seat-${seat}`,
    "data-hand-size": size ?? "", "data-melds": melds.length, "aria-label": seatName(seat)},
    el("header", {},
      el("h2", {text: seatName(seat)}),
      el("span", {class: "kind", text: seatKind(seat)}),
      active ? el("span", {class: "badge", text: "to play"}) : null,
      (table.winners || []).includes(seat) ? el("span", {class: "badge win", text: "winner"}) : null),
    el("p", {class: "facts"},
      `${size ?? "?"} cards · score ${table.scores ? table.scores[seat] : 0}`,
      table.opened && table.opened[seat] ? " · opened" : "",
      table.taken_over && table.taken_over[seat] ? ` · played by a bot (${table.taken_over[seat].level})` : "",
      answer ? el("span", {class: "answer", text: ` · ${answer}`}) : null),
    hand ? el("div", {class: "hand", "aria-label": `${seatName(seat)}'s hand`}, hand.map(cardEl)) : null,
    melds.length ? el("div", {class: "melds"}, melds.map(meldEl)) : null);
}

/** Draw `table` (a public, seat or full view of the API) into `root`. */
export function renderTable(root, table) {
  const count = (table.hand_sizes || []).length || seatCount();
  const turn = table.awaiting ? table.awaiting.turn : table.turn;
  const seats = el("section", {class: "seats", "aria-label": "Seats"});
  for (let seat = 0; seat < count; seat += 1) seats.append(seatEl(table, seat, turn));
  root.replaceChildren(summaryEl(table, turn), pilesEl(table), seats);
  root.dataset.version = table.version;
}

/** The table and log boxes of a page, appended to `app`. */
export function tableShell(app) {
  const root = el("div", {class: "table", id: "table"});
  const log = el("ol", {class: "log", "aria-label": "Event log", tabindex: "0"});
  app.append(el("div", {class: "layout"}, root,
    el("aside", {class: "log-box"}, el("h2", {text: "What happened"}), log)));
  return {root, log};
}
