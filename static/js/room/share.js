// "Copy link" copies the share link; "Invite" shares it (the Web Share API on phones) or
// copies it (desktops). Their "done" words come from the page (data-done), translated.

function confirm(button, label) {
  const before = label.textContent;
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
  const field = document.createElement("textarea");
  field.value = text;
  field.setAttribute("readonly", "");
  field.className = "visually-hidden";
  document.body.appendChild(field);
  field.select();
  const copied = document.execCommand("copy");
  document.body.removeChild(field);
  if (copied) done();
}

document.addEventListener("click", function (event) {
  const button = event.target.closest("[data-copy], [data-share]");
  if (!button) return;
  const input = document.querySelector(button.getAttribute("data-copy") || button.getAttribute("data-share"));
  if (!input) return;
  const label = button.querySelector(".share-text") || button;
  const touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  if (button.hasAttribute("data-share") && touch && navigator.share) {
    navigator.share({ title: button.getAttribute("data-title") || document.title, url: input.value })
      .catch(function () { /* the person closed the share sheet */ });
    return;
  }
  copy(input.value, function () { confirm(button, label); });
});
