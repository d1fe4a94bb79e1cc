// What the page shows of the table. One board serves the whole table: the seat marker
// (#me) says whose page this is, the board's data-turn whose turn it is, and CSS shows the
// player on turn their controls (the rest of the table sees the turn instead).

// Whether this page is the player on turn's.
export function myTurn() {
  const board = document.getElementById("board");
  const me = document.getElementById("me");
  const seat = me ? me.getAttribute("data-seat") : "";
  return !!board && seat !== "" && seat === board.getAttribute("data-turn");
}

// The first element matching ``selector`` that this page shows (not hidden by CSS).
export function shown(selector) {
  const all = document.querySelectorAll(selector);
  for (let i = 0; i < all.length; i++) {
    if (all[i].getClientRects().length) return all[i];
  }
  return null;
}

// The version of the table this page shows (0 before there is a board).
export function shownVersion() {
  const board = document.getElementById("board");
  return board ? parseInt(board.getAttribute("data-version"), 10) || 0 : 0;
}

// The version of the table in a piece of HTML the server sent, or null if it holds no
// board (presence or a notice).
export function versionIn(html) {
  const match = /id="board"[^>]*data-version="(\d+)"/.exec(html);
  return match ? parseInt(match[1], 10) : null;
}
