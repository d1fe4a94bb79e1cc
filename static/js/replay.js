// The replay: left and right arrows step through the moves, Home and End jump to the
// first and the last (each is a plain link, so the page works without this file).
(function () {
  "use strict";

  var keys = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" };

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.shiftKey) return;
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
    var which = keys[event.key];
    if (!which) return;
    var link = document.querySelector('[data-replay="' + which + '"]');
    if (!link) return;
    event.preventDefault();
    window.location.assign(link.href);
  });
})();
