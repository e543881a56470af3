// The page's one shared state: the game open, the position shown, the seat this browser holds,
// and the help read about the game. Modules keep private only what no other module reads.
export const S = {
  gameId: null,
  seat: null, // { token, color }
  view: null, // the game's view (live)
  shown: null, // the view on the board (live, a reviewed move or a variation)
  reviewAt: null, // a move number under review, or null for the live position
  line: null, // the variation on the board: { at, moves }, or null for the main line
  tree: new Map(), // the variations played: their starting move number to a tree of moves
  receivedAt: 0, // when the view arrived (performance.now), for the clocks
  online: true,
  offlineSince: 0,
  placing: new Set(), // free handicap stones chosen, not yet sent
  study: { id: null, review: null }, // the computer's review of the game
  record: { id: null, info: null }, // an imported game's information and comments
  levels: [], // what each level of the computer means
  me: null, // the logged-in player (GET /api/me), or null
};

// The page is drawn again from the state by `render` (set by main.js).
const hooks = { render: () => {} };
export const setRender = (fn) => { hooks.render = fn; };
export const render = () => hooks.render();

// Requests whose answers may arrive out of order take a ticket on a channel; an answer counts
// only while its ticket is the channel's newest (keys pressed quickly ask several positions).
const tickets = new Map();
export function ticket(channel) {
  const n = (tickets.get(channel) ?? 0) + 1;
  tickets.set(channel, n);
  return () => tickets.get(channel) === n;
}

// The colour of the other side.
export const other = (color) => (color === 'black' ? 'white' : 'black');
