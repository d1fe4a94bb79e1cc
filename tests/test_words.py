"""Every refusal of a move a player can meet reads in their language: the engine's English
sentences never reach a Telugu or an Uzbek reader (games/words.py)."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games import engine, services
from games.rules import Breach, Category, IllegalMove, Rules, Scorecard
from games.services import GameError
from games.words import BREACHES, refused_move_words
from tests.conftest import ScriptedDice, guest_player, version_of

from .test_languages import english_left

LANGUAGES = ["te", "uz"]


def refusal_in(language: str, move) -> str:
    with translation.override(language), pytest.raises(GameError) as refused:
        move()
    return str(refused.value)


def roll(game, player, faces="12345"):
    return lambda: services.turn_roll(
        code=game.code, player=player, version=version_of(game), rng=ScriptedDice(faces)
    )


def keep(game, player, held):
    return lambda: services.turn_keep(
        code=game.code, player=player, version=version_of(game), held=held
    )


def score(game, player, category):
    return lambda: services.turn_score(
        code=game.code, player=player, version=version_of(game), category=category
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_rolling_or_keeping_with_no_rolls_left_is_refused_in_the_readers_language(
    duel, ann, language
):
    for _ in range(3):
        roll(duel, ann)()

    for move in (roll(duel, ann), keep(duel, ann, (True,) * 5)):
        said = refusal_in(language, move)

        with translation.override(language):
            assert said == str(BREACHES[Breach.NO_ROLLS_LEFT])
        assert said != "No rolls left this turn: choose a box to score."
        assert "rolls" not in said


@pytest.mark.parametrize(
    ("language", "words"),
    [("te", ["విసరండి"]), ("uz", ["tashlang"])],
)
def test_keeping_or_scoring_before_the_first_roll_is_refused_in_the_readers_language(
    duel, ann, language, words
):
    before_keep = refusal_in(language, keep(duel, ann, (True,) * 5))
    before_score = refusal_in(language, score(duel, ann, Category.CHANCE))

    assert before_keep != before_score
    for said in (before_keep, before_score):
        assert "Roll the dice" not in said
        assert any(word in said for word in words), said


@pytest.mark.parametrize("language", LANGUAGES)
def test_keeping_other_than_five_dice_is_refused_in_the_readers_language(duel, ann, language):
    roll(duel, ann)()

    said = refusal_in(language, keep(duel, ann, (True, False, True)))

    with translation.override(language):
        assert said == str(BREACHES[Breach.NOT_FIVE_HOLDS])
    assert "Choose which" not in said


@pytest.mark.parametrize(("language", "box"), [("te", "ఛాన్స్"), ("uz", "Shans")])
def test_a_filled_box_is_refused_in_the_readers_language_naming_the_box(
    duel, ann, ben, language, box
):
    roll(duel, ann)()
    score(duel, ann, Category.CHANCE)()
    roll(duel, ben)()
    score(duel, ben, Category.ONES)()
    roll(duel, ann)()

    said = refusal_in(language, score(duel, ann, Category.CHANCE))

    assert box in said
    assert "already filled" not in said


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_upper_section_first_variant_refuses_in_the_readers_language(make_game, ann, language):
    game = make_game(ann, seats=1, upper_first=True, start=True)
    roll(game, ann)()

    said = refusal_in(language, score(game, ann, Category.CHANCE))

    english = "Fill all six upper boxes before using the lower section."
    with translation.override(language):
        assert said == translation.gettext(english) != english


@pytest.mark.parametrize(("language", "joker"), [("te", "జోకర్"), ("uz", "Joker")])
def test_an_extra_yahtzee_refused_by_the_joker_rule_says_so_in_the_readers_language(
    language, joker
):
    card = Scorecard(Rules()).score(Category.YAHTZEE, "44444")
    state = engine.GameState(
        rules=Rules(), cards=(card,), rolloff=(), starter=0, dice=(4, 4, 4, 4, 4), rolls_left=2
    )
    with pytest.raises(IllegalMove) as refused:
        engine.apply(state, engine.Score(0, Category.CHANCE))

    with translation.override(language):
        said = refused_move_words(refused.value, state, engine.Score(0, Category.CHANCE))

    assert refused.value.breach is Breach.BOX_REFUSES
    assert joker in said  # the rule's name, as players say it
    assert "must go in" not in said and "while it is open" not in said


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("breach", list(Breach))
def test_every_rule_a_move_can_break_has_a_sentence_in_each_language(language, breach, duel):
    from games.snapshots import Snapshot

    state = Snapshot.load(duel.code).state
    with translation.override(language):
        said = refused_move_words(IllegalMove("English", breach), state, engine.Roll(0))
        fallback = refused_move_words(IllegalMove("English"), state, engine.Roll(0))

    assert said and said != "English"
    assert fallback and fallback != "English"
    with translation.override("en"):
        assert refused_move_words(IllegalMove("x"), state, engine.Roll(0)) == (
            "That move is not allowed now."
        )


def test_the_engine_names_the_rule_of_each_refusal_a_player_can_meet(duel):
    from games.snapshots import Snapshot

    state = Snapshot.load(duel.code).state
    broken = {}
    for action in (
        engine.Keep(0, (True,) * 5),
        engine.Score(0, Category.CHANCE),
        engine.Roll(1),
    ):
        with pytest.raises(IllegalMove) as refused:
            engine.apply(state, action, ScriptedDice("12345"))
        broken[type(action).__name__] = refused.value.breach

    assert broken == {
        "Keep": Breach.KEEP_BEFORE_ROLL,
        "Score": Breach.SCORE_BEFORE_ROLL,
        "Roll": Breach.NOT_YOUR_TURN,
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_roll_on_the_page_carries_no_english(
    alice_client, duel, ann, loaded_dice, language
):
    loaded_dice.load("12345", "12345", "12345")
    for _ in range(3):
        roll(duel, ann)()

    response = alice_client.post(
        f"/g/{duel.code}/roll/",
        {"version": version_of(duel)},
        headers={"HX-Request": "true", "Accept-Language": language},
    )

    assert response.status_code == 400
    error = re.search(r'<p class="error">(.*?)</p>', response.content.decode(), re.S)
    assert error and "No rolls left" not in error.group(1)
    assert english_left(response, language) == []


@pytest.mark.parametrize(("language", "name"), [("te", "కోచ్ బాట్"), ("uz", "Murabbiy bot")])
def test_playing_out_of_turn_names_the_player_on_turn_in_the_readers_language(
    make_game, ann, language, name, settings
):
    settings.BOT_DELAY_SECONDS = 3600  # the computer player waits: it is its turn
    from games.models import BotLevel

    game = make_game(ann, seats=2)
    services.game_add_bot(
        code=game.code, player=ann, version=version_of(game), level=BotLevel.COACH
    )
    services.game_start(
        code=game.code, player=ann, version=version_of(game), rng=ScriptedDice("11111", "66666")
    )

    said = refusal_in(language, roll(game, ann))

    assert name in said and "Coach bot" not in said


def test_a_guest_refused_for_a_game_too_large_reads_it_in_their_language(db):
    with translation.override("uz"), pytest.raises(GameError) as refused:
        services.game_create(player=guest_player("Zarina"), seat_count=99)

    assert "seats" not in str(refused.value)
    assert "9" not in str(refused.value) and "8" in str(refused.value)
