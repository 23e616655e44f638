// Design mode: a short design search of the table chosen above (POST /api/design, GET/DELETE /api/design/{id}).
"use strict";

(() => {
  const byId = (id) => document.getElementById(id);
  let watched = null;

  function request() {
    const form = byId("design-form");
    const objectives = {};
    for (const name of ["length", "fairness", "comebacks", "lead_changes"]) {
      if (form.elements[name].value) objectives[name] = form.elements[name].value;
    }
    const body = {variant: byId("variant").value, players: Number(byId("players").value),
                  lineup: byId("lineup").value.trim(), seed: Number(byId("seed").value),
                  objectives, minutes: Number(form.elements.minutes.value)};
    if (form.elements.no_winner.value !== "") body.constraints = {no_winner: {max: Number(form.elements.no_winner.value)}};
    return body;
  }

  function showError(message) {
    byId("design-error").textContent = message || "";
    byId("design-error").hidden = !message;
  }

  async function poll(id) {
    const response = await fetch(`/api/design/${id}`);
    const state = await response.json();
    if (id !== watched) return;
    // the first line says how many designs were tried (after the design's directory, which the page omits)
    const tried = state.lines.find((line) => line.includes("designs tried"));
    const last = state.status === "done" && tried ? tried.slice(tried.indexOf(": ") + 2)
      : state.lines.length ? state.lines[state.lines.length - 1] : "searching …";
    // an engine build compiling (or another process's compile waited for): its notice, not a stuck search
    byId("design-status").textContent = state.compiling ? `${state.compiling}; the search goes on after it`
      : state.status === "running"
      ? `${Math.round(state.seconds)} s of about ${Math.round(state.minutes * 60)} s of search (then confirmation): ${last}`
      : `${state.status}: ${last}`;
    if (state.status === "running") { setTimeout(() => poll(id), 1000); return; }
    byId("design-run").disabled = false;
    byId("design-cancel").disabled = true;
    if (state.status === "done" && state.report) {
      byId("design-report").href = state.report;
      byId("design-result").hidden = false;
    } else if (state.error) {
      showError(state.error);
    }
  }

  byId("design-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    showError("");
    byId("design-result").hidden = true;
    const response = await fetch("/api/design", {method: "POST", headers: {"Content-Type": "application/json"},
                                                 body: JSON.stringify(request())});
    const state = await response.json();
    if (!response.ok) { showError(state.error); return; }
    watched = state.id;
    byId("design-run").disabled = true;
    byId("design-cancel").disabled = false;
    poll(state.id);
  });

  byId("design-cancel").addEventListener("click", async () => {
    if (watched) await fetch(`/api/design/${watched}`, {method: "DELETE"});
  });
})();
