"""The deck editor's "add a card" through the API: a declared card is checked by the spec's own validation
(``POST /api/cards``, and again by ``POST /api/compare``), each bad kind of card gets one clear line, the
vocabulary comes from the declared table, the guards of every POST hold, and a what-if with a Draw Three
runs and names the card."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from explorer_client import call

from unosim.explore import server
from unosim.game import card_effects, rules

DRAW_THREE = {"coloured": True, "effects": ["draw:3"], "points": 20, "count": 2}


def check(explorer, cards: dict, **rules) -> tuple[int, dict]:
    return call(explorer, "/api/cards", {"variant": "classic", "players": 4, "rules": {**rules, "cards": cards}})


def test_the_vocabulary_on_offer_is_the_declared_table(explorer):
    status, options = call(explorer, "/api/options")
    assert status == 200
    assert [e["name"] for e in options["card_effects"]] == list(card_effects.NAMES)
    draw = next(e for e in options["card_effects"] if e["name"] == "draw")
    assert draw["doc"] == card_effects.BY_NAME["draw"].doc and draw["count"] == [1, card_effects.MAX_DRAW]
    assert next(e for e in options["card_effects"] if e["name"] == "reverse")["count"] is None
    by_variant = {v["name"]: v for v in options["variants"]}
    assert by_variant["classic"]["declared_cards"] and not by_variant["flip"]["declared_cards"]
    assert "cards" not in {r["name"] for r in by_variant["classic"]["rules"]}, "edited in the deck editor, not as a rule"


def test_a_good_card_is_checked_with_its_label_spec_and_the_deck_in_effect(explorer):
    status, answer = check(explorer, {"draw_three": DRAW_THREE})
    assert status == 200, answer
    assert answer["cards"] == [{"name": "draw_three", "label": "draw_three (2 per colour)",
                                "spec": "draw_three:coloured,effects=draw:3,points=20,count=2"}]
    assert answer["deck"]["draw_three"] == 8 and answer["deck_size"] == rules.get_variant("classic").deck_size + 8
    status, answer = check(explorer, {"everyone_draws": {"wild": True, "effects": ["wild", "others_draw:1"],
                                                         "points": 40, "count": 4}})
    assert status == 200 and answer["cards"][0]["label"] == "everyone_draws (4 wild)", answer


@pytest.mark.parametrize("cards,rules,message", [
    ({"x": {"coloured": True, "effects": ["draw_five"]}}, {},
     "rule cards: unknown effect 'draw_five' of card 'x': valid are ['draw:N', 'skip:N', 'reverse'"),
    ({"x": {"coloured": True, "effects": ["draw:11"]}}, {},
     "rule cards: effect 'draw:11' of card 'x' is invalid: valid is draw:N with N in 1..10"),
    ({"x": {"coloured": True, "effects": ["skip", "skip_everyone"]}}, {},
     "rule cards: card 'x' is contradictory: 'skip' and 'skip_everyone' both decide who plays next"),
    ({"x": {"coloured": True, "effects": ["wild"]}}, {},
     "rule cards: card 'x' is contradictory: a coloured card cannot name a colour ('wild'): declare it wild = true"),
    ({"x": {"coloured": True, "effects": ["draw:3"], "count": 1}},
     {"deck": {f"n{i}": 0 for i in range(10)}, "hand_size": 9},
     "hand_size=9 × players=4 = 36 cards exceeds what the 39-card classic deck can deal"),
    ({"draw_two": DRAW_THREE}, {}, "rule cards: card name 'draw_two' clashes with the built-in card class 'draw_two'"),
    ({"seven_o": DRAW_THREE}, {}, "rule cards: card name 'seven_o' clashes with the rule 'seven_o'"),
    ({"x": {"coloured": True, "effects": ["draw:3"], "count": 0}}, {},
     "rule cards: card 'x' has count 0: no seat could ever play it"),
    ({"x": {"coloured": True, "effects": ["draw:4"], "challengeable": True}}, {},
     "rule cards: card 'x' is contradictory: only a wild draw card may be challengeable"),
])
def test_each_bad_card_gets_one_clear_line_from_both_endpoints(explorer, cards, rules, message):
    status, answer = check(explorer, cards, **rules)
    assert status == 400 and answer["error"].startswith(message) and "\n" not in answer["error"], answer
    status, answer = call(explorer, "/api/compare", {"games": 10, "what_if": {**rules, "cards": cards}})
    assert status == 400 and answer["error"].startswith(message), answer


def test_a_flip_table_refuses_declared_cards(explorer):
    status, answer = call(explorer, "/api/cards", {"variant": "flip", "players": 4,
                                                   "rules": {"cards": {"draw_three": DRAW_THREE}}})
    assert status == 400 and "UNO Flip's cards are two-faced" in answer["error"]


def _post(explorer, path: str, body: bytes, headers: dict) -> tuple[int, dict]:
    request = urllib.request.Request(explorer.url.rstrip("/") + path, data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.mark.parametrize("body,headers,status,words", [
    (json.dumps({"rules": {"cards": {"draw_three": DRAW_THREE}}}).encode(),
     {"Content-Type": "application/json", "Origin": "https://evil.example"}, 403, "another origin"),
    (b"{}", {"Content-Type": "text/plain"}, 415, "send application/json"),
    (json.dumps({"rules": {"cards": {"x": {"coloured": True, "effects": ["skip"] * 20_000}}}}).encode(),
     {"Content-Type": "application/json"}, 413, f"at most {server.MAX_BODY:,} are accepted"),
    (b"[" * 100_00 + b"]" * 100_00, {"Content-Type": "application/json"}, 400, "nested too deeply"),
])
def test_the_card_check_keeps_every_guard_of_a_post(explorer, body, headers, status, words):
    got, answer = _post(explorer, "/api/cards", body, headers)
    assert got == status and words in answer["error"] and len(answer["error"]) <= server.MAX_ERROR, answer


def test_a_what_if_with_a_draw_three_runs_and_the_answer_names_the_card(explorer):
    body = {"games": 300, "seed": 7, "what_if": {"cards": {"draw_three": DRAW_THREE}}}
    status, run = call(explorer, "/api/compare?wait=1", body)
    assert status == 200 and run["status"] == "done", run
    result = run["result"]
    assert result["names"]["what_ifs"] == ["with_draw_three"]
    assert result["cards"] == [["draw_three (2 per colour)"]]
    assert result["decks"]["what_if"]["draw_three"] == 8 and "draw_three" not in result["decks"]["baseline"]
    assert all(v["b"] == "with_draw_three" for v in result["verdicts"]) and result["verdicts"]
    assert "what if with draw_three (2 per colour)?" in result["spec"]
    assert 'cards = { draw_three = { coloured = true, effects = ["draw:3"]' in result["spec"]
    status, games = call(explorer, f"/api/runs/{run['id']}/tables/lengths.csv")
    assert status == 200 and "with_draw_three" in games


def test_the_editors_link_to_the_invent_a_card_tutorial_is_served(explorer):
    status, text = call(explorer, "/docs/tutorials/invent-a-card.md")
    assert status == 200 and text.startswith("# Invent a card")
    assert call(explorer, "/docs/tutorials/explorer.md")[0] == 404   # only the docs the page links to


def test_a_what_if_with_two_cards_values_each_card_on_its_own(explorer):
    everyone_draws = {"wild": True, "effects": ["wild", "others_draw:1"], "points": 40, "count": 4}
    body = {"games": 2000, "seed": 7, "what_if": {"cards": {"draw_three": DRAW_THREE, "everyone_draws": everyone_draws}}}
    status, run = call(explorer, "/api/compare?wait=1", body)
    assert status == 200 and run["status"] == "done", run
    result = run["result"]
    values = {r["card"]: r for r in result["tables"]["card_values"] if r["variant"] == "with_draw_three_everyone_draws"}
    assert values["draw_three"]["points"] == 20 and values["everyone_draws"]["points"] == 40
    assert values["draw_three"]["mean_count"] != values["everyone_draws"]["mean_count"]   # 8 copies and 4
    assert not {"draw_three", "everyone_draws"} & {r["card"] for r in result["tables"]["card_values"]
                                                   if r["variant"] != "with_draw_three_everyone_draws"}
