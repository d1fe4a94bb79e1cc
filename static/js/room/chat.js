// Table talk (templates/games/chat.html). New messages arrive over the socket and are
// appended to #chat-log by htmx; this keeps the newest in view and empties the text field
// once its message went. The page works without it.
function scrollLog() {
  const log = document.getElementById("chat-log");
  if (log) log.scrollTop = log.scrollHeight;
}

document.addEventListener("htmx:oobAfterSwap", function (event) {
  if (event.detail.target && event.detail.target.id === "chat-log") scrollLog();
});

document.addEventListener("htmx:afterSwap", function (event) {
  const target = event.detail.target;
  if (target && (target.id === "chat-controls" || target.id === "chat")) {
    const field = document.getElementById("chat-text");
    if (field && event.detail.requestConfig && event.detail.requestConfig.elt.classList.contains("chat-text")) {
      field.focus();
    }
  }
});

document.addEventListener("DOMContentLoaded", scrollLog);
