// The explorer's page: a thin client of the JSON API (GET /api/options, POST /api/compare,
// GET/DELETE /api/runs/{id}). No statistics here: findings, tables and charts come from the server.
"use strict";

const $ = (id) => document.getElementById(id);
let OPTIONS = null;
let current = null;   // the run being watched

const CHART_TITLES = {
  house_rule_effects: "Effects of the what-if against the baseline (95% intervals)",
  win_rate_by_seat: "Win rate by seat; dashed: the fair share 1/N",
  turn_survival: "Length: share of rounds lasting more than x turns, both sides",
  skill_edge: "The skilled seat's edge over its fair share",
};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k in node) node[k] = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function variant() { return OPTIONS.variants.find((v) => v.name === $("variant").value); }

function show(value) {
  if (value === null) return "none";
  if (Array.isArray(value)) return value.join(", ");
  return String(value);
}

function editor(rule, side) {
  const name = `${side}:${rule.name}`;
  const fixed = variant().fixed.includes(rule.name);
  let input;
  if (rule.widget === "bool") {
    input = el("input", {type: "checkbox", name, checked: rule.value === true});
  } else if (rule.widget === "choice") {
    input = el("select", {name});
    for (const c of rule.choices) input.append(el("option", {value: c, selected: c === rule.value}, String(c)));
  } else {
    input = el("input", {name, value: show(rule.value), size: 12, title: `valid: ${rule.valid}`});
  }
  input.dataset.rule = rule.name;
  input.dataset.side = side;
  input.disabled = fixed;
  input.addEventListener("change", markChanged);
  return input;
}

function parseValue(rule, text) {
  const t = text.trim();
  if (t === "none") return null;
  if (t.includes(",")) return t.split(",").map((x) => parseValue(rule, x));
  if (rule.widget === "int" || rule.widget === "float") {
    const n = Number(t);
    return t !== "" && Number.isFinite(n) ? n : t;   // the server names a bad value
  }
  try { return JSON.parse(t); } catch { return t; }
}

function valueOf(input, rule) {
  if (input.type === "checkbox") return input.checked;
  if (input.tagName === "SELECT") return input.value;
  return parseValue(rule, input.value);
}

function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

function markChanged() {
  for (const row of $("rules").tBodies[0].rows) {
    const rule = variant().rules.find((r) => r.name === row.dataset.rule);
    const changed = [...row.querySelectorAll("[data-rule]")].some((i) => !same(valueOf(i, rule), rule.value));
    row.classList.toggle("changed", changed);
  }
}

function fillVariant() {
  const v = variant();
  $("variant-description").textContent = `${v.description}; ${v.players[0]}-${v.players[1]} players`;
  $("players").min = v.players[0];
  $("players").max = v.players[1];
  const body = $("rules").tBodies[0];
  body.replaceChildren();
  for (const rule of v.rules) {
    const doc = `${rule.doc} (docs/rules.md §${rule.section})` + (v.fixed.includes(rule.name) ? "; fixed in this variant" : "");
    body.append(el("tr", {"data-rule": rule.name},
      el("td", {}, el("code", {}, rule.name)), el("td", {}, editor(rule, "baseline")),
      el("td", {}, editor(rule, "what_if")), el("td", {class: "doc"}, doc)));
    body.lastChild.dataset.rule = rule.name;
  }
  const deck = $("deck").tBodies[0];
  deck.replaceChildren();
  for (const name of v.deck_classes) {
    const published = v.deck[name] || 0;
    const input = el("input", {type: "number", min: 0, value: published, name: `deck:${name}`});
    input.dataset.card = name;
    input.dataset.published = published;
    deck.append(el("tr", {}, el("td", {}, el("code", {}, name)), el("td", {}, String(published)), el("td", {}, input)));
  }
}

function request() {
  const v = variant();
  const sides = {baseline: {}, what_if: {}};
  for (const input of document.querySelectorAll("#rules [data-rule]")) {
    if (input.tagName === "TR") continue;
    const rule = v.rules.find((r) => r.name === input.dataset.rule);
    const value = valueOf(input, rule);
    if (!same(value, rule.value)) sides[input.dataset.side][rule.name] = value;
  }
  const deck = {};
  for (const input of document.querySelectorAll("#deck input")) {
    if (input.value !== input.dataset.published) deck[input.dataset.card] = Number(input.value);
  }
  if (Object.keys(deck).length) sides.what_if.deck = deck;
  return {variant: v.name, players: Number($("players").value), lineup: $("lineup").value.trim(),
          games: Number($("games").value), seed: Number($("seed").value), mode: $("mode").value,
          baseline: sides.baseline, what_if: sides.what_if};
}

function fail(message) {
  $("error").textContent = message;
  $("error").hidden = false;
}

function busy(on) {
  $("run").disabled = on;
  $("cancel").disabled = !on;
}

async function run(event) {
  event.preventDefault();
  $("error").hidden = true;
  $("status").textContent = "starting…";
  const response = await fetch("/api/compare", {method: "POST", headers: {"Content-Type": "application/json"},
                                                body: JSON.stringify(request())});
  const body = await response.json();
  if (!response.ok) { fail(body.error); return; }
  current = body.id;
  busy(true);
  $("progress").removeAttribute("value");
  watch(body.id);
}

async function watch(id) {
  let shown = false;
  while (current === id) {
    const state = await (await fetch(`/api/runs/${id}`)).json();
    $("progress").max = state.games_total;
    $("progress").value = state.games_done;
    if (!shown) {
      $("status").textContent = `${state.phase}: ${state.games_done.toLocaleString()} of ${state.games_total.toLocaleString()} games, ${state.seconds.toFixed(1)} s`;
    }
    if (state.status === "failed" || state.status === "cancelled") {
      busy(false);
      current = null;
      if (state.status === "failed") fail(state.error);
      return;
    }
    if (state.status === "done" && !shown) {
      shown = true;
      busy(false);
      answer(id, state.result);
      $("status").textContent = `answered in ${state.seconds.toFixed(1)} s; drawing the charts…`;
    }
    if (state.status === "done" && state.charts_ready) {
      drawCharts(state.result.charts);
      if (state.error) fail(state.error);
      $("status").textContent = `answered in ${state.seconds.toFixed(1)} s`;
      current = null;
      return;
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function cancel() {
  if (!current) return;
  const id = current;
  current = null;
  await fetch(`/api/runs/${id}`, {method: "DELETE"});
  busy(false);
  $("status").textContent = "cancelled";
}

function table(rows, columns) {
  const head = el("tr", {}, ...columns.map((c) => el("th", {}, c)));
  const body = rows.map((r) => el("tr", {}, ...columns.map((c) => {
    const v = r[c];
    return el("td", {}, typeof v === "number" && !Number.isInteger(v) ? v.toPrecision(4) : show(v ?? ""));
  })));
  return el("div", {class: "table-scroll"}, el("table", {}, el("thead", {}, head), el("tbody", {}, ...body)));
}

function answer(id, result) {
  $("answer").hidden = false;
  const quiet = ["no_effect", "identical", "negligible", "note"];
  $("findings").replaceChildren(...result.findings.map((f) =>
    el("li", {class: quiet.includes(f.kind) ? "quiet" : ""}, el("strong", {}, f.subject + " "), f.text)));
  if (!result.findings.length) $("findings").append(el("li", {}, "No finding: the tables support no statement."));
  $("pairing").textContent = result.paired ? "Paired: both sides played the same deals, game by game."
    : "Independent samples: the decks differ, so the deals cannot be the same.";
  $("charts").replaceChildren();
  const effects = result.tables.effects || [];
  $("effects-table").replaceChildren(table(effects, ["measure", "mean_a", "mean_b", "estimate", "ci_low", "ci_high", "rel_change", "p_holm"]
    .filter((c) => effects.length && c in effects[0])));
  $("save-spec").href = `/api/runs/${id}/spec.toml`;
  const links = $("csv-links");
  links.replaceChildren("Tables as CSV: ", ...result.csv.flatMap((name, i) =>
    [i ? ", " : "", el("a", {href: `/api/runs/${id}/tables/${name}.csv`}, name)]));
}


function drawCharts(svgs) {
  const charts = [];
  for (const [name, svg] of Object.entries(svgs)) {
    const key = Object.keys(CHART_TITLES).find((k) => name.startsWith(k)) || name;
    const figure = el("figure", {"data-chart": name});
    figure.innerHTML = svg;
    figure.append(el("figcaption", {}, CHART_TITLES[key] || name));
    charts.push(figure);
  }
  $("charts").replaceChildren(...charts);
}

async function init() {
  OPTIONS = await (await fetch("/api/options")).json();
  for (const v of OPTIONS.variants) $("variant").append(el("option", {value: v.name}, v.name));
  for (const m of OPTIONS.modes) $("mode").append(el("option", {value: m, selected: m === "single_round"}, m));
  for (const p of OPTIONS.policies) $("policy-names").append(el("option", {value: p.name}, p.doc));
  $("games").max = OPTIONS.max_games;
  $("games").value = OPTIONS.default_games;
  $("variant").addEventListener("change", fillVariant);
  $("question").addEventListener("submit", run);
  $("cancel").addEventListener("click", cancel);
  fillVariant();
  document.body.dataset.ready = "1";
}

init();
