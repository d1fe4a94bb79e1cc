// The turn clock. The board carries the turn's deadline; the page carries the server's time
// when it was sent (#server-time, rendered for each page load, never cached), so the
// countdown corrects for this device's clock being off. Red in the last 10 seconds; a
// screen reader hears it at one minute, 30 and 10 seconds left, and when the time is up.
import { myTurn } from "./board.js";

let offset = 0;  // server time minus this device's time, in ms
const announced = {};

function readServerTime() {
  const el = document.getElementById("server-time");
  const then = el ? Date.parse(el.getAttribute("data-now")) : NaN;
  if (!isNaN(then)) offset = then - Date.now();
}

function say(text) {
  const region = document.getElementById("clock-announce");
  if (region) region.textContent = text;
}

function format(seconds) {
  if (seconds >= 3600) {
    const hours = Math.floor(seconds / 3600);
    const minutes = String(Math.floor((seconds % 3600) / 60)).padStart(2, "0");
    return interpolate(gettext("%(hours)s h %(minutes)s min"), { hours: hours, minutes: minutes }, true);
  }
  return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
}

function tick() {
  const clock = document.querySelector(".turn-clock[data-deadline]");
  if (!clock) return;
  const deadline = Date.parse(clock.getAttribute("data-deadline"));
  const left = Math.max(0, Math.ceil((deadline - (Date.now() + offset)) / 1000));
  const shownLeft = clock.querySelector("[data-clock-left]");
  if (shownLeft) shownLeft.textContent = format(left);
  clock.classList.toggle("urgent", left <= 10);
  const key = clock.getAttribute("data-deadline");
  const mine = myTurn();
  [60, 30, 10, 0].forEach(function (mark) {
    if (left <= mark && !announced[key + mark] && (mark === 0 || left > mark - 5)) {
      announced[key + mark] = true;
      if (mark === 0) say(mine ? gettext("Your time is up: the coach plays this turn.") : gettext("Time is up for this turn."));
      else if (mine) say(mark === 60 ? gettext("One minute left for your turn.") : interpolate(ngettext("%s second left for your turn.", "%s seconds left for your turn.", mark), [mark]));
    }
  });
}

document.addEventListener("DOMContentLoaded", function () {
  readServerTime();
  tick();
  setInterval(tick, 250);
});
// The offset is measured once, from the page itself: a swap or a push carries only the
// deadline (a board is shared by many pages and rendered once, so it cannot carry "now").
document.addEventListener("htmx:afterSwap", tick);
document.addEventListener("htmx:wsAfterMessage", tick);
