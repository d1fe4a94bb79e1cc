// Small comforts on the game page; the page works without this file.
// - "Copy link" copies the share link; "Invite" shares it (the Web Share API on phones)
//   or copies it (desktops). Their "done" words come from the page (data-done), translated.
// - Keys 1-5 hold or release a die, R rolls, S moves to the next open box (Shift+S back),
//   on any keyboard layout; never while typing in a form field.

// One board serves the whole table: the seat marker (#me) says whose page this is, the
// board's data-turn whose turn it is, and CSS shows the player on turn their controls
// (the rest of the table sees the turn instead).
var yahtzeeBoard = {
  myTurn: function () {
    var board = document.getElementById("board");
    var me = document.getElementById("me");
    var seat = me ? me.getAttribute("data-seat") : "";
    return !!board && seat !== "" && seat === board.getAttribute("data-turn");
  },
  // The first element matching ``selector`` that this page shows (not hidden by CSS).
  shown: function (selector) {
    var all = document.querySelectorAll(selector);
    for (var i = 0; i < all.length; i++) {
      if (all[i].getClientRects().length) return all[i];
    }
    return null;
  },
};

(function () {
  "use strict";

  function confirm(button, label) {
    var before = label.textContent;
    label.textContent = button.getAttribute("data-done") || before;
    setTimeout(function () { label.textContent = before; }, 2000);
  }

  function copy(text, done) {
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { copyBySelection(text, done); });
    } else {
      copyBySelection(text, done);
    }
  }

  function copyBySelection(text, done) {
    // The link box may be folded away (after the lobby): copy from a field of our own.
    var field = document.createElement("textarea");
    field.value = text;
    field.setAttribute("readonly", "");
    field.className = "visually-hidden";
    document.body.appendChild(field);
    field.select();
    var copied = document.execCommand("copy");
    document.body.removeChild(field);
    if (copied) done();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy], [data-share]");
    if (!button) return;
    var input = document.querySelector(button.getAttribute("data-copy") || button.getAttribute("data-share"));
    if (!input) return;
    var label = button.querySelector(".share-text") || button;
    var touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
    if (button.hasAttribute("data-share") && touch && navigator.share) {
      navigator.share({ title: button.getAttribute("data-title") || document.title, url: input.value })
        .catch(function () { /* the person closed the share sheet */ });
      return;
    }
    copy(input.value, function () { confirm(button, label); });
  });

  // The shortcut a key stands for: its letter or digit as typed on a Latin layout, else
  // the key's place on the keyboard (event.code), so that R, S and 1-5 also work on a
  // Telugu (or any non-Latin) layout. "r", "s", "1"... or null.
  function shortcutOf(event) {
    if (/^[A-Za-z0-9]$/.test(event.key || "")) return event.key.toLowerCase();
    var place = /^(?:Key([A-Z])|Digit([0-9])|Numpad([0-9]))$/.exec(event.code || "");
    return place ? (place[1] || place[2] || place[3]).toLowerCase() : null;
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable)) return;
    var key = shortcutOf(event);
    var selector = null;
    if (key === "s") {
      // Through the open boxes of your column, in printed order, round and round.
      var boxes = Array.prototype.slice.call(document.querySelectorAll("#board button.box-button"))
        .filter(function (box) { return box.getClientRects().length; });
      if (!boxes.length) return;
      event.preventDefault();
      var at = boxes.indexOf(document.activeElement);
      var step = event.shiftKey ? -1 : 1;
      var next = at < 0 ? (step > 0 ? 0 : boxes.length - 1) : (at + step + boxes.length) % boxes.length;
      boxes[next].focus();
      boxes[next].scrollIntoView({ block: "nearest" });
      return;
    }
    if (key && key >= "1" && key <= "5") selector = '[data-die="' + key + '"]:not([disabled])';
    else if (key === "r") selector = "[data-roll]:not([disabled])";
    if (!selector) return;
    var button = yahtzeeBoard.shown(selector);
    if (button) {
      event.preventDefault();
      button.click();
    }
  });
})();

// The live room. htmx's ws extension swaps what the server pushes; these few lines keep
// the page honest about versions and tell the player when it is their turn.
(function () {
  "use strict";

  var baseTitle = null;

  function boardVersion(root) {
    var board = (root || document).querySelector ? (root || document).querySelector("#board") : null;
    if (!board && root && root.id === "board") board = root;
    return board ? parseInt(board.getAttribute("data-version"), 10) || 0 : 0;
  }

  function versionIn(html) {
    var match = /id="board"[^>]*data-version="(\d+)"/.exec(html);
    return match ? parseInt(match[1], 10) : null;
  }

  function showTurnCue() {
    var board = document.getElementById("board");
    if (!board) return;
    // The page's own title may start with the cue already (rendered on your turn).
    if (baseTitle === null) baseTitle = document.title.replace(/^▶ [^·]* · /, "");
    var mine = yahtzeeBoard.myTurn();
    document.title = (mine ? "▶ " + gettext("Your turn") + " · " : "") + baseTitle;
  }

  // Never let an older table replace a newer one (a slow response after a fast push).
  document.addEventListener("htmx:beforeSwap", function (event) {
    var incoming = versionIn(event.detail.serverResponse || "");
    if (incoming !== null && incoming < boardVersion(document)) {
      event.detail.shouldSwap = false;
    }
  });

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    var incoming = versionIn(event.detail.message || "");
    if (incoming === null) return;  // presence or a notice
    var current = boardVersion(document);
    if (incoming < current) {
      event.preventDefault();  // an old version: the page already shows a newer one
    } else if (current && incoming > current + 1) {
      // A gap: something was missed. This push is the whole table, but ask anyway so the
      // server re-sends everything the page shows from the same version.
      event.detail.socketWrapper.send(JSON.stringify({ type: "resync" }));
    }
  });

  document.addEventListener("htmx:wsAfterMessage", showTurnCue);
  document.addEventListener("htmx:afterSwap", showTurnCue);
  document.addEventListener("DOMContentLoaded", showTurnCue);

  function showConnection(text) {
    var bar = document.getElementById("presence");
    if (bar) bar.innerHTML = '<span class="connecting"></span>';
    if (bar) bar.firstChild.textContent = text;
  }

  // A server restart closes sockets with "going away"; come back like after a lost network.
  document.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail.event.code;
    if (code === 4404 || code === 4429) {
      showConnection(gettext("This page stopped updating live. Reload it to see the table as it stands."));
      return;
    }
    showConnection(gettext("Reconnecting to the table…"));
    if (code === 1000 || code === 1001 || code === 1005) {
      var room = document.querySelector("[ws-connect]");
      if (!room) return;
      setTimeout(function () {
        var url = room.getAttribute("ws-connect");
        room.removeAttribute("ws-connect");
        htmx.process(room);
        room.setAttribute("ws-connect", url);
        htmx.process(room);
      }, 1000 + Math.random() * 1000);
    }
  });
})();

// Pressing dice quickly: while the table answers one press, a second press on a die (or
// its key) would be dropped (the form syncs with "drop"). Hold such presses and replay
// them, in order, once the press on its way has been answered and a newer board shows.
(function () {
  "use strict";

  var waiting = [];
  var busy = false;  // a press of the board is on its way
  var since = 0;
  var sentAt = 0;  // the board's version when the press on its way was sent

  function shownVersion() {
    var board = document.getElementById("board");
    return board ? parseInt(board.getAttribute("data-version"), 10) || 0 : 0;
  }

  function boardRequest(event) {
    var elt = event.detail && event.detail.elt;
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
    var die = event.target.closest && event.target.closest("[data-die]");
    if (!die || !busy || Date.now() - since > 3000) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    waiting.push(die.getAttribute("data-die"));
  }, true);

  function replay() {
    // Only once the press on its way is answered (a press sent before would be dropped),
    // and only on a newer table than the one it was made on.
    if (busy || shownVersion() <= sentAt) return;
    var next = waiting.shift();
    if (!next) return;
    var die = yahtzeeBoard.shown('[data-die="' + next + '"]:not([disabled])');
    if (die) die.click();
    else waiting = [];
  }

  // The answer ends the press whatever board it swapped into (the room's push of the same
  // version often lands first, and the answer then swaps into a board no longer shown).
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!boardRequest(event)) return;
    busy = false;
    // htmx releases the form's sync lock only after this event: a press replayed from
    // inside it would be dropped as if the answered one were still on its way.
    if (event.detail.failed) waiting = [];
    else setTimeout(replay, 0);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    if (boardRequest(event) || (event.target && event.target.id === "board")) replay();
  });
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    if ((event.detail.message || "").indexOf('id="board"') >= 0) replay();
  });
})();

// Provably fair dice: a person who sits down proposes their own dice seed, made here from
// the browser's cryptographic generator (the server makes one if this script never runs).
// A person seated without one (a rematch seats everyone again) has it proposed and sent
// from the lobby's seed form, as if they had pressed "Change seed".
(function () {
  "use strict";

  var sends = 0;  // a stale version re-renders the lobby and its empty seed: try again
  var MAX_SENDS = 10;

  function send(input) {
    var button = input.parentNode.querySelector("button[formaction]");
    if (!button || sends >= MAX_SENDS) return;
    sends += 1;
    window.setTimeout(function () { button.click(); }, 0);
  }

  function newSeed() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  function proposeSeeds(root) {
    if (!window.crypto || !window.crypto.getRandomValues) return;
    var scope = root && root.querySelectorAll ? root : document;
    var inputs = scope.querySelectorAll("input[data-propose-seed]");
    for (var i = 0; i < inputs.length; i++) {
      if (inputs[i].value) continue;
      inputs[i].value = newSeed();
      if (inputs[i].hasAttribute("data-send-seed")) send(inputs[i]);
    }
  }

  document.addEventListener("DOMContentLoaded", function () { proposeSeeds(document); });
  document.addEventListener("htmx:load", function (event) { proposeSeeds(event.target); });
  document.addEventListener("htmx:wsAfterMessage", function () { proposeSeeds(document); });
})();

// The turn clock. The board carries the turn's deadline; the page carries the server's
// time when it was sent (#server-time, rendered for each page load, never cached), so the
// countdown corrects for this device's clock being off. Red in the last 10 seconds; a screen reader hears it at one minute, 30 and
// 10 seconds left, and when the time is up. A page in a background tab shows "Your turn"
// in its title and, if allowed, a browser notification when it becomes the player's turn.
(function () {
  "use strict";

  var offset = 0;  // server time minus this device's time, in ms
  var announced = {};
  var wasMyTurn = null;

  function readServerTime() {
    var el = document.getElementById("server-time");
    var then = el ? Date.parse(el.getAttribute("data-now")) : NaN;
    if (!isNaN(then)) offset = then - Date.now();
  }

  function say(text) {
    var region = document.getElementById("clock-announce");
    if (region) region.textContent = text;
  }

  function format(seconds) {
    if (seconds >= 3600) {
      var hours = Math.floor(seconds / 3600);
      var minutes = String(Math.floor((seconds % 3600) / 60)).padStart(2, "0");
      return interpolate(gettext("%(hours)s h %(minutes)s min"), { hours: hours, minutes: minutes }, true);
    }
    return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }

  function tick() {
    var clock = document.querySelector(".turn-clock[data-deadline]");
    if (!clock) return;
    var deadline = Date.parse(clock.getAttribute("data-deadline"));
    var left = Math.max(0, Math.ceil((deadline - (Date.now() + offset)) / 1000));
    var shown = clock.querySelector("[data-clock-left]");
    if (shown) shown.textContent = format(left);
    clock.classList.toggle("urgent", left <= 10);
    var key = clock.getAttribute("data-deadline");
    var mine = yahtzeeBoard.myTurn();
    [60, 30, 10, 0].forEach(function (mark) {
      if (left <= mark && !announced[key + mark] && (mark === 0 || left > mark - 5)) {
        announced[key + mark] = true;
        if (mark === 0) say(mine ? gettext("Your time is up: the coach plays this turn.") : gettext("Time is up for this turn."));
        else if (mine) say(mark === 60 ? gettext("One minute left for your turn.") : interpolate(ngettext("%s second left for your turn.", "%s seconds left for your turn.", mark), [mark]));
      }
    });
  }

  function turnChanged() {
    var board = document.getElementById("board");
    if (!board) return;
    var mine = yahtzeeBoard.myTurn();
    if (mine && wasMyTurn === false && document.hidden && window.Notification &&
        Notification.permission === "granted") {
      new Notification(gettext("Yahtzee"), { body: gettext("It is your turn."), tag: "your-turn" });
    }
    wasMyTurn = mine;
    tick();
  }

  function offerNotifications() {
    var button = document.querySelector("[data-notify]");
    if (!button || !window.Notification || Notification.permission !== "default") return;
    button.hidden = false;
    button.addEventListener("click", function () {
      Notification.requestPermission().then(function () { button.hidden = true; });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    readServerTime();
    offerNotifications();
    turnChanged();
    setInterval(tick, 250);
  });
  // The offset is measured once, from the page itself: a swap or a push carries only the
  // deadline (a board is shared by many pages and rendered once, so it cannot carry "now").
  document.addEventListener("htmx:afterSwap", turnChanged);
  document.addEventListener("htmx:wsAfterMessage", turnChanged);
})();

// On a phone or a small tablet the scorecard shows the reader's own column first, next to
// the box names. The board is rendered once for everyone who shares its viewpoint, so it
// cannot know whose page it is on: the page's #me (data-seat) does. The cells of that seat
// are moved in the document itself, not only on screen, so that a screen reader reads the
// columns in the order they are shown. Every new board (an htmx swap, a websocket push, both
// replace #board) is arranged again before it is painted; wider screens keep seat order.
(function () {
  "use strict";

  var compact = window.matchMedia ? window.matchMedia("(max-width: 56.24rem)") : null;

  function moveColumn(table, from, to) {
    var rows = table.rows;
    for (var i = 0; i < rows.length; i++) {
      var cells = rows[i].cells;
      if (cells.length <= Math.max(from, to)) continue;
      var cell = cells[from];
      rows[i].insertBefore(cell, from < to ? cells[to].nextSibling : cells[to]);
    }
  }

  function arrange() {
    var table = document.querySelector("#board table.scorecard");
    if (!table) return;
    var me = document.getElementById("me");
    var seat = me ? me.getAttribute("data-seat") || "" : "";
    var wanted = compact && compact.matches ? seat : "";
    var shown = table.getAttribute("data-own-first") || "";
    if (wanted === shown) return;
    if (shown) {  // put the column moved before back where the server printed it
      moveColumn(table, 1, parseInt(table.getAttribute("data-own-from"), 10));
      table.removeAttribute("data-own-first");
      table.removeAttribute("data-own-from");
    }
    var head = wanted ? table.querySelector('thead th[data-seat="' + wanted + '"]') : null;
    if (!head) return;
    var from = head.cellIndex;
    if (from > 1) moveColumn(table, from, 1);
    table.setAttribute("data-own-first", wanted);
    table.setAttribute("data-own-from", String(from));
  }

  document.addEventListener("DOMContentLoaded", function () {
    arrange();
    var room = document.querySelector(".room");
    // #board and #me are children of the room: a swap of either replaces one of them.
    if (room && window.MutationObserver) new MutationObserver(arrange).observe(room, { childList: true });
    if (compact && compact.addEventListener) compact.addEventListener("change", arrange);
  });
})();
