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
