// Play one human seat of a new game against three bots to its end, with nothing but the
// types openapi-typescript generates from openapi.yaml and openapi-fetch's client:
//   node dist/examples/play.js http://127.0.0.1:8000
// The seat plays the first legal action of its view, except that it answers a buy offer with
// a pass naming the card on offer (no If-Match needed: R6.1 refuses a pass for another card).
// The events are read at the end with a stream ticket (as a browser's EventSource would) by a
// client that sends no token: the ticket stands for the seat, so its own dealt hands are shown.
// Prints one JSON line: status, actions played, refusals by status, events read, the seat's
// hands among them, the ticket's validity, replay.
import { randomUUID } from "node:crypto";
import { createClient, type components, type paths } from "../src/index.js";

type SeatView = components["schemas"]["SeatView"];
type Action = components["schemas"]["Action"];

function choose(view: SeatView): Action {
  if (view.offer && view.offer.waiting_for.includes(view.seat)) {
    return { type: "pass", card: view.offer.card };
  }
  return view.legal_actions[0];
}

async function main(baseUrl: string): Promise<void> {
  const anonymous = createClient<paths>({ baseUrl });
  const bot = (name: string) => ({ kind: "bot" as const, name, level: "basic" as const });
  const created = await anonymous.POST("/v1/games", {
    body: { seats: [{ kind: "human", name: "Ann" }, bot("B1"), bot("B2"), bot("B3")], seed: 7 },
  });
  if (!created.data) throw new Error(`create_game: ${JSON.stringify(created.error)}`);
  const gameId = created.data.id;
  const seat = createClient<paths>({
    baseUrl, headers: { Authorization: `Bearer ${created.data.seats[0].token}` },
  });
  const game = { params: { path: { game_id: gameId } } };
  const refused: Record<string, number> = {};
  let played = 0;
  let view: SeatView;
  for (;;) {
    const got = await seat.GET("/v1/games/{game_id}/view", game);
    if (!got.data) throw new Error(`get_seat_view: ${JSON.stringify(got.error)}`);
    view = got.data;
    if (view.status === "finished" || view.status === "aborted") break;
    if (view.legal_actions.length === 0) {
      await seat.GET("/v1/games/{game_id}/events",
                     { params: { ...game.params, query: { after: view.version, wait: 5 } } });
      continue;
    }
    const answer = await seat.POST("/v1/games/{game_id}/actions", {
      params: { ...game.params, header: { "Idempotency-Key": randomUUID() } },
      body: choose(view),
    });
    if (answer.data) played += 1;
    else refused[answer.response.status] = (refused[answer.response.status] ?? 0) + 1;
  }
  const issued = await seat.POST("/v1/games/{game_id}/stream-tickets", game);
  if (!issued.data) throw new Error(`create_stream_ticket: ${JSON.stringify(issued.error)}`);
  const ticket = issued.data.ticket;
  const ticketS = (Date.parse(issued.data.expires_at) - Date.now()) / 1000;
  const reader = createClient<paths>({ baseUrl }); // no token: the ticket stands for the seat
  const events: components["schemas"]["Event"][] = [];
  for (let after = 0, more = true; more;) { // the feed comes in pages of at most `limit` events
    const query = { after, limit: 5000, ticket };
    const page = await reader.GET("/v1/games/{game_id}/events", { params: { ...game.params, query } });
    if (!page.data) throw new Error(`list_events: ${JSON.stringify(page.error)}`);
    events.push(...page.data.events);
    ({ more, next_after: after } = page.data);
  }
  const replay = await seat.GET("/v1/games/{game_id}/replay", {
    params: { ...game.params, query: { version: Math.floor(view.version / 2) } },
  });
  if (!replay.data) throw new Error(`get_replay: ${JSON.stringify(replay.error)}`);
  console.log(JSON.stringify({
    status: view.status, version: view.version, played, refused,
    events: events.length,
    event_types: [...new Set(events.map((e) => e.type))].sort(),
    own_hands: events.filter((e) => e.type === "RoundDealt" && e.data.hand).length,
    ticket_s: ticketS,
    replay_version: replay.data.version, winners: view.winners,
  }));
}

main(process.argv[2]).catch((error) => { console.error(error); process.exit(1); });
