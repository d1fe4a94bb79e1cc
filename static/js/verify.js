// Recomputes every die of a game in the browser (WebCrypto), by the published recipe
// (games/dice.py): key = HMAC-SHA256(server seed, client seeds joined by "\n");
// block n = HMAC-SHA256(key, decimal n); bytes in order, b >= 252 skipped, die = b % 6 + 1.
// A kept die is not drawn: it is the die at its position after the turn's roll before.
// The same-dice draw (data-draw="same"): each row names its message ("t:r", or
// "rolloff:k:s"); its dice are the usable bytes of HMAC-SHA256(seed, message), then of
// message + ":1", ":2"... should fewer than five be usable; kept dice stay as before.
// The server renders the rolls; this only writes each row's verdict.
(function () {
  "use strict";

  var encoder = new TextEncoder();

  function hexToBytes(hex) {
    var bytes = new Uint8Array(hex.length / 2);
    for (var i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(2 * i, 2), 16);
    return bytes;
  }

  function bytesToHex(bytes) {
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  async function hmac(keyBytes, message) {
    var key = await crypto.subtle.importKey(
      "raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
  }

  function Stream(key) {
    this.key = key;
    this.number = -1;
    this.block = null;
    this.offset = 32;
  }

  Stream.prototype.nextDie = async function () {
    for (;;) {
      if (this.offset >= 32) {
        this.number += 1;
        this.block = await hmac(this.key, encoder.encode(String(this.number)));
        this.offset = 0;
      }
      var b = this.block[this.offset++];
      if (b < 252) return (b % 6) + 1;
    }
  };

  async function sameDice(seedBytes, message) {
    var faces = [];
    for (var extra = 0; faces.length < 5; extra++) {
      var text = extra === 0 ? message : message + ":" + extra;
      var digest = await hmac(seedBytes, encoder.encode(text));
      for (var i = 0; i < digest.length; i++) if (digest[i] < 252) faces.push((digest[i] % 6) + 1);
    }
    return faces.slice(0, 5).join("");
  }

  async function check(root) {
    var seed = root.getAttribute("data-seed");
    if (!seed) return;
    var summary = document.getElementById("verify-summary");
    if (!window.crypto || !crypto.subtle) {
      summary.textContent = root.getAttribute("data-no-crypto");
      return;
    }
    var seedBytes = hexToBytes(seed);
    var digest = bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", seedBytes)));
    var committed = digest === root.getAttribute("data-commitment");
    var commitment = document.getElementById("verify-commitment");
    commitment.textContent = root.getAttribute(committed ? "data-commitment-match" : "data-commitment-mismatch");
    commitment.className = committed ? "ok" : "error";

    var clientSeeds = Array.prototype.map.call(
      root.querySelectorAll("[data-client-seed]"),
      function (el) { return el.getAttribute("data-client-seed"); });
    var same = root.getAttribute("data-draw") === "same";
    var key = await hmac(seedBytes, encoder.encode(clientSeeds.join("\n")));
    var stream = new Stream(key);
    var rows = root.querySelectorAll("tr[data-roll]");
    var allMatch = committed;
    var before = null; // the dice after the turn's roll before, as the log has them
    for (var i = 0; i < rows.length; i++) {
      var dice = rows[i].getAttribute("data-dice");
      var held = rows[i].getAttribute("data-held");
      if (rows[i].hasAttribute("data-first-roll")) before = null;
      var expected = "";
      var fresh = same ? await sameDice(seedBytes, rows[i].getAttribute("data-message")) : null;
      for (var p = 0; p < 5; p++) {
        expected += before !== null && held.charAt(p) === "1"
          ? before.charAt(p) : (same ? fresh.charAt(p) : String(await stream.nextDie()));
      }
      before = dice;
      var ok = expected === dice;
      allMatch = allMatch && ok;
      var cell = rows[i].querySelector("[data-check]");
      cell.textContent = ok ? root.getAttribute("data-match")
        : root.getAttribute("data-mismatch") + " (" + expected + ")";
      cell.className = ok ? "ok" : "error";
    }
    summary.textContent = root.getAttribute(allMatch ? "data-all-match" : "data-some-mismatch");
    summary.className = allMatch ? "ok" : "error";
    root.setAttribute("data-verified", allMatch ? "yes" : "no");
  }

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("verify");
    if (root) check(root);
  });
})();
