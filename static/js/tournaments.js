// The new tournament's form: the start is written in UTC; beside it, the same moment in
// the reader's local time. Without this script the UTC time simply stays.

function showLocal(input, out) {
  const value = input.value;
  if (!value) {
    out.textContent = "";
    return;
  }
  const moment = new Date(`${value}:00Z`);
  if (Number.isNaN(moment.getTime())) {
    out.textContent = "";
    return;
  }
  const local = moment.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
  out.textContent = `(${gettext("Your local time:")} ${local})`;
}

for (const out of document.querySelectorAll("[data-local-of]")) {
  const input = document.getElementById(out.dataset.localOf);
  if (input) {
    showLocal(input, out);
    input.addEventListener("input", () => showLocal(input, out));
  }
}
