import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  newSession, receive, withPlayer, seek, shownPly, seatPresence, currentAI, aiElapsed, clockLeft, boardModel, localClocks, roleFor, pvSwitch, pvShown,
  firstMoveLeft, firstMovePending, playerCards,
} from '../static/js/session.js';
import { fromSnapshot } from '../static/js/state.js';
import { snapshot, event, settings } from './fixtures.js';

const AT = 1700000000000; // the fixture snapshot's clock.at
const now = (wall = AT + 500, mono = 1000) => ({ wall, mono });
const prefs = { numbers: false, forbidden: true, showAI: true, pvVsAI: false };
const ai = (over = {}) => ({ type: 'ai', ephemeral: true, color: 'white', status: 'thinking', depth: 4, seldepth: 6, score: 30, mate: 0, nodes: 1, nps: 1, pv: ['a1', 'b2'], elapsed_ms: 200, budget_ms: 1000, ply: 3, ...over });

/** joined returns Alice's session after welcome + snapshot (she is black; white, the AI, to move). */
function joined(room = snapshot()) {
  let s = newSession('r9', '');
  s = receive(s, { type: 'welcome', room_id: 'r9', you: { role: 'black', player_id: 'p_1', name: 'Alice' } }, now());
  return receive(s, { type: 'snapshot', seq: room.seq, room }, now());
}

test('welcome and snapshot: role, game, presence, server offset, running clock', () => {
  const s = joined();
  assert.equal(s.role, 'black');
  assert.equal(s.myId, 'p_1');
  assert.equal(s.loaded, true);
  assert.equal(s.game.moves.length, 3);
  assert.equal(s.spectators, 4);
  assert.equal(s.serverOffset, 500);
  assert.equal(clockLeft(s, 'white', 1000 + 2000), 296000, 'the side to move runs from receipt');
  assert.equal(clockLeft(s, 'black', 1000 + 2000), 290000, 'the other side stands');
});

test('events: clocks restart, AI progress and hint end with the position', () => {
  let s = joined();
  s = receive(s, ai(), now(AT, 1100));
  s = receive(s, { type: 'hint', ephemeral: true, id: 'c1', point: 'j10', score: 5 }, now());
  assert.equal(s.aiCount, 1);
  assert.equal(currentAI(s).depth, 4);
  assert.equal(aiElapsed(s.ai, s.aiAt, 1600), 700, 'thinking time extrapolated locally');
  assert.equal(aiElapsed({ ...s.ai, status: 'queued' }, s.aiAt, 1600), 200);
  s = receive(s, { type: 'event', seq: 8, event: event(8, 'move', { color: 'white', point: 'a1', ply: 3, clock: { black_ms: 290000, white_ms: 297000 } }) }, now(AT + 1000, 5000));
  assert.equal(s.ai, null);
  assert.equal(s.hint, null);
  assert.equal(s.serverOffset, 1000 - 8000, 'server time from the event');
  assert.equal(clockLeft(s, 'black', 6000), 289000, 'black runs now');
  assert.equal(clockLeft(s, 'white', 6000), 297000);
  assert.equal(currentAI(receive(s, ai({ ply: 3 }), now())), null, 'progress for an old ply is not shown');
});

test('the role follows the seat holding my id: sit, rematch', () => {
  let s = newSession('r9', 'p_2');
  const waiting = snapshot({ phase: 'waiting', white: { spec: { kind: 'human' } }, moves: [], ply: 0, clock: undefined });
  s = receive(s, { type: 'welcome', room_id: 'r9', you: { role: 'spectator', player_id: 'p_2', name: 'Bob' } }, now());
  s = receive(s, { type: 'snapshot', seq: 7, room: waiting }, now());
  assert.equal(s.role, 'spectator');
  s = receive(s, { type: 'event', seq: 8, event: event(8, 'seated', { color: 'white', player: { id: 'p_2', name: 'Bob' } }) }, now());
  assert.equal(s.role, 'white');
  s = receive(s, { type: 'event', seq: 9, event: event(9, 'started') }, now());
  s = receive(s, { type: 'event', seq: 10, event: event(10, 'game_over', { result: 'black', reason: 'resign' }) }, now());
  s = receive(s, { type: 'event', seq: 11, event: event(11, 'rematch', { game: 2 }) }, now());
  assert.equal(s.role, 'black', 'colours swapped');
  assert.equal(roleFor(s.game, 'p_9', 'white'), 'spectator', 'someone else holds that seat now');
  assert.equal(withPlayer(newSession('r9', ''), 'p_1').myId, 'p_1');
});

test('no_such_room means not found, also after the room had loaded (gone after a restart)', () => {
  const err = { type: 'error', id: '', code: 'no_such_room', message: 'no' };
  assert.equal(receive(newSession('x', ''), err, now()).notFound, true);
  assert.equal(receive(joined(), err, now()).notFound, true);
  assert.equal(receive(joined(), { ...err, code: 'not_your_turn' }, now()).notFound, false);
  const s = joined();
  assert.equal(receive(s, { type: 'pong' }, now()), s, 'messages that change nothing keep the session');
});

test('presence: connection and abandonment countdown on the server clock', () => {
  let s = joined();
  s = receive(s, { type: 'presence', ephemeral: true, black: { connected: true, since: AT, grace_ms: 60000 }, white: { connected: false, since: AT - 20000, grace_ms: 60000 }, spectators: 9 }, now());
  assert.equal(s.spectators, 9);
  assert.deepEqual(seatPresence(s, 'black', AT + 500), { connected: true, remainingMs: 0, claimable: false });
  // server now = wall - offset(500) = AT + 10000: 30 s since the player left.
  assert.deepEqual(seatPresence(s, 'white', AT + 10500), { connected: false, remainingMs: 30000, claimable: false });
  assert.equal(seatPresence(s, 'white', AT + 99000).remainingMs, 0);
  assert.equal(seatPresence(newSession('x', ''), 'white', 0), null);
});

test('replay: seek clamps, the live end follows the game, a finished game stays in replay', () => {
  let s = joined();
  s = seek(s, 1);
  assert.equal(shownPly(s), 1);
  s = seek(s, -5);
  assert.equal(shownPly(s), 0);
  s = seek(s, 99);
  assert.equal(s.viewPly, null, 'the end of a game in play is live');
  s = seek(s, 3);
  assert.equal(s.viewPly, null);
  const over = joined(snapshot({ phase: 'over', result: 'black', reason: 'resign' }));
  assert.equal(seek(over, 3).viewPly, 3);
  // Watching the last move in replay when the next one comes: back to live.
  let r = { ...joined(), viewPly: 3 };
  r = receive(r, { type: 'event', seq: 8, event: event(8, 'move', { color: 'white', point: 'a1', ply: 3 }) }, now());
  assert.equal(r.viewPly, null);
});

test('boardModel: forbidden points for black and spectators, PV, preview, pending, hint', () => {
  const room = snapshot({ moves: ['h8', 'i9', 'h9', 'a1'], ply: 4, to_move: 'black', forbidden: [{ point: 'h10', kind: 'double_three' }] });
  const s = joined(room);
  const m = boardModel(s, prefs, []);
  assert.deepEqual(m.forbidden.map((f) => f.point), ['h10']);
  assert.equal(m.preview, 'black', 'my turn: the hover stone is mine');
  assert.deepEqual(m.last, { x: 0, y: 0 });
  assert.equal(m.stones.length, 4);
  assert.deepEqual(boardModel(s, { ...prefs, forbidden: false }, []).forbidden, [], 'the toggle hides them');
  assert.deepEqual(boardModel({ ...s, role: 'spectator' }, prefs, []).forbidden.length, 1, 'spectators see them');
  assert.deepEqual(boardModel({ ...s, role: 'white' }, prefs, []).forbidden, [], 'white is not bound by them');
  const pending = boardModel(s, prefs, [{ x: 1, y: 1, color: 'black' }]);
  assert.equal(pending.preview, null, 'no second move while one is pending');
  assert.equal(pending.pending.length, 1);
  const replay = boardModel(seek(s, 2), prefs, []);
  assert.equal(replay.stones.length, 2);
  assert.deepEqual(replay.forbidden, [], 'no marks in replay');
  assert.equal(replay.preview, null);

  let w = joined(); // white (the AI) to move at ply 3
  w = receive(w, ai({ pv: ['a1', 'b2', 'zz'] }), now());
  w = receive(w, { type: 'hint', ephemeral: true, id: 'c1', point: 'j10', score: 5 }, now());
  const wm = boardModel(w, prefs, []);
  assert.deepEqual(wm.pv, [], 'a player facing the AI sees no variation by default (it is a free hint)');
  assert.deepEqual(wm.hint, { x: 9, y: 9 });
  const line = [{ x: 0, y: 0, color: 'white', n: 1 }, { x: 1, y: 1, color: 'black', n: 2 }];
  assert.deepEqual(boardModel(w, { ...prefs, pvVsAI: true }, []).pv, line, 'the switch turns it on');
  assert.deepEqual(boardModel({ ...w, role: 'spectator' }, prefs, []).pv, line, 'always on for spectators');
});

test('pvSwitch: only a player facing the AI chooses; spectators and AI-vs-AI always see the variation', () => {
  const w = joined();
  assert.equal(pvSwitch(w), true);
  assert.equal(pvSwitch({ ...w, role: 'spectator' }), false);
  const aivai = { ...w, role: 'spectator', game: { ...w.game, seats: { black: { ...w.game.seats.white }, white: { ...w.game.seats.white } } } };
  assert.equal(pvSwitch(aivai), false);
  assert.equal(pvShown(w, prefs), false);
  assert.equal(pvShown(w, { ...prefs, pvVsAI: true }), true);
  assert.equal(pvShown(aivai, prefs), true);
});

test('localClocks: per-move limits show the limit, or what the deadline leaves', () => {
  const perMove = { base_ms: 0, increment_ms: 0, per_move_ms: 30000 };
  const g = fromSnapshot(snapshot({ settings: { ...snapshot().settings, time: perMove } }));
  const fresh = localClocks(g, undefined, 0);
  assert.equal(fresh.white.ms, 30000);
  assert.equal(fresh.white.running, true);
  const snap = { black_ms: 0, white_ms: 0, running: true, to_move: 'white', at: AT, deadline_ms: AT + 12000 };
  assert.equal(localClocks(g, snap, 0).white.ms, 12000);
  assert.equal(localClocks(g, snap, 0).black.ms, 30000);
  const untimed = fromSnapshot(snapshot({ clock: undefined, settings: { ...snapshot().settings, time: { base_ms: 0, increment_ms: 0, per_move_ms: 0 } } }));
  assert.equal(localClocks(untimed, undefined, 0).white.ms, null);
});

test('first moves: no clock runs, the first-move time counts down, then the clock starts', () => {
  // Alice (black) vs the AI, 5+5, nothing played yet.
  const room = snapshot({ moves: [], ply: 0, to_move: 'black',
    clock: { black_ms: 300000, white_ms: 300000, running: false, to_move: 'black', at: AT, first_move_deadline_ms: AT + 30000 } });
  let s = joined(room);
  assert.equal(clockLeft(s, 'black', 1000 + 20000), 300000, 'the full time before the first move');
  assert.equal(firstMoveLeft(s, 'black', AT + 500 + 10000), 20000, 'server time = wall - offset');
  assert.equal(firstMoveLeft(s, 'white', AT + 500 + 10000), null, 'only the side to move');
  // Black's first move: white's first-move time starts, no clock runs yet.
  s = receive(s, { type: 'event', seq: 8, event: event(8, 'move', { color: 'black', point: 'h8', ply: 0, clock_ms: 300000, clock: { black_ms: 300000, white_ms: 300000 } }) }, now(AT + 8000 + 100, 5000));
  assert.equal(clockLeft(s, 'white', 5000 + 4000), 300000);
  assert.equal(firstMoveLeft(s, 'white', AT + 8000 + 100 + 1000), 29000);
  // White's first move: from now on black's clock runs.
  s = receive(s, { type: 'event', seq: 9, event: event(9, 'move', { color: 'white', point: 'i9', ply: 1, clock_ms: 300000, clock: { black_ms: 300000, white_ms: 300000 } }) }, now(AT + 9000 + 100, 6000));
  assert.equal(clockLeft(s, 'black', 6000 + 4000), 296000);
  assert.equal(firstMoveLeft(s, 'black', AT + 20000), null);
  // An untimed room has no first-move time.
  const untimed = { ...settings(), time: { base_ms: 0, increment_ms: 0, per_move_ms: 0 } };
  let u = joined(snapshot({ moves: [], ply: 0, clock: undefined, settings: untimed }));
  u = receive(u, { type: 'event', seq: 8, event: event(8, 'move', { color: 'black', point: 'h8', ply: 0 }) }, now());
  assert.equal(firstMoveLeft(u, 'white', AT), null);
});

test('firstMovePending follows the opening rule: the placement step and the first choice', () => {
  const g = { ...fromSnapshot(snapshot({ moves: [], ply: 0 })), opening: /** @type {const} */ ('swap2') };
  assert.equal(firstMovePending({ ...g, step: 'place3', moves: [] }), true);
  assert.equal(firstMovePending({ ...g, step: 'choose', moves: g.moves }), true);
  assert.equal(firstMovePending({ ...g, step: 'place2' }), false, 'the second player has chosen once');
  assert.equal(firstMovePending({ ...g, opening: 'none', step: '' }), true, 'no stones yet');
  assert.equal(firstMovePending(fromSnapshot(snapshot())), false, 'three moves played');
});

test("playerCards: the viewer's seat second, clocks frozen while offline, a seat to take only when connected", () => {
  const s = joined();
  const page = { conn: 'open', watchOnly: false, frozen: null, levelRatings: {} };
  const cards = playerCards(s, page, now(AT + 500, 1000 + 2000));
  assert.deepEqual(cards.map((c) => [c.color, c.you, c.toMove]), [['white', false, true], ['black', true, false]]);
  assert.equal(cards[0].clockMs, 296000, 'the running clock');
  assert.equal(cards[0].offline, false);
  const off = playerCards(s, { ...page, conn: 'reconnecting', frozen: { black: 1, white: 2 } }, now());
  assert.deepEqual(off.map((c) => [c.clockMs, c.offline, c.showAbandon, c.firstMoveMs]), [[2, true, false, null], [1, true, false, null]]);
  const watcher = { ...s, role: 'spectator', game: { ...s.game, phase: 'waiting', seats: { ...s.game.seats, white: null } } };
  assert.deepEqual(playerCards(watcher, page, now()).map((c) => [c.color, c.canSit]), [['black', false], ['white', true]]);
  assert.equal(playerCards(watcher, { ...page, conn: 'reconnecting' }, now())[1].canSit, false);
  assert.equal(playerCards(watcher, { ...page, watchOnly: true }, now())[1].canSit, false, 'opened to watch');
});
