// The home page (templates/games/home.html): the new table's form proposes this browser's
// own dice seed. The page works without it (the server then makes one).
import "./seeds.js";

// A rated table has no coach while it runs: with "Rated" ticked (and more than one seat),
// hints "on" and feedback are greyed out. The server refuses the pair all the same.
const form = document.querySelector("form[action$='/games/new/']");
if (form) {
  const rated = form.querySelector("[name=rated]");
  const seats = form.querySelector("[name=seats]");
  const hints = form.querySelector("[name=coach_hints]");
  const feedback = form.querySelector("[name=feedback]");
  const exclusive = () => {
    const noCoach = Boolean(rated?.checked) && seats?.value !== "1";
    const hintsOn = hints?.querySelector("option[value=on]");
    if (hintsOn) {
      hintsOn.disabled = noCoach;
      if (noCoach && hints.value === "on") hints.value = "auto";
    }
    if (feedback) {
      feedback.disabled = noCoach;
      if (noCoach) feedback.checked = false;
    }
  };
  for (const field of [rated, seats]) field?.addEventListener("change", exclusive);
  exclusive();
}

// The upper-section-first option belongs to some rule sets only (each option of the rule
// set menu says so in data-upper-first): elsewhere it is hidden and unticked.
if (form) {
  const ruleset = form.querySelector("[name=ruleset]");
  const upperFirst = form.querySelector("[data-upper-first-option]");
  const showUpperFirst = () => {
    const chosen = ruleset?.selectedOptions[0];
    const applies = !chosen || chosen.dataset.upperFirst === "true";
    if (!upperFirst) return;
    upperFirst.hidden = !applies;
    if (!applies) upperFirst.querySelector("input").checked = false;
  };
  ruleset?.addEventListener("change", showUpperFirst);
  showUpperFirst();
}
