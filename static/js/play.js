// The "Play now" waiting page (templates/games/play.html): how long this person has waited,
// counted here; the offer of the computer once the wait is long enough; and the socket
// (ws/play/, games/live/play_now.py) that takes the page to its table the moment it is
// matched. Without this script the page reloads itself (a <noscript> refresh).
const box = document.getElementById("play-waiting");
if (box) {
  const started = performance.now() - Number(box.dataset.waited || 0) * 1000;
  const offerAfter = Number(box.dataset.offerAfter || 30);
  const waited = document.getElementById("play-waited");
  const computer = document.getElementById("play-computer");
  const tick = () => {
    const seconds = Math.floor((performance.now() - started) / 1000);
    waited.textContent = interpolate(
      ngettext("You have waited %s second.", "You have waited %s seconds.", seconds),
      [seconds],
    );
    if (computer && computer.hidden && seconds >= offerAfter) computer.hidden = false;
  };
  tick();
  setInterval(tick, 1000);

  let gone = false;
  const go = (message) => {
    if (gone || !message || message.status === "waiting") return;
    gone = true;
    window.location.assign(message.url || (message.game ? `/g/${message.game}/` : box.dataset.playUrl));
  };
  let delay = 500;
  const connect = () => {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${window.location.host}/ws/play/`);
    socket.addEventListener("open", () => { delay = 500; });
    socket.addEventListener("message", (event) => go(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      if (gone) return;
      // A missed push is caught by asking once, then the socket comes back.
      fetch(box.dataset.statusUrl, { headers: { Accept: "application/json" } })
        .then((response) => response.json())
        .then((status) => {
          if (status.status === "matched") go({ status: "matched", game: status.game });
          else if (status.status === "idle") go({ status: "idle", url: box.dataset.playUrl });
        })
        .catch(() => {})
        .finally(() => {
          if (!gone) setTimeout(connect, delay);
          delay = Math.min(delay * 2, 8000);
        });
    });
  };
  connect();
}
