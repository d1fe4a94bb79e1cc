// Table talk (templates/games/chat.html). New messages arrive over the socket and are
// appended to #chat-log by htmx; this keeps the newest in view and puts the keyboard back
// where it was once a post's answer has replaced the controls. The page works without it.
function scrollLog() {
  const log = document.getElementById("chat-log");
  if (log) log.scrollTop = log.scrollHeight;
}

document.addEventListener("htmx:oobAfterSwap", function (event) {
  if (event.detail.target && event.detail.target.id === "chat-log") scrollLog();
});

// The button or field that sent a chat form, to focus its new copy after the swap.
let sentFrom = null;

document.addEventListener("htmx:beforeRequest", function (event) {
  const form = event.detail.elt;
  if (!form.closest || !form.closest("#chat-controls")) return;
  const active = document.activeElement;
  sentFrom = active && form.contains(active)
    ? { name: active.getAttribute("name"), value: active.getAttribute("value") }
    : null;
});

document.addEventListener("htmx:afterSwap", function (event) {
  const target = event.detail.target;
  if (!target || target.id !== "chat-controls" || !sentFrom) return;
  const controls = document.getElementById("chat-controls");
  const again = sentFrom.name === "phrase"
    ? controls && controls.querySelector(`button[name="phrase"][value="${CSS.escape(sentFrom.value || "")}"]`)
    : document.getElementById("chat-text");
  sentFrom = null;
  if (again) again.focus();
});

document.addEventListener("DOMContentLoaded", scrollLog);
