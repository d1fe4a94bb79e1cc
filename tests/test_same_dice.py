"""The same-dice draw: every die follows from the shared seed, the turn, the roll and the
position only (docs/fair-dice.md, "The same dice for everyone"); two games, or two seats,
that share a seed see the same dice; and the three ways of checking such a game."""

from __future__ import annotations

import hashlib
import hmac
import re
import textwrap
import urllib.request
from datetime import timedelta
from io import BytesIO, StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from games import dice, selectors, services
from games.dice import SameDice, same_dice, same_rolloff_dice, verify_same
from games.models import Game, Move
from games.rules import Rules
from games.services import GameError
from tests.conftest import version_of

SEED = hashlib.sha256(b"the seed of a day").digest()
KEEP_TWO = (True, True, False, False, False)
KEEP_LAST = (False, False, False, True, True)


def reference(seed: bytes, message: str, limit: int = 252) -> list[int]:
    """The recipe written out again with hashlib and hmac only."""
    faces: list[int] = []
    extra = 0
    while len(faces) < 5:
        text = message if extra == 0 else f"{message}:{extra}"
        digest = hmac.new(seed, text.encode("ascii"), hashlib.sha256).digest()
        faces += [b % 6 + 1 for b in digest if b < limit]
        extra += 1
    return faces[:5]


@pytest.mark.parametrize(("turn", "roll"), [(1, 1), (1, 3), (7, 2), (13, 3)])
def test_the_dice_of_a_turn_and_roll_follow_the_published_recipe(turn: int, roll: int) -> None:
    assert list(same_dice(SEED, turn, roll)) == reference(SEED, f"{turn}:{roll}")
    assert list(same_rolloff_dice(SEED, 2, 3)) == reference(SEED, "rolloff:2:3")


def test_fewer_than_five_usable_bytes_go_on_with_the_numbered_messages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With only bytes below 6 usable, one digest rarely gives five: the ":1", ":2"... follow.
    monkeypatch.setattr(dice, "FAIR_BYTE_LIMIT", 6)
    assert list(same_dice(SEED, 4, 1)) == reference(SEED, "4:1", limit=6)


def test_kept_dice_stay_and_the_others_are_the_positions_dice_of_that_roll() -> None:
    draw = SameDice(SEED)
    first = draw.rolled(5, 1, None, (False,) * 5)
    assert first == draw.dice(5, 1)
    kept_two = draw.rolled(5, 2, first, KEEP_TWO)
    kept_last = draw.rolled(5, 2, first, KEEP_LAST)
    fresh = draw.dice(5, 2)
    assert kept_two == (*first[:2], *fresh[2:])
    assert kept_last == (*fresh[:3], *first[3:])
    # Whatever was kept, a position not kept shows the same die.
    assert kept_two[2] == kept_last[2] == fresh[2]


def test_the_engine_source_gives_the_positions_not_kept_in_order() -> None:
    draw = SameDice(SEED)
    source = draw.for_roll(2, 3, KEEP_TWO)
    assert [source.randint(1, 6) for _ in range(3)] == list(draw.dice(2, 3)[2:])
    # A turn's first roll keeps nothing, whatever the holds left from before say.
    first = draw.for_roll(2, 1, KEEP_TWO)
    assert tuple(first.randint(1, 6) for _ in range(5)) == draw.dice(2, 1)


def same_game(player: services.Player, seats: int = 1, **extra: object) -> Game:
    return services.game_create(
        player=player,
        seat_count=seats,
        rated=False,
        dice_draw="same",
        dice_seed=SEED,
        **extra,  # type: ignore[arg-type]
    )


def play(game: Game, player: services.Player, held: tuple[bool, ...]) -> list[tuple[int, ...]]:
    """Play the seat on turn through one turn: roll, keep ``held``, roll, keep, roll, then
    the first open box; the dice after each roll."""
    seen: list[tuple[int, ...]] = []
    game.refresh_from_db()
    for roll in range(3):
        if roll:
            services.turn_keep(code=game.code, player=player, version=version_of(game), held=held)
        services.turn_roll(code=game.code, player=player, version=version_of(game))
        game.refresh_from_db()
        seen.append(tuple(game.dice))
    state = game.engine_state(list(game.seats.all()))
    box = state.cards[state.current_seat].open_boxes[0]
    services.turn_score(code=game.code, player=player, version=version_of(game), category=box)
    return seen


def start(game: Game, player: services.Player) -> Game:
    services.game_start(code=game.code, player=player, version=version_of(game))
    game.refresh_from_db()
    return game


@pytest.mark.django_db
def test_two_games_sharing_a_seed_show_the_same_dice_to_players_keeping_the_same(
    ann: services.Player, ben: services.Player
) -> None:
    mine, theirs = start(same_game(ann), ann), start(same_game(ben), ben)
    assert mine.dice_commitment == theirs.dice_commitment == dice.commitment(SEED)
    for _ in range(3):
        assert play(mine, ann, KEEP_TWO) == play(theirs, ben, KEEP_TWO)


@pytest.mark.django_db
def test_keeping_other_dice_leaves_the_other_positions_dice_unchanged(
    ann: services.Player, ben: services.Player
) -> None:
    mine, theirs = start(same_game(ann), ann), start(same_game(ben), ben)
    a, b = play(mine, ann, KEEP_TWO), play(theirs, ben, KEEP_LAST)
    assert a[0] == b[0]  # the first roll keeps nothing
    for roll in (1, 2):
        assert a[roll][2] == b[roll][2]  # kept by neither: the roll's own die
        assert a[roll][:2] == a[0][:2] and b[roll][3:] == b[0][3:]  # kept dice stay
        assert a[roll][3:] == SameDice(SEED).dice(1, roll + 1)[3:]


@pytest.mark.django_db
def test_two_seats_at_one_table_see_the_same_dice_on_their_own_turn(
    ann: services.Player, ben: services.Player
) -> None:
    game = same_game(ann, seats=2)
    services.game_join(code=game.code, player=ben, version=version_of(game))
    game = start(game, ann)
    assert [[[seat, list(d)] for seat, d in r] for r in SameDice(SEED).rolloff(2)] == game.rolloff
    first, second = (ann, ben) if game.starter == 0 else (ben, ann)
    for _ in range(2):
        assert play(game, first, KEEP_TWO) == play(game, second, KEEP_TWO)


@pytest.mark.django_db
def test_a_same_dice_game_is_refused_without_a_sound_seed(ann: services.Player) -> None:
    with pytest.raises(GameError):
        services.game_create(player=ann, seat_count=1, dice_draw="same", dice_seed=b"short")
    with pytest.raises(GameError):
        services.game_create(player=ann, seat_count=1, dice_draw="loaded", dice_seed=SEED)
    assert not Game.objects.exists()


def finished(player: services.Player, **extra: object) -> Game:
    game = start(same_game(player, **extra), player)
    for _ in range(13):
        play(game, player, KEEP_TWO)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


@pytest.mark.django_db
def test_the_seed_stays_secret_after_the_game_until_the_shared_moment(
    ann: services.Player, client, frozen_clock
) -> None:
    game = finished(ann, seed_secret_until=frozen_clock.now() + timedelta(hours=3))
    assert "dice_seed" not in client.get(f"/g/{game.code}/state.json").json()
    with pytest.raises(CommandError, match="still roll"):
        call_command("verify_dice", game.code, stdout=StringIO())
    frozen_clock.advance(hours=3)
    state = client.get(f"/g/{game.code}/state.json").json()
    assert state["dice_seed"] == SEED.hex() and state["dice_draw"] == "same"


@pytest.mark.django_db
def test_a_same_dice_game_verifies_by_the_log_the_command_and_the_page(
    ann: services.Player, client
) -> None:
    game = finished(ann)
    checks = verify_same(SEED, selectors.moves_json(game)["moves"])  # type: ignore[arg-type]
    assert len(checks) == 1 + 39 and all(c.ok for c in checks)

    out = StringIO()
    call_command("verify_dice", game.code, stdout=out)
    assert "All 40 rolls match" in out.getvalue()

    page = client.get(f"/g/{game.code}/verify/").content.decode()
    assert 'data-draw="same"' in page
    messages = re.findall(r'<tr data-roll [^>]*data-message="([^"]+)"', page)
    assert messages[:4] == ["rolloff:1:0", "1:1", "1:2", "1:3"] and messages[-1] == "13:3"

    tamper(game)
    assert not all(c.ok for c in verify_same(SEED, selectors.moves_json(game)["moves"]))  # type: ignore[arg-type]
    with pytest.raises(CommandError, match="do not match"):
        call_command("verify_dice", game.code, stdout=StringIO())


def tamper(game: Game) -> None:
    """Change a die that was not kept on a turn's second roll."""
    move = Move.objects.filter(game=game, kind="roll", held="11000").order_by("version")[2]
    move.dice = move.dice[:4] + str(int(move.dice[4]) % 6 + 1)
    move.save()


def documented_check() -> str:
    doc = (settings.BASE_DIR / "docs" / "fair-dice.md").read_text()
    start_ = doc.index("```python\nimport hashlib") + len("```python\n")
    return textwrap.dedent(doc[start_ : doc.index("```", start_)])


@pytest.mark.django_db
def test_the_documented_same_dice_check_passes_a_true_game_and_finds_a_changed_die(
    ann: services.Player, client, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    game = finished(ann)
    site = "http://testserver"
    monkeypatch.setattr(
        urllib.request, "urlopen", lambda url: BytesIO(client.get(url[len(site) :]).content)
    )
    code = documented_check().replace('"<code>"', repr(game.code))
    code = code.replace("http://127.0.0.1:8000", site)
    exec(code, {})
    assert "every die matches" in capsys.readouterr().out
    tamper(game)
    with pytest.raises(AssertionError):
        exec(code, {})


@pytest.mark.django_db
def test_a_fair_game_still_draws_from_its_own_stream(ann: services.Player) -> None:
    game = services.game_create(player=ann, seat_count=1, rules=Rules())
    assert game.dice_draw == "fair" and not game.server_seed
