// Cards: their spoken names ("nine of hearts"), short texts ("9♥") and faces drawn with CSS.
import {el} from "./dom.js";

const RANK_NAMES = {A: "ace", J: "jack", Q: "queen", K: "king", 2: "two", 3: "three",
  4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"};
export const SUITS = {C: ["♣", "clubs"], D: ["♦", "diamonds"], H: ["♥", "hearts"], S: ["♠", "spades"]};
const SUIT_ORDER = "CDHS";
const RANK_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];

/** "9H" -> "nine of hearts"; "JK" -> "joker"; "JK=9H" -> "joker as nine of hearts". */
export function cardName(code) {
  if (code === "JK") return "joker";
  if (code.startsWith("JK=")) return `joker as ${cardName(code.slice(3))}`;
  const rank = code.slice(0, -1), suit = code.slice(-1);
  return `${RANK_NAMES[rank] || rank} of ${SUITS[suit] ? SUITS[suit][1] : suit}`;
}

/** Short text of a card for the log: "9♥", "joker", "joker as 9♥". */
export function cardText(code) {
  if (!code) return "a card";
  if (code === "JK") return "joker";
  if (code.startsWith("JK=")) return `joker as ${cardText(code.slice(3))}`;
  const suit = code.slice(-1);
  return code.slice(0, -1) + (SUITS[suit] ? SUITS[suit][0] : suit);
}

/** A card face: rank and suit symbol (the colour only repeats the suit), named for readers. */
export function cardEl(code) {
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
    el("span", {class: "suit", "aria-hidden": "true", text: SUITS[suit] ? SUITS[suit][0] : suit}));
}

export function cardBack(label) {
  return el("span", {class: "card back", role: "img", "aria-label": label, title: label});
}

/** `hand` sorted by suit (clubs, diamonds, hearts, spades, then rank) or by rank (then suit);
 * jokers last either way. */
export function sortedHand(hand, by = "suit") {
  const suit = (code) => SUIT_ORDER.indexOf(code.slice(-1));
  const rank = (code) => RANK_ORDER.indexOf(code.slice(0, -1));
  const key = (code) => code.startsWith("JK") ? [9, 99]
    : by === "rank" ? [rank(code), suit(code)] : [suit(code), rank(code)];
  return [...hand].sort((a, b) => { const x = key(a), y = key(b); return x[0] - y[0] || x[1] - y[1]; });
}
