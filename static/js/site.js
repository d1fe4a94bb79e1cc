// A signed-in account's live notices on every page (templates/base.html): the inbox badge
// and invitations, pushed by the server over the site-wide socket (games/live/site.py).
// A table page already has its own socket, which carries them too (htmx's ws extension
// swaps them there), so none is opened on it. The page works without this: the badge
// is right at every load.

function swapIn(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  for (const element of Array.from(template.content.children)) {
    const oob = element.getAttribute("hx-swap-oob") || "true";
    if (oob.startsWith("beforeend:")) {
      const target = document.querySelector(oob.slice("beforeend:".length));
      if (target) target.append(...Array.from(element.childNodes));
    } else if (element.id) {
      element.removeAttribute("hx-swap-oob");
      document.getElementById(element.id)?.replaceWith(element);
    }
  }
}

let delay = 1000;

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(`${scheme}//${location.host}/ws/site/`);
  socket.addEventListener("open", function () {
    delay = 1000;
    window.__siteSocketOpen = true;  // for the browser tests: the notices can come now
  });
  socket.addEventListener("message", function (event) {
    if (typeof event.data === "string") swapIn(event.data);
  });
  socket.addEventListener("close", function (event) {
    window.__siteSocketOpen = false;
    // 4403: signed out; 4429: too many pages. Otherwise come back, more slowly each time.
    if (event.code === 4403 || event.code === 4429) return;
    setTimeout(connect, delay + Math.random() * 1000);
    delay = Math.min(delay * 2, 30000);
  });
}

// A notice's Dismiss button takes the notice off the page (on a table page too, where
// the table's socket brings it); the invitation stays in the inbox. Notices only ever
// arrive over a socket, so this script is always there to hear the click.
document.addEventListener("click", function (event) {
  const button = event.target.closest?.("[data-dismiss-notice]");
  if (button) button.closest(".site-notice")?.remove();
});

if (!document.querySelector("[ws-connect^='/ws/g/']")) connect();
