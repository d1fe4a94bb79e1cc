// Telling the player it is their turn: the tab's title starts with "Your turn" while it is,
// and a page in a background tab shows, if allowed, a browser notification when it becomes
// the player's turn. The button that asks for that permission shows only where it can.
import { myTurn } from "./board.js";

let baseTitle = null;
let wasMyTurn = null;

function showTitleCue(mine) {
  // The page's own title may start with the cue already (rendered on your turn).
  if (baseTitle === null) baseTitle = document.title.replace(/^▶ [^·]* · /, "");
  document.title = (mine ? "▶ " + gettext("Your turn") + " · " : "") + baseTitle;
}

function turnChanged() {
  if (!document.getElementById("board")) return;
  const mine = myTurn();
  showTitleCue(mine);
  if (mine && wasMyTurn === false && document.hidden && window.Notification &&
      Notification.permission === "granted") {
    new Notification(gettext("Yahtzee"), { body: gettext("It is your turn."), tag: "your-turn" });
  }
  wasMyTurn = mine;
}

function offerNotifications() {
  const button = document.querySelector("[data-notify]");
  if (!button || !window.Notification || Notification.permission !== "default") return;
  button.hidden = false;
  button.addEventListener("click", function () {
    Notification.requestPermission().then(function () { button.hidden = true; });
  });
}

document.addEventListener("DOMContentLoaded", function () {
  offerNotifications();
  turnChanged();
});
document.addEventListener("htmx:afterSwap", turnChanged);
document.addEventListener("htmx:wsAfterMessage", turnChanged);
