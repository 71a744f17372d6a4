// The readable log: one sentence per public event ("Ann chose the stock").
import {cardText} from "./cards.js";
import {seatName as who} from "./api.js";
import {el} from "./dom.js";

const melds = (ms) => ms.map((m) => m.map(cardText).join(" ")).join(" | ");

/** A sentence for one event of the feed, or null for one not worth a line. */
export function describe(event) {
  const d = event.data;
  switch (event.type) {
    case "GameCreated": return `The game began; ${who(d.first_dealer)} deals first.`;
    case "PositionLoaded": return "The game began from a given position.";
    case "ClockSet": return d.turn_s ? `Each turn has ${d.turn_s} s.` : null;
    case "SeatsOpened": return "Seats are open: the game waits for people to join.";
    case "SeatJoined": return `${d.name} joined.`;
    case "GameStarted": return d.by === "auto" ? "Every seat is taken: the game starts." : "The host started the game.";
    case "LobbyExpired": return "Nobody started the game in time.";
    case "RoundDealt": return `Round ${d.round}: ${who(d.dealer)} dealt; the upcard is ${cardText(d.upcard)}.`;
    case "DeckShuffled": return `Round ${d.round}: ${who(d.dealer)} shuffled.`;
    case "DeckCut": return `${who(d.seat)} cut the deck.`;
    case "StockChosen": return `${who(d.seat)} chose the stock.`;
    case "OfferOpened": return `${cardText(d.card)} is offered to the other seats.`;
    case "BuyRequested": return `${who(d.seat)} asked to buy it.`;
    case "BuyPassed": return `${who(d.seat)} passed.`;
    case "OfferClosed": return d.buyer === null ? `Nobody bought ${cardText(d.card)}.` : null;
    case "CardBought": return `${who(d.seat)} bought ${cardText(d.card)} and took a penalty card.`;
    case "CardDrawn": return d.source === "discard"
      ? `${who(d.seat)} took ${cardText(d.card)} from the discard pile.`
      : `${who(d.seat)} drew from the stock.`;
    case "ContractOpened": return `${who(d.seat)} went down with ${melds(d.melds)}.`;
    case "CardLaidOff": return `${who(d.seat)} laid off ${cardText(d.card)} on meld ${d.meld + 1}.`;
    case "JokerSwapped": return `${who(d.seat)} swapped ${cardText(d.card)} for the joker of meld ${d.meld + 1}.`;
    case "CardDiscarded": return `${who(d.seat)} discarded ${cardText(d.card)}.`;
    case "StockRebuilt": return "The stock ran out and was rebuilt from the discard pile.";
    case "ShanghaiCalled": return `${who(d.seat)} called Shanghai on ${cardText(d.card)}.`;
    case "ClaimOpened": return `${cardText(d.card)} may be claimed onto a meld.`;
    case "ClaimRequested": return `${who(d.seat)} claimed it for meld ${d.meld + 1}.`;
    case "ClaimPassed": return `${who(d.seat)} let it go.`;
    case "ClaimClosed": return d.claimer === null ? `Nobody claimed ${cardText(d.card)}.` : null;
    case "CardClaimed": return `${who(d.seat)} claimed ${cardText(d.card)} onto meld ${d.meld + 1}.`;
    case "PenaltyCardTaken": return `${who(d.seat)} took a penalty card.`;
    case "TurnTimedOut": return `${who(d.seat)}'s time ran out; a bot played the turn.`;
    case "SeatTakenOver": return `A bot (${d.level}) plays for ${who(d.seat)} now.`;
    case "SeatReclaimed": return `${who(d.seat)} is back.`;
    case "RoundEnded": return d.winner === null
      ? `The round ended without a winner (${d.reason === "turn_cap" ? "turn limit" : "no card to draw"}).`
      : `${who(d.winner)} went out.`;
    case "RoundScored": return `Round ${d.round} scored: ${d.scores.map((s, i) => `${who(i)} +${s}`).join(", ")}.`;
    case "GameEnded": return `The game is over: ${d.winners.map(who).join(" and ")} won.`;
    case "GameAborted": return "The game was stopped.";
    case "PlayerSeated": return null;  // SeatJoined, just before it, says who joined
    case "SpectatorAdded": return "A spectator joined the table.";
    case "RematchCreated": return "A rematch was created.";
    case "RematchOf": return "This game is a rematch.";
    case "SeatTokenIssued": return `${who(d.seat)} took their seat of the rematch.`;
    default: return `${event.type}.`;
  }
}

/** Show the last 60 sentences of `events` (in version order) in the list `node`. */
export function renderLog(node, events) {
  const lines = [];
  for (const event of events) {
    const text = describe(event);
    if (text) lines.push(el("li", {value: event.version, text}));
  }
  node.replaceChildren(...lines.slice(-60));
  node.scrollTop = node.scrollHeight;
}
