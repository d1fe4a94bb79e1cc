// Small comforts on the game page; the page works without this file.
// - "Copy link" copies the share link.
// - Keys 1-5 keep or release a die, R rolls (when it is your turn).
(function () {
  "use strict";

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var input = document.querySelector(button.getAttribute("data-copy"));
    if (!input) return;
    var done = function () {
      button.textContent = "Copied!";
      setTimeout(function () { button.textContent = "Copy link"; }, 2000);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () { input.select(); });
    } else {
      input.select();
      document.execCommand("copy");
      done();
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
    var selector = null;
    if (event.key >= "1" && event.key <= "5") selector = '[data-die="' + event.key + '"]:not([disabled])';
    else if (event.key === "r" || event.key === "R") selector = "[data-roll]:not([disabled])";
    if (!selector) return;
    var button = document.querySelector(selector);
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
    if (baseTitle === null) baseTitle = document.title.replace(/^▶ Your turn · /, "");
    var mine = board.getAttribute("data-your-turn") === "1";
    document.title = (mine ? "▶ Your turn · " : "") + baseTitle;
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
      showConnection("This page stopped updating live. Reload it to see the table as it stands.");
      return;
    }
    showConnection("Reconnecting to the table…");
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
// its key) would be dropped. Hold such presses and replay them, in order, on the new board.
(function () {
  "use strict";

  var waiting = [];
  var busy = false;
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
    busy = false;
    var next = waiting.shift();
    if (!next) return;
    var die = document.querySelector('[data-die="' + next + '"]:not([disabled])');
    if (die) die.click();
    else waiting = [];
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    if (boardRequest(event) || (event.target && event.target.id === "board")) replay();
  });
  // The room's push of the same version often lands first; the response then swaps into
  // the board it replaced, out of the page, and no event of it reaches here.
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    // Only a newer table than the one the press was made on answers it.
    if ((event.detail.message || "").indexOf('id="board"') >= 0 && shownVersion() > sentAt) {
      replay();
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (boardRequest(event) && !event.detail.successful && event.detail.failed) {
      busy = false;
      waiting = [];
    }
  });
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
      return hours + " h " + String(Math.floor((seconds % 3600) / 60)).padStart(2, "0") + " min";
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
    var mine = clock.getAttribute("data-your-clock") === "1";
    [60, 30, 10, 0].forEach(function (mark) {
      if (left <= mark && !announced[key + mark] && (mark === 0 || left > mark - 5)) {
        announced[key + mark] = true;
        if (mark === 0) say(mine ? "Your time is up: the coach plays this turn." : "Time is up for this turn.");
        else if (mine) say(mark === 60 ? "One minute left for your turn." : mark + " seconds left for your turn.");
      }
    });
  }

  function turnChanged() {
    var board = document.getElementById("board");
    if (!board) return;
    var mine = board.getAttribute("data-your-turn") === "1";
    if (mine && wasMyTurn === false && document.hidden && window.Notification &&
        Notification.permission === "granted") {
      new Notification("Yahtzee", { body: "It is your turn.", tag: "your-turn" });
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
