// The explorer's page: a thin client of the JSON API (GET /api/options, POST /api/compare,
// GET/DELETE /api/runs/{id}). No statistics here: findings, tables and charts come from the server.
"use strict";

const $ = (id) => document.getElementById(id);
let OPTIONS = null;
let current = null;   // the run being watched
let whatIfs = 1;      // what-if columns shown (up to MAX_WHAT_IFS)
const MAX_WHAT_IFS = 4;
const history = [];   // the runs answered since the page opened
// house rules (what a designer changes) apart from the settings of the simulation (docs/rules.md groups)
const SETTINGS_GROUPS = ["match", "people"];

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

function sideName(i) { return i === 0 ? "what_if" : `what_if${i + 1}`; }

function markChanged() {
  for (const row of [...$("rules").tBodies[0].rows, ...$("settings").tBodies[0].rows]) {
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
  for (const id of ["rules", "settings"]) {
    const body = $(id).tBodies[0];
    body.replaceChildren();
    const head = $(id).tHead.rows[0];
    while (head.cells.length > 2) head.deleteCell(-1);
    for (let i = 0; i < whatIfs; i++) head.append(el("th", {class: "what-if"}, whatIfs > 1 ? `what if ${i + 1}` : "what if"));
  }
  for (const rule of v.rules) {
    const fixed = v.fixed.includes(rule.name) ? "; fixed in this variant" : "";
    const doc = el("td", {class: "doc"}, el("span", {class: "plain"}, rule.doc), " ", el("code", {}, rule.name), " ",
      el("a", {href: `/docs/rules.md#${rule.section}`, target: "_blank", class: "section"}, `docs/rules.md §${rule.section}`), fixed);
    const row = el("tr", {}, doc, el("td", {}, editor(rule, "baseline")));
    for (let i = 0; i < whatIfs; i++) row.append(el("td", {}, editor(rule, sideName(i))));
    row.dataset.rule = rule.name;
    $(SETTINGS_GROUPS.includes(rule.group) ? "settings" : "rules").tBodies[0].append(row);
  }
  $("remove-what-if").hidden = whatIfs === 1;
  $("add-what-if").disabled = whatIfs === MAX_WHAT_IFS;
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

// a what-if column added or removed: the tables are laid out again, every value typed so far kept
function refill(columns) {
  const inputs = () => document.querySelectorAll("#rules [name], #settings [name], #deck [name]");
  const kept = new Map([...inputs()].map((i) => [i.name, i.type === "checkbox" ? i.checked : i.value]));
  whatIfs = columns;
  fillVariant();
  for (const i of inputs()) {
    if (!kept.has(i.name)) continue;
    if (i.type === "checkbox") i.checked = kept.get(i.name); else i.value = kept.get(i.name);
  }
  markChanged();
}

function request() {
  const v = variant();
  const sides = {baseline: {}};
  for (let i = 0; i < whatIfs; i++) sides[sideName(i)] = {};
  for (const input of document.querySelectorAll("#rules [data-rule], #settings [data-rule]")) {
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
  const cards = declaredCards();   // the deck editor's "add a card" (cards.js)
  if (Object.keys(cards).length) sides.what_if.cards = cards;
  const whatIf = whatIfs === 1 ? sides.what_if : [...Array(whatIfs).keys()].map((i) => sides[sideName(i)]);
  return {variant: v.name, players: Number($("players").value), lineup: $("lineup").value.trim(),
          games: Number($("games").value), seed: Number($("seed").value), mode: $("mode").value,
          baseline: sides.baseline, what_if: whatIf};
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
      // the worker compiling the engine build these rules need (once per machine): its notice, not "0 games"
      $("status").textContent = state.compiling
        ? `${state.compiling}; the games start after it`
        : `${state.phase}: ${state.games_done.toLocaleString()} of ${state.games_total.toLocaleString()} games, ${state.seconds.toFixed(1)} s`;
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

function effectText(r) {
  if (r.effect === null || r.effect === undefined) return r.class === "identical" ? "identical games" : "";
  const f = (x) => (x === null ? "?" : (x > 0 ? "+" : "") + x.toFixed(Math.abs(x) >= 10 ? 0 : 1));
  const unit = r.unit === "%" ? "%" : r.unit === "points" ? " points" : ` ${r.unit}`;
  return `${f(r.effect)}${unit} [${f(r.effect_low)}, ${f(r.effect_high)}]`;
}

const JUDGEMENT = {good: "better for you", bad: "worse for you", neutral: "too small to matter",
                   unclear: "too few games to tell", "not judged": "not judged"};

function answer(id, result) {
  $("answer").hidden = false;
  // the declared cards each what-if played, named: "with_draw_three: with draw_three (2 per colour)"
  const withCards = (result.cards || []).map((labels, i) => [result.names.what_ifs[i], labels]).filter(([, l]) => l.length);
  $("answer-cards").hidden = !withCards.length;
  $("answer-cards").textContent = withCards.map(([name, labels]) => `${name}: with ${labels.join(", ")}`).join("; ");
  $("verdicts").replaceChildren(...result.verdicts.map((v) => el("li", {class: `v-${v.verdict.replaceAll(" ", "-")}`},
    el("strong", {}, v.b), ` vs ${v.a} — ${v.text}`)));
  $("scorecard").innerHTML = result.scorecard_html;   // the report's own scorecard markup
  const quiet = ["no_effect", "identical", "negligible", "note"];
  const groups = new Map();
  for (const f of result.findings) {
    if (!groups.has(f.subject)) groups.set(f.subject, []);
    groups.get(f.subject).push(f);
  }
  $("findings").replaceChildren(...[...groups].map(([subject, found]) => el("details", {open: groups.size === 1},
    el("summary", {}, `${subject} (${found.length})`),
    el("ol", {}, ...found.map((f) => el("li", {class: quiet.includes(f.kind) ? "quiet" : ""},
      f.section === "verdict" ? el("em", {}, "verdict ") : "", f.text))))));
  if (!result.findings.length) $("findings").append(el("p", {}, "No finding: the tables support no statement."));
  $("pairing").textContent = result.paired ? "Paired: every side played the same deals, game by game."
    : "Independent samples: the decks differ, so the deals cannot be the same.";
  $("charts").replaceChildren();
  const card = (result.tables.scorecard || []).map((r) => ({
    rule: `${r.b} vs ${r.a}`, measure: r.plain, setting: `${r.players} players, ${r.lineup}`, "effect [95% interval]": effectText(r),
    "for your profile": JUDGEMENT[r.judgement] || r.judgement}));
  $("effects-table").replaceChildren(table(card, ["rule", "measure", "effect [95% interval]", "for your profile", "setting"]));
  $("save-spec").href = `/api/runs/${id}/spec.toml`;
  const links = $("csv-links");
  links.replaceChildren("Tables as CSV: ", ...result.csv.flatMap((name, i) =>
    [i ? ", " : "", el("a", {href: `/api/runs/${id}/tables/${name}.csv`}, name)]));
  remember(id, result);
}

function remember(id, result) {
  if (history.some((h) => h.id === id)) return;
  const names = result.names ? result.names.what_ifs.join(", ") : "what-if";
  const verdicts = result.verdicts.map((v) => `${v.b}: ${v.verdict}`).join("; ");
  history.unshift({id, result});
  $("history-box").hidden = false;
  const link = el("a", {href: "#answer"}, `${names} vs ${result.names ? result.names.baseline : "baseline"}`);
  link.addEventListener("click", async () => {
    const state = await (await fetch(`/api/runs/${id}`)).json();
    answer(id, state.result);
    if (state.result.charts) drawCharts(state.result.charts);
  });
  const c = result.comparison;
  $("history").prepend(el("li", {"data-run": id}, link,
    ` — ${c.variant}, ${c.players} players, ${c.lineup}, ${c.games.toLocaleString()} games: ${verdicts || "no verdict"}`));
}

// each chart in its wide layout, or on a narrow screen its phone layout ("<name>.phone": panels in one column)
function drawCharts(svgs) {
  const narrow = window.matchMedia("(max-width: 700px)").matches;
  const charts = [];
  for (const [name, svg] of Object.entries(svgs)) {
    if (name.endsWith(".phone")) continue;
    const key = Object.keys(CHART_TITLES).find((k) => name.startsWith(k)) || name;
    const figure = el("figure", {"data-chart": name});
    figure.innerHTML = narrow && svgs[`${name}.phone`] ? svgs[`${name}.phone`] : svg;
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
  $("add-what-if").addEventListener("click", () => refill(Math.min(MAX_WHAT_IFS, whatIfs + 1)));
  $("remove-what-if").addEventListener("click", () => refill(Math.max(1, whatIfs - 1)));
  fillVariant();
  document.body.dataset.ready = "1";
}

init();
