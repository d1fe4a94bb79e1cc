// The live room. htmx's ws extension swaps what the server pushes; this keeps the page
// honest about versions and comes back after a lost connection.
import { shownVersion, versionIn } from "./board.js";

// Never let an older table replace a newer one (a slow response after a fast push).
document.addEventListener("htmx:beforeSwap", function (event) {
  const incoming = versionIn(event.detail.serverResponse || "");
  if (incoming !== null && incoming < shownVersion()) {
    event.detail.shouldSwap = false;
  }
});

document.addEventListener("htmx:wsBeforeMessage", function (event) {
  const incoming = versionIn(event.detail.message || "");
  if (incoming === null) return;  // presence or a notice
  const current = shownVersion();
  if (incoming < current) {
    event.preventDefault();  // an old version: the page already shows a newer one
  } else if (current && incoming > current + 1) {
    // A gap: something was missed. This push is the whole table, but ask anyway so the
    // server re-sends everything the page shows from the same version.
    event.detail.socketWrapper.send(JSON.stringify({ type: "resync" }));
  }
});

function showConnection(text) {
  const bar = document.getElementById("presence");
  if (!bar) return;
  bar.innerHTML = '<span class="connecting"></span>';
  bar.firstChild.textContent = text;
}

// A server restart closes sockets with "going away"; come back like after a lost network
// (htmx's ws extension retries only 1006, 1011, 1012 and 1013 itself).
document.addEventListener("htmx:wsClose", function (event) {
  const code = event.detail.event.code;
  if (code === 4403 || code === 4404 || code === 4429) {
    showConnection(gettext("This page stopped updating live. Reload it to see the table as it stands."));
    return;
  }
  showConnection(gettext("Reconnecting to the table…"));
  if (code === 1000 || code === 1001 || code === 1005) {
    const room = document.querySelector("[ws-connect]");
    if (!room) return;
    setTimeout(function () {
      const url = room.getAttribute("ws-connect");
      room.removeAttribute("ws-connect");
      htmx.process(room);
      room.setAttribute("ws-connect", url);
      htmx.process(room);
    }, 1000 + Math.random() * 1000);
  }
});
