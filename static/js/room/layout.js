// On a phone or a small tablet the scorecard shows the reader's own column first, next to
// the box names. The board is rendered once for everyone who shares its viewpoint, so it
// cannot know whose page it is on: the page's #me (data-seat) does. The cells of that seat
// are moved in the document itself, not only on screen, so that a screen reader reads the
// columns in the order they are shown. Every new board (an htmx swap, a websocket push,
// both replace #board) is arranged again before it is painted; wider screens keep seat
// order.

const compact = window.matchMedia ? window.matchMedia("(max-width: 56.24rem)") : null;

function moveColumn(table, from, to) {
  const rows = table.rows;
  for (let i = 0; i < rows.length; i++) {
    const cells = rows[i].cells;
    if (cells.length <= Math.max(from, to)) continue;
    const cell = cells[from];
    rows[i].insertBefore(cell, from < to ? cells[to].nextSibling : cells[to]);
  }
}

function arrange() {
  const table = document.querySelector("#board table.scorecard");
  if (!table) return;
  const me = document.getElementById("me");
  const seat = me ? me.getAttribute("data-seat") || "" : "";
  const wanted = compact && compact.matches ? seat : "";
  const shownFirst = table.getAttribute("data-own-first") || "";
  if (wanted === shownFirst) return;
  if (shownFirst) {  // put the column moved before back where the server printed it
    moveColumn(table, 1, parseInt(table.getAttribute("data-own-from"), 10));
    table.removeAttribute("data-own-first");
    table.removeAttribute("data-own-from");
  }
  const head = wanted ? table.querySelector('thead th[data-seat="' + wanted + '"]') : null;
  if (!head) return;
  const from = head.cellIndex;
  if (from > 1) moveColumn(table, from, 1);
  table.setAttribute("data-own-first", wanted);
  table.setAttribute("data-own-from", String(from));
}

document.addEventListener("DOMContentLoaded", function () {
  arrange();
  const room = document.querySelector(".room");
  // #board and #me are children of the room: a swap of either replaces one of them.
  if (room && window.MutationObserver) new MutationObserver(arrange).observe(room, { childList: true });
  if (compact && compact.addEventListener) compact.addEventListener("change", arrange);
});
