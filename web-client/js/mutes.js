// Whom this person muted in the chat. A guest's list lives in this browser; an account's is kept
// by the server, so it follows the account to every browser, with a copy here so that a room
// shows it at once (and still does when the server cannot be asked).
import { accountMutes, mutePlayer, unmutePlayer } from './account_api.js';
import { toast } from './dom.js';
import { describeError } from './errors.js';
import { muted } from './storage.js';

// `onChange(list)` runs whenever the list changes, the server's answer included.
export function createMutes(app, onChange) {
  const changed = () => onChange(muted.get());
  const keep = ({ muted: list }) => { muted.replace(list); changed(); };
  const unsaved = (error) => toast(`Your mutes could not be saved for your other devices: ${describeError(error)}`);
  if (app.isAccount()) accountMutes().then(keep, () => {});  // the copy here stands in until the next room
  return {
    list: () => muted.get(),
    mute(player) {
      muted.add(player);
      changed();
      if (app.isAccount()) mutePlayer(player).then(keep, unsaved);
    },
    unmute(playerId) {
      muted.remove(playerId);
      changed();
      if (app.isAccount()) unmutePlayer(playerId).then(keep, unsaved);
    },
  };
}
