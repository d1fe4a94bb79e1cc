// Pressing dice quickly: while the table answers one press, a second press on a die (or its
// key) would be dropped (the form syncs with "drop"); and once it is answered, until a newer
// board shows, a press would be sent from the old board and refused as stale. Hold such
// presses and replay them, in order, once the press on its way has been answered and a newer
// board shows.
import { shown, shownVersion } from "./board.js";

let waiting = [];
let busy = false;  // a press of the board is on its way
let since = 0;
let sentAt = -1;  // the board's version when the last press was sent (-1: none waits)

function boardRequest(event) {
  const elt = event.detail && event.detail.elt;
  return elt && elt.closest && elt.closest("#board, #table-actions");
}

document.addEventListener("htmx:beforeRequest", function (event) {
  if (boardRequest(event)) {
    busy = true;
    since = Date.now();
    sentAt = shownVersion();
  }
});

document.addEventListener("click", function (event) {
  const die = event.target.closest && event.target.closest("[data-die]");
  const waitsForBoard = busy || shownVersion() <= sentAt;
  if (!die || !waitsForBoard || Date.now() - since > 3000) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  waiting.push(die.getAttribute("data-die"));
}, true);

function replay() {
  // Only once the press on its way is answered (a press sent before would be dropped), and
  // only on a newer table than the one it was made on.
  if (busy || shownVersion() <= sentAt) return;
  const next = waiting.shift();
  if (!next) return;
  const die = shown('[data-die="' + next + '"]:not([disabled])');
  if (die) die.click();
  else waiting = [];
}

// The answer ends the press whatever board it swapped into (the room's push of the same
// version often lands first, and the answer then swaps into a board no longer shown).
document.addEventListener("htmx:afterRequest", function (event) {
  if (!boardRequest(event)) return;
  busy = false;
  // htmx releases the form's sync lock only after this event: a press replayed from inside
  // it would be dropped as if the answered one were still on its way.
  if (event.detail.failed) {
    waiting = [];
    sentAt = -1;  // no newer board is coming from it: the next press goes at once
  } else setTimeout(replay, 0);
});
document.addEventListener("htmx:afterSettle", function (event) {
  if (boardRequest(event) || (event.target && event.target.id === "board")) replay();
});
document.addEventListener("htmx:wsAfterMessage", function (event) {
  if ((event.detail.message || "").indexOf('id="board"') >= 0) replay();
});
