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
