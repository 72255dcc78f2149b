// @ts-check
// gamenotices.js: what the viewer of a game hears and reads about a room event: the stone
// and alert sounds, the toasts (opening choices, colours, rating change, declined offers)
// and the screen reader's note of each move. The page controller (game.js) calls announce
// with the session after the event.
import { toast } from './dom.js';
import { t } from './i18n.js';
import * as sound from './sound.js';
import { deltaParams } from './rating.js';
import { isPlayer } from './state.js';

/** @typedef {import('./protocol.js').RoomEvent} RoomEvent */
/** @typedef {import('./session.js').Session} Session */

/**
 * announce plays the sounds and shows the notes an event calls for.
 * @param {RoomEvent} ev
 * @param {Session} s the session after the event
 * @param {(text: string) => void} say tells the screen reader (the board's live region)
 */
export function announce(ev, s, say) {
  const role = s.role;
  const fromOpponent = isPlayer(role) && ev.color !== role;
  switch (ev.kind) {
    case 'move':
      if (ev.color !== role) sound.play('stone');
      say(t('board.played', { color: t(`color.${ev.color}`), point: ev.point }));
      break;
    case 'opening_choice':
      if (ev.choice === 'place2' && ev.color !== role) toast(t('opening.chosePlace2'));
      break;
    case 'colors': {
      const black = s.game.seats.black;
      if (isPlayer(role)) toast(t('opening.youPlay', { color: t(`color.${role}`) }), 'success');
      else toast(t('opening.plays', { name: black ? black.name : t('color.black') }));
      sound.play('alert');
      break;
    }
    case 'game_over': {
      const r = s.game.result;
      sound.play(isPlayer(role) && r && r.result !== role && r.result !== 'draw' ? 'alert' : 'win');
      break;
    }
    case 'rating':
      if (isPlayer(role) && s.game.rating) toast(t('rating.change', deltaParams(s.game.rating[role])), 'success');
      break;
    case 'draw_offered': case 'takeback_requested': case 'rematch_offered':
      if (fromOpponent) sound.play('alert');
      break;
    case 'draw_declined':
      if (fromOpponent) toast(t('offer.drawDeclined'));
      break;
    case 'takeback_declined':
      if (fromOpponent) toast(t('offer.takebackDeclined'));
      break;
    default:
      break;
  }
}
