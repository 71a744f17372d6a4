// Going down by hand on /play: the player picks cards of their hand, makes them into melds one
// at a time and sends the `open` action with those melds; the server checks the arrangement
// (R3, R4.2, R4.3) and a refusal names the rule. The page only writes each meld the way the
// API reads one (FORMAT.md): a group's jokers bare ("JK"), a run low to high with each joker
// declared ("JK=7S"), and wild deuces declared under R11.15 ("2C=7S", "2C=7"); it decides
// nothing.
import {cardEl, cardName, cardText} from "./cards.js";
import {el, say} from "./dom.js";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]; // 1..14
const isJoker = (code) => code.startsWith("JK");
const rankOf = (code) => RANKS.indexOf(code.slice(0, -1)) + 1; // ace 1, king 13
const isDeuce = (code) => rankOf(code) === 2;

/** The cards of `codes` played as wild cards (R3.3; deuces too under R11.15 when `wildTwos`):
 * [naturals, wild cards]. A deuce stays natural in a group of deuces, or (one of them) in a
 * run of its own suit holding a three, or a low ace (an ace and no king); elsewhere it is wild:
 * QS KS AS 2S is the run 2S=JS QS KS AS. */
function wildCards(codes, wildTwos) {
  const jokers = codes.filter(isJoker);
  const naturals = codes.filter((c) => !isJoker(c));
  const others = naturals.filter((c) => !isDeuce(c));
  if (!wildTwos || !others.length) return [naturals, jokers];
  const suit = others[0].slice(-1);
  const has = (rank) => others.some((c) => c.slice(-1) === suit && rankOf(c) === rank);
  const oneRank = new Set(others.map((c) => c.slice(0, -1))).size === 1;
  const at = !oneRank && (has(3) || (has(1) && !has(13)))
    ? naturals.findIndex((c) => isDeuce(c) && c.slice(-1) === suit) : -1; // the natural deuce
  const natural = (c, i) => !isDeuce(c) || i === at;
  return [naturals.filter(natural), [...naturals.filter((c, i) => !natural(c, i)), ...jokers]];
}

/** How wild card `code` is written standing for rank `rank` (a number, ace 1 or 14) of `suit`
 * (null in a group): a joker "JK=7S" or "JK", a deuce "2C=7S" or "2C=7" (FORMAT.md). */
function declared(code, rank, suit) {
  if (isJoker(code)) return suit ? `JK=${RANKS[rank - 1]}${suit}` : "JK";
  return `${code}=${RANKS[rank - 1]}${suit || ""}`;
}

/** The meld of hand cards `codes` as the API reads it: one rank of naturals makes a group
 * (naturals by suit, then its wild cards); otherwise a run of the naturals' suit, low to high,
 * an ace high when it sits nearer the king, each wild card declared where it fills a gap, then
 * above the top (below the bottom when `low`, or past an ace). Under `wildTwos` (R11.15) deuces
 * are wild where they cannot be natural (`wildCards`). A meld the rules refuse is written all
 * the same: the server says why. ["6S", "JK", "5S", "8S"] -> ["5S", "6S", "JK=7S", "8S"]. */
export function writeMeld(codes, low = false, wildTwos = false) {
  const [naturals, wilds] = wildCards(codes, wildTwos);
  if (!naturals.length || new Set(naturals.map((c) => c.slice(0, -1))).size === 1) {
    const rank = naturals.length ? rankOf(naturals[0]) : 0;
    return [...naturals.sort(), ...wilds.map((c) => isJoker(c) ? "JK" : declared(c, rank, null))];
  }
  const suit = naturals[0].slice(-1);
  const ranked = naturals.filter((c) => rankOf(c) !== 1).map((c) => [rankOf(c), c]);
  const lowest = Math.min(...ranked.map(([r]) => r)), highest = Math.max(...ranked.map(([r]) => r));
  const aces = naturals.filter((c) => rankOf(c) === 1); // one ace at the nearer end; two at both
  aces.forEach((ace, n) => ranked.push([n === 1 || (aces.length === 1 && 14 - highest < lowest - 1) ? 14 : 1, ace]));
  ranked.sort((a, b) => a[0] - b[0]);
  const run = [];
  const spare = [...wilds];
  for (const [rank, code] of ranked) { // fill the gaps the wild cards can
    const last = run.length ? run[run.length - 1][0] : rank;
    for (let r = last + 1; r < rank && spare.length; r++) run.push([r, declared(spare.shift(), r, suit)]);
    run.push([rank, code]);
  }
  while (spare.length) {
    const top = run[run.length - 1][0], bottom = run[0][0];
    if (top < 14 && !(low && bottom > 1)) run.push([top + 1, declared(spare.shift(), top + 1, suit)]);
    else run.unshift([bottom - 1, declared(spare.shift(), Math.max(bottom - 1, 1), suit)]);
  }
  return run.map(([, code]) => code);
}

/** The state of going down by hand: `picked` hand indices, `melds` made ({cards: hand indices,
 * low: a run's spare jokers below its bottom}). */
export function newOpening() {
  return {active: false, picked: [], melds: []};
}

/** The going down kept under `key` for this tab (sessionStorage), so that melds being made
 * outlive a reload; a new one when none is kept. The caller drops it when the hand changed. */
export function keptOpening(key) {
  try {
    const kept = JSON.parse(sessionStorage.getItem(key));
    return kept && Array.isArray(kept.picked) && Array.isArray(kept.melds) ? kept : newOpening();
  } catch {
    return newOpening(); // storage off, or not ours: start afresh
  }
}

/** Keep `opening` under `key` for this tab (see `keptOpening`). */
export function keepOpening(key, opening) {
  try { sessionStorage.setItem(key, JSON.stringify(opening)); } catch { /* storage off */ }
}

/** Whether the seat may go down now: its turn, after drawing, not opened yet (R4.2, R5.4). */
export function mayOpen(view) {
  return view.status === "playing" && view.phase === "play" && view.turn === view.seat
    && view.opened && view.opened[view.seat] === null;
}

const wildTwos = (view) => Boolean(view.profile && view.profile.wild_twos);
const written = (meld, view) => writeMeld(meld.cards.map((i) => view.hand[i]), meld.low, wildTwos(view));

/** The `open` action of the melds made from `view.hand`. */
export function openAction(opening, view) {
  return {type: "open", melds: opening.melds.map((meld) => written(meld, view))};
}

/** The hand card at index `index` is picked or let go. */
export function togglePick(opening, index) {
  const at = opening.picked.indexOf(index);
  if (at >= 0) opening.picked.splice(at, 1); else opening.picked.push(index);
}

const contractText = (view) => (view.contract || [])
  .map((c) => typeof c === "string" ? `a ${c}` : `a ${c.kind} of ${c.min}`).join(" and ");

/** The panel of going down by hand. `redraw()` draws the moves again; `send(action)` acts. */
export function openingPanel(opening, view, redraw, send) {
  const hand = view.hand;
  const button = (text, onClick, attrs = {}) => {
    const b = el("button", {type: "button", class: "move", text, ...attrs});
    b.addEventListener("click", onClick);
    return b;
  };
  const picked = opening.picked.map((i) => hand[i]);
  const make = button("Make meld", () => {
    opening.melds.push({cards: [...opening.picked], low: false});
    opening.picked = [];
    say(`Meld ${opening.melds.length}: ${writeMeld(picked, false, wildTwos(view)).map(cardName).join(", ")}.`);
    redraw();
  }, {disabled: !picked.length, "data-testid": "make-meld"});
  const built = opening.melds.map((meld, n) => {
    const cards = written(meld, view);
    const flip = { ...meld, low: !meld.low }; // a joker at a run's end may go to the other end
    const movable = JSON.stringify(written(flip, view)) !== JSON.stringify(cards);
    return el("li", {class: "built-meld", "aria-label": `Meld ${n + 1}: ${cards.map(cardName).join(", ")}`},
      el("span", {class: "meld-kind", text: `Meld ${n + 1}`}),
      el("span", {class: "meld"}, cards.map(cardEl)),
      movable ? button(`Meld ${n + 1}: joker at the low end`, () => { meld.low = !meld.low; redraw(); },
        {class: "toggle", "aria-pressed": String(meld.low)}) : null,
      button(`Take back meld ${n + 1}`, () => { opening.melds.splice(n, 1); redraw(); }, {class: "move small"}));
  });
  const count = opening.melds.length;
  return el("section", {class: "opening", "aria-label": "Go down by hand", "data-testid": "opening"},
    el("h3", {text: "Go down by hand"}),
    el("p", {class: "hint", text: `Contract: ${contractText(view) || "this round's melds"}. Choose the cards `
      + "of one meld in your hand, then Make meld; the server checks the arrangement."}),
    el("p", {class: "picked", "data-testid": "picked"},
      picked.length ? `Picked: ${picked.map(cardText).join(" ")}` : "Picked: none"),
    count ? el("ol", {class: "built", "aria-label": "Melds to lay down"}, built) : null,
    el("div", {class: "moves"},
      make,
      button(`Go down with ${count} meld${count === 1 ? "" : "s"}`, () => send(openAction(opening, view)),
        {disabled: !count, "data-testid": "go-down"}),
      button("Clear", () => { opening.picked = []; opening.melds = []; redraw(); }, {disabled: !count && !picked.length}),
      button("Cancel", () => { Object.assign(opening, newOpening()); redraw(); })));
}
