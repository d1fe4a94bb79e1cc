// Keys 1-5 hold or release a die, R rolls, S moves to the next open box (Shift+S back), on
// any keyboard layout; never while typing in a form field.
import { shown } from "./board.js";

// The shortcut a key stands for: its letter or digit as typed on a Latin layout, else the
// key's place on the keyboard (event.code), so that R, S and 1-5 also work on a Telugu (or
// any non-Latin) layout. "r", "s", "1"... or null.
function shortcutOf(event) {
  if (/^[A-Za-z0-9]$/.test(event.key || "")) return event.key.toLowerCase();
  const place = /^(?:Key([A-Z])|Digit([0-9])|Numpad([0-9]))$/.exec(event.code || "");
  return place ? (place[1] || place[2] || place[3]).toLowerCase() : null;
}

// Through the open boxes of your column, in printed order, round and round.
function nextBox(event) {
  const boxes = Array.prototype.slice.call(document.querySelectorAll("#board button.box-button"))
    .filter(function (box) { return box.getClientRects().length; });
  if (!boxes.length) return;
  event.preventDefault();
  const at = boxes.indexOf(document.activeElement);
  const step = event.shiftKey ? -1 : 1;
  const next = at < 0 ? (step > 0 ? 0 : boxes.length - 1) : (at + step + boxes.length) % boxes.length;
  boxes[next].focus();
  boxes[next].scrollIntoView({ block: "nearest" });
}

document.addEventListener("keydown", function (event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable)) return;
  const key = shortcutOf(event);
  if (key === "s") {
    nextBox(event);
    return;
  }
  let selector = null;
  if (key && key >= "1" && key <= "5") selector = '[data-die="' + key + '"]:not([disabled])';
  else if (key === "r") selector = "[data-roll]:not([disabled])";
  if (!selector) return;
  const button = shown(selector);
  if (button) {
    event.preventDefault();
    button.click();
  }
});
