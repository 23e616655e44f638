// The deck editor's "add a card": a card declared as data (docs/rules.md §2.7) composed from the vocabulary
// the server sends (GET /api/options card_effects), checked by the server (POST /api/cards: the spec's own
// validation, its one-line message shown beside the control) and sent with the what-if (request().what_if.cards).
"use strict";

const declared = new Map();   // name → the card as a spec's [cards.NAME] table holds it
let chosenEffects = [];       // the effects of the card being composed, in order, as a spec writes them

function vocabulary() { return OPTIONS.card_effects; }

function declaredCards() { return Object.fromEntries(declared); }

function cardError(message) {
  $("card-error").textContent = message || "";
  $("card-error").hidden = !message;
}

function showEffectChoice() {
  const effect = vocabulary().find((e) => e.name === $("card-effect").value);
  $("card-n-label").hidden = !effect.count;
  if (effect.count) {
    [$("card-n").min, $("card-n").max] = effect.count;
    $("card-n").value = effect.default_count;
  }
  $("card-effect-doc").replaceChildren(`${effect.name}: ${effect.doc} — `,
    el("a", {href: `/docs/rules.md#${effect.section}`, target: "_blank"}, `docs/rules.md §${effect.section}`));
}

function showChosenEffects() {
  $("card-effects-none").hidden = chosenEffects.length > 0;
  $("card-effects").replaceChildren(...chosenEffects.map((written, i) => {
    const remove = el("button", {type: "button", title: `remove ${written}`}, "×");
    remove.addEventListener("click", () => { chosenEffects.splice(i, 1); showChosenEffects(); });
    return el("li", {}, el("code", {}, written), " ", remove);
  }));
}

function showDeclared(labels) {
  $("declared-cards").hidden = declared.size === 0;
  $("declared-cards").tBodies[0].replaceChildren(...labels.map((card) => {
    const remove = el("button", {type: "button", title: `remove ${card.name}`}, "remove");
    remove.addEventListener("click", () => {
      declared.delete(card.name);
      showDeclared(labels.filter((c) => c.name !== card.name));
    });
    return el("tr", {"data-card": card.name}, el("td", {}, card.label), el("td", {}, el("code", {}, card.spec)),
      el("td", {}, remove));
  }));
}

function composedCard() {
  const wild = $("card-class").value === "wild";
  const card = {[wild ? "wild" : "coloured"]: true, effects: [...chosenEffects],
                points: Number($("card-points").value), count: Number($("card-count").value)};
  if ($("card-challengeable").checked) card.challengeable = true;
  if (!$("card-same-effect").checked) card.same_effect = false;
  return card;
}

async function addCard() {
  cardError("");
  const name = $("card-name").value.trim();
  if (declared.has(name)) { cardError(`a card named ${name} is already in the what-if: remove it first or choose another name`); return; }
  const sent = request();
  const whatIf = Array.isArray(sent.what_if) ? sent.what_if[0] : sent.what_if;
  const cards = {...declaredCards(), [name]: composedCard()};
  const response = await fetch("/api/cards", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({variant: sent.variant, players: sent.players, rules: {...whatIf, cards}})});
  const body = await response.json();
  if (!response.ok) { cardError(body.error); return; }
  declared.set(name, cards[name]);
  showDeclared(body.cards);
  chosenEffects = [];
  showChosenEffects();
}

// a variant whose cards are two-faced (UNO Flip) takes no declared card: the control is off there
function cardsForVariant() {
  $("add-card").disabled = !variant().declared_cards;
  if (!variant().declared_cards) { declared.clear(); showDeclared([]); }
}

(async () => {
  while (!OPTIONS) await new Promise((r) => setTimeout(r, 20));
  for (const e of vocabulary()) $("card-effect").append(el("option", {value: e.name, title: e.doc}, e.count ? `${e.name}:N` : e.name));
  $("card-effect").value = "draw";
  $("card-effect").addEventListener("change", showEffectChoice);
  $("card-add-effect").addEventListener("click", () => {
    const effect = vocabulary().find((e) => e.name === $("card-effect").value);
    chosenEffects.push(effect.count ? `${effect.name}:${$("card-n").value}` : effect.name);
    showChosenEffects();
  });
  $("card-class").addEventListener("change", () => {
    const wild = $("card-class").value === "wild";
    $("card-count-unit").textContent = wild ? "in all" : "per colour";
    $("card-points").value = wild ? 50 : 20;   // the class defaults (docs/rules.md §1.12)
  });
  $("card-add").addEventListener("click", addCard);
  $("variant").addEventListener("change", cardsForVariant);
  showEffectChoice();
  showChosenEffects();
  cardsForVariant();
  document.body.dataset.cardsReady = "1";
})();
