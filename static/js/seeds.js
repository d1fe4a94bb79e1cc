// Provably fair dice: a person who sits down (or opens a table) proposes their own dice
// seed, made here from the browser's cryptographic generator (the server makes one if this
// script never runs). A person seated without one (a rematch seats everyone again) has it
// proposed and sent from the lobby's seed form, as if they had pressed "Change seed".

let sends = 0;  // a stale version re-renders the lobby and its empty seed: try again
const MAX_SENDS = 10;

function send(input) {
  const button = input.parentNode.querySelector("button[formaction]");
  if (!button || sends >= MAX_SENDS) return;
  sends += 1;
  window.setTimeout(function () { button.click(); }, 0);
}

function newSeed() {
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.prototype.map.call(bytes, function (b) {
    return (b < 16 ? "0" : "") + b.toString(16);
  }).join("");
}

function proposeSeeds(root) {
  if (!window.crypto || !window.crypto.getRandomValues) return;
  const scope = root && root.querySelectorAll ? root : document;
  const inputs = scope.querySelectorAll("input[data-propose-seed]");
  for (let i = 0; i < inputs.length; i++) {
    if (inputs[i].value) continue;
    inputs[i].value = newSeed();
    if (inputs[i].hasAttribute("data-send-seed")) send(inputs[i]);
  }
}

document.addEventListener("DOMContentLoaded", function () { proposeSeeds(document); });
document.addEventListener("htmx:load", function (event) { proposeSeeds(event.target); });
document.addEventListener("htmx:wsAfterMessage", function () { proposeSeeds(document); });
