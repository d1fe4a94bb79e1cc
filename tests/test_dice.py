"""Provably fair dice: the stream against an independent computation (hashlib/hmac here),
every real game rolling from its own stream, the seeds public or secret exactly when the
contract says, and the checks (moves.json, the verify page, ``verify_dice``)."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import textwrap
import urllib.request
from io import BytesIO, StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import caches, selectors, services
from games.committed import committed
from games.dice import FairDice, commitment, is_client_seed, new_client_seed, verify
from games.models import BotLevel, Game, Move, Seat
from games.rules import Category
from games.services import GameError, NotAllowed, StaleAction
from games.services.dice_supply import dice_supply
from games.snapshots import Snapshot
from tests.conftest import HTMX, board_view, dice_of, player_of, snapshot, version_of

SEED = hashlib.sha256(b"a server seed chosen by the test").digest()


def reference_dice(server_seed: bytes, client_seeds: list[str], count: int) -> list[int]:
    """The published recipe, written out again with nothing but hashlib and hmac."""
    key = hmac.new(server_seed, "\n".join(client_seeds).encode("utf-8"), hashlib.sha256).digest()
    faces: list[int] = []
    n = 0
    while len(faces) < count:
        for b in hmac.new(key, str(n).encode("ascii"), hashlib.sha256).digest():
            if b < 252:
                faces.append(b % 6 + 1)
        n += 1
    return faces[:count]


@pytest.fixture
def fair_seed(monkeypatch: pytest.MonkeyPatch) -> bytes:
    """Games started in this test draw SEED as their server seed (the dice stay fair)."""
    monkeypatch.setattr(dice_supply, "new_server_seed", lambda: SEED)
    return SEED


def seeds_of(game: Game) -> list[str]:
    return [seat.client_seed for seat in game.seats.order_by("position")]


def rolloff_faces(game: Game) -> list[int]:
    return [face for round_ in game.rolloff for _, dice in round_ for face in dice]


def play_to_the_end(game: Game, *players: services.Player) -> Game:
    """Every turn through the services with the game's own dice: roll once, then fill the
    first open box."""
    for _ in range(13 * len(players)):
        game.refresh_from_db()
        seats = list(game.seats.order_by("position"))
        state = game.engine_state(seats)
        player = players[state.current_seat]
        services.turn_roll(code=game.code, player=player, version=game.version)
        services.turn_score(
            code=game.code,
            player=player,
            version=version_of(game),
            category=state.cards[state.current_seat].open_boxes[0],
        )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


# -- the stream -------------------------------------------------------------------------------


def test_the_stream_gives_the_dice_of_the_published_recipe():
    client_seeds = ["alice's seed", "bot 7f3a", "~ space and punctuation !"]
    stream = FairDice.for_game(SEED, client_seeds)

    assert [stream.randint(1, 6) for _ in range(300)] == reference_dice(SEED, client_seeds, 300)


def test_a_fixed_vector_pins_the_recipe():
    """Written down once from the recipe; outside tools rely on it never changing."""
    stream = FairDice.for_game(bytes(32), ["a", "b"])

    assert [stream.next_die() for _ in range(12)] == [5, 1, 3, 1, 6, 3, 6, 2, 3, 6, 5, 5]
    assert [stream.next_die() for _ in range(12)] == reference_dice(bytes(32), ["a", "b"], 24)[12:]
    assert commitment(bytes(32)) == (
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    )


def test_bytes_of_252_and_more_are_skipped():
    # Find client seeds whose first block holds a byte >= 252, and check it is not a die.
    for i in range(100):
        seeds = [f"seed {i}"]
        key = hmac.new(SEED, seeds[0].encode(), hashlib.sha256).digest()
        first_block = hmac.new(key, b"0", hashlib.sha256).digest()
        if any(b >= 252 for b in first_block):
            break
    fair = [b % 6 + 1 for b in first_block if b < 252]
    stream = FairDice.for_game(SEED, seeds)

    assert [stream.next_die() for _ in range(len(fair))] == fair
    assert stream.cursor == 32  # the whole block was read for fewer than 32 dice
    assert len(fair) < 32


def test_a_stream_resumes_from_its_cursor():
    whole = FairDice.for_game(SEED, ["x"])
    for _ in range(40):
        whole.next_die()
    resumed = FairDice.for_game(SEED, ["x"], cursor=whole.cursor)

    assert [resumed.next_die() for _ in range(40)] == reference_dice(SEED, ["x"], 80)[40:]


def test_the_stream_rolls_only_six_sided_dice():
    with pytest.raises(ValueError):
        FairDice.for_game(SEED, ["x"]).randint(1, 20)


def test_the_commitment_is_the_lowercase_hex_sha256_of_the_seed():
    assert commitment(SEED) == hashlib.sha256(SEED).hexdigest()
    assert commitment(SEED) == commitment(SEED).lower() and len(commitment(SEED)) == 64


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("a", True),
        ("x" * 64, True),
        (" ~!{}", True),
        ("", False),
        ("x" * 65, False),
        ("naïve", False),
        ("two\nlines", False),
        ("tab\there", False),
        (None, False),
    ],
)
def test_a_client_seed_is_1_to_64_printable_ascii_characters(text, ok):
    assert is_client_seed(text) is ok


def test_server_made_client_seeds_are_valid_and_differ():
    assert is_client_seed(new_client_seed())
    assert new_client_seed() != new_client_seed()


# -- every real game rolls from its own stream --------------------------------------------------


@pytest.mark.django_db
def test_a_started_game_rolls_the_roll_off_and_every_roll_from_its_stream(
    fair_seed, make_game, ann, ben
):
    game = make_game(ann, ben)
    services.game_start(code=game.code, player=ann, version=version_of(game))
    game.refresh_from_db()
    stream = reference_dice(SEED, seeds_of(game), 200)

    drawn = rolloff_faces(game)
    assert drawn == stream[: len(drawn)]
    stream = stream[len(drawn) :]
    first = Move.objects.get(game=game, kind="start").seat
    player = [ann, ben][first]

    services.turn_roll(code=game.code, player=player, version=version_of(game))
    game.refresh_from_db()
    assert dice_of(game) == "".join(map(str, stream[:5]))
    kept = dice_of(game)
    services.turn_keep(
        code=game.code,
        player=player,
        version=version_of(game),
        held=(True, False, True, False, False),
    )
    caches.clear_all()  # the next roll reads the stream's position back from the database
    services.turn_roll(code=game.code, player=player, version=version_of(game))
    game.refresh_from_db()
    new = stream[5:8]
    assert dice_of(game) == f"{kept[0]}{new[0]}{kept[2]}{new[1]}{new[2]}"
    assert game.dice_cursor > 0


def remember_as_sent_by_another_process(game: Game) -> None:
    """This process hears of ``game``'s current version as another process sends it: by a
    snapshot from the wire, which leaves the secret seed out."""
    game.refresh_from_db()
    committed.remember(Snapshot.from_wire(Snapshot.of(game).to_wire()))


@pytest.mark.django_db
def test_rolls_from_copies_sent_by_another_process_read_the_secret_seed_once_a_game(
    fair_seed, make_game, ann
):
    game = make_game(ann)
    services.game_start(code=game.code, player=ann, version=version_of(game))
    game.refresh_from_db()
    stream = reference_dice(SEED, seeds_of(game), len(rolloff_faces(game)) + 10)
    remember_as_sent_by_another_process(game)
    services.turn_roll(code=game.code, player=ann, version=game.version)  # reads the seed

    remember_as_sent_by_another_process(game)
    with CaptureQueriesContext(connection) as queries:
        services.turn_roll(code=game.code, player=ann, version=game.version)

    assert [q["sql"] for q in queries if q["sql"].startswith("SELECT")] == []
    game.refresh_from_db()
    assert dice_of(game) == "".join(map(str, stream[-5:]))  # still the game's own stream


@pytest.mark.django_db
def test_the_client_seeds_chosen_at_the_table_key_the_stream(fair_seed, ann, ben):
    game = services.game_create(player=ann, seat_count=2, client_seed="ann's lucky seed")
    services.game_join(code=game.code, player=ben, version=version_of(game), client_seed="ben 42")
    services.game_start(code=game.code, player=ann, version=version_of(game))
    game.refresh_from_db()

    assert seeds_of(game) == ["ann's lucky seed", "ben 42"]
    drawn = rolloff_faces(game)
    assert drawn == reference_dice(SEED, ["ann's lucky seed", "ben 42"], len(drawn))


@pytest.mark.django_db
def test_computer_players_and_seats_without_a_seed_get_one_from_the_server(ann):
    game = services.game_create(player=ann, seat_count=3)
    added = services.game_add_bot(
        code=game.code, player=ann, version=version_of(game), level=BotLevel.CASUAL
    )
    assert is_client_seed(Seat.objects.get(pk=added.seats[-1].pk).client_seed)
    assert is_client_seed(game.seats.get(position=0).client_seed)


@pytest.mark.django_db
def test_the_host_can_still_script_the_dice_with_an_injected_source(loaded_dice, make_game, ann):
    """The tests' way of saying what is rolled replaces the stream and leaves it alone."""
    game = make_game(ann, start=True)
    loaded_dice.load("66666")
    services.turn_roll(code=game.code, player=ann, version=version_of(game))
    game.refresh_from_db()
    assert dice_of(game) == "66666"
    assert game.dice_cursor == 0


# -- seeds: public, secret, frozen ----------------------------------------------------------------


@pytest.mark.django_db
def test_the_commitment_is_public_from_the_start_and_the_seed_only_at_the_end(
    fair_seed, make_game, ann, alice_client, client
):
    game = make_game(ann)
    lobby = client.get(f"/g/{game.code}/state.json").json()
    assert lobby["dice_commitment"] is None and "dice_seed" not in lobby
    services.game_start(code=game.code, player=ann, version=version_of(game))
    game.refresh_from_db()

    playing = client.get(f"/g/{game.code}/state.json")
    page = alice_client.get(f"/g/{game.code}/")
    assert playing.json()["dice_commitment"] == hashlib.sha256(SEED).hexdigest()
    assert "dice_seed" not in playing.json()
    assert [s["client_seed"] for s in playing.json()["seats"]] == seeds_of(game)
    assert hashlib.sha256(SEED).hexdigest() in page.content.decode()
    for secret in (SEED.hex(), SEED.hex().upper()):
        assert secret not in playing.content.decode()
        assert secret not in page.content.decode()
        assert secret not in client.get(f"/g/{game.code}/verify/").content.decode()
        assert secret not in client.get(f"/g/{game.code}/moves.json").content.decode()
        # The push: neither the channel layer's message nor the pushed HTML carries it.
        shot = Snapshot.of(game)
        assert secret not in shot.to_wire()
        assert secret not in selectors_live(shot, ann)

    game = play_to_the_end(game, ann)
    ended = client.get(f"/g/{game.code}/state.json").json()
    assert ended["dice_seed"] == SEED.hex()
    assert ended["dice_commitment"] == hashlib.sha256(bytes.fromhex(ended["dice_seed"])).hexdigest()


@pytest.mark.django_db
def test_boards_rendered_from_another_processes_copy_show_the_commitment_but_not_the_seed(
    fair_seed, make_game, ann, monkeypatch, django_capture_on_commit_callbacks
):
    game = make_game(ann)
    services.game_start(code=game.code, player=ann, version=version_of(game))
    remember_as_sent_by_another_process(game)
    received = committed.at(game.code, game.version)
    heard: list[Snapshot] = []
    monkeypatch.setattr(services.writes, "listeners", [heard.append])

    with django_capture_on_commit_callbacks(execute=True):  # a move made here from that copy
        services.turn_roll(code=game.code, player=ann, version=game.version)
    (announced,) = heard

    for shot in (received, announced, Snapshot.from_wire(announced.to_wire())):
        caches.clear_all()  # each renders its board afresh
        assert commitment(SEED) in selectors_live(shot, ann)
        assert SEED.hex() not in shot.to_wire()
        assert SEED.hex() not in selectors_live(shot, ann)


def selectors_live(shot: Snapshot, viewer: services.Player) -> str:
    from games.live import rendering

    return rendering.live_message(shot, viewer)


@pytest.mark.django_db
def test_a_seated_player_changes_their_seed_in_the_lobby(ann, alice_client):
    game = services.game_create(player=ann, seat_count=2)
    before = version_of(game)

    response = alice_client.post(
        f"/g/{game.code}/seed/",
        {"version": before, "client_seed": "my own seed!"},
        headers=HTMX,
    )

    assert response.status_code == 200
    assert 'value="my own seed!"' in response.content.decode()
    assert seeds_of(game) == ["my own seed!"]
    assert version_of(game) == before + 1


@pytest.mark.django_db
@pytest.mark.parametrize("seed", ["", "x" * 65, "naïve", "line\nbreak"])
def test_a_bad_seed_is_refused_and_changes_nothing(ann, alice_client, seed):
    game = services.game_create(player=ann, seat_count=2)
    before = snapshot(game)

    response = alice_client.post(
        f"/g/{game.code}/seed/", {"version": version_of(game), "client_seed": seed}, headers=HTMX
    )

    assert response.status_code == 400
    assert "dice seed" in response.content.decode()
    assert snapshot(game) == before


@pytest.mark.django_db
def test_a_bad_seed_when_sitting_down_is_refused_and_changes_nothing(ann, bob_client):
    game = services.game_create(player=ann, seat_count=2)
    before = snapshot(game)

    response = bob_client.post(
        f"/g/{game.code}/join/", {"version": version_of(game), "client_seed": "é" * 3}
    )

    assert response.status_code == 400
    assert snapshot(game) == before


@pytest.mark.django_db
def test_a_seed_proposed_when_sitting_down_is_kept(ann, bob_client):
    game = services.game_create(player=ann, seat_count=2)
    bob_client.post(f"/g/{game.code}/join/", {"version": version_of(game), "client_seed": "b0b"})
    assert seeds_of(game)[1] == "b0b"


@pytest.mark.django_db
def test_the_page_asks_the_browser_to_propose_a_seed_when_sitting_down(ann, bob_client, client):
    game = services.game_create(player=ann, seat_count=2)
    assert 'name="client_seed" value="" form="table-actions" data-propose-seed' in (
        bob_client.get(f"/g/{game.code}/").content.decode()
    )
    assert "data-propose-seed" in client.get("/").content.decode()


@pytest.mark.django_db
def test_the_creators_proposed_seed_is_kept(client):
    client.post("/games/new/", {"seats": 2, "name": "Gus", "client_seed": "from the page"})
    assert Seat.objects.get().client_seed == "from the page"


@pytest.mark.django_db
def test_seeds_cannot_change_after_the_start_nor_by_strangers_nor_on_a_stale_table(
    make_game, ann, ben, cat
):
    game = services.game_create(player=ann, seat_count=2)
    with pytest.raises(NotAllowed):
        services.seat_set_client_seed(
            code=game.code, player=cat, version=version_of(game), client_seed="mine"
        )
    with pytest.raises(StaleAction):
        services.seat_set_client_seed(
            code=game.code, player=ann, version=version_of(game) - 1, client_seed="mine"
        )
    started = make_game(ann, ben, start=True)
    frozen = seeds_of(started)
    with pytest.raises(GameError, match="can no longer change"):
        services.seat_set_client_seed(
            code=started.code, player=ben, version=version_of(started), client_seed="mine"
        )
    assert seeds_of(started) == frozen


@pytest.mark.django_db
def test_a_rematch_gets_new_seeds(make_game, ann, play_out):
    first = make_game(ann, start=True)
    first = play_to_the_end(first, ann)
    rematch = services.game_rematch(code=first.code, player=ann)
    services.game_start(code=rematch.code, player=ann, version=version_of(rematch))
    rematch.refresh_from_db()

    assert rematch.server_seed and rematch.server_seed != first.server_seed
    assert seeds_of(rematch) != seeds_of(first)


@pytest.mark.django_db
def test_a_rematch_lets_each_persons_page_propose_their_own_seed(
    finished_game, alice, alice_client
):
    first = finished_game((alice, {}), ("Coach bot", {}))
    first.seats.filter(position=1).update(bot=BotLevel.COACH, bot_number=1)

    rematch = services.game_rematch(code=first.code, player=player_of(alice))

    person, bot = rematch.seats.order_by("position")
    assert person.client_seed == ""  # not the server's: the page proposes one
    assert is_client_seed(bot.client_seed)
    page = alice_client.get(f"/g/{rematch.code}/").content.decode()
    seed_input = re.search(r'<input id="client-seed"[^>]*>', page).group(0)
    assert 'value=""' in seed_input and "data-propose-seed data-send-seed" in seed_input
    browser_seed = "0123456789abcdef0123456789abcdef"  # what static/js/seeds.js puts in the form
    alice_client.post(
        f"/g/{rematch.code}/seed/",
        {"client_seed": browser_seed, "version": version_of(rematch)},
        **HTMX,
    )
    assert seeds_of(rematch)[0] == browser_seed
    page = alice_client.get(f"/g/{rematch.code}/").content.decode()
    assert "data-send-seed" not in page  # proposed once, then it is theirs


# -- moves.json, the verify page, verify_dice ------------------------------------------------


@pytest.mark.django_db
def test_moves_json_lists_every_move_as_specified(fair_seed, make_game, ann, client):
    game = make_game(ann, start=True)
    services.turn_roll(code=game.code, player=ann, version=version_of(game))
    services.turn_keep(
        code=game.code, player=ann, version=version_of(game), held=(True,) * 2 + (False,) * 3
    )
    services.turn_roll(code=game.code, player=ann, version=version_of(game))
    services.turn_score(
        code=game.code, player=ann, version=version_of(game), category=Category.CHANCE
    )
    game.refresh_from_db()

    moves = json.loads(client.get(f"/g/{game.code}/moves.json").content)["moves"]

    assert [m["kind"] for m in moves] == ["start", "roll", "keep", "roll", "score"]
    assert [m["version"] for m in moves] == sorted(m["version"] for m in moves)
    assert all(m["seat"] == 0 for m in moves)
    assert moves[0]["rolloff"] == [[[0, list(game.rolloff[0][0][1])]]]
    first, keep, second = moves[1], moves[2], moves[3]
    assert first["held"] == [False] * 5 and len(first["dice"]) == 5
    assert keep["held"] == [True, True, False, False, False]
    assert second["held"] == [True, True, False, False, False]
    assert second["dice"][:2] == first["dice"][:2]
    assert moves[4]["category"] == "chance" and moves[4]["points"] == sum(second["dice"])


@pytest.mark.django_db
def test_a_finished_game_verifies_with_the_command_and_a_tampered_move_does_not(
    fair_seed, make_game, ann, ben
):
    game = make_game(ann, ben)
    services.game_start(code=game.code, player=ann, version=version_of(game))
    game = play_to_the_end(game, ann, ben)

    rolls = len(rolloff_faces(game)) // 5 + 26
    out = StringIO()
    call_command("verify_dice", game.code, stdout=out)
    assert f"All {rolls} rolls match the seeds." in out.getvalue()
    assert "does NOT match" not in out.getvalue()

    move = Move.objects.filter(game=game, kind="roll").order_by("version")[5]
    move.dice = "".join(str(int(d) % 6 + 1) for d in move.dice)
    move.save()
    out = StringIO()
    with pytest.raises(CommandError, match=rf"1 of {rolls} rolls do not match"):
        call_command("verify_dice", game.code, stdout=out)
    assert f"v{move.version} roll of seat {move.seat}" in out.getvalue()
    assert "does NOT match" in out.getvalue()


def play_keeping_two(game: Game, player: services.Player) -> Game:
    """A solo game started and played to its end with the game's own dice: every turn
    rolls, keeps the first two dice, rolls again and fills the first open box."""
    services.game_start(code=game.code, player=player, version=version_of(game))
    for _ in range(13):
        game.refresh_from_db()
        card = game.engine_state(list(game.seats.all())).cards[0]
        services.turn_roll(code=game.code, player=player, version=game.version)
        services.turn_keep(
            code=game.code, player=player, version=version_of(game), held=(True,) * 2 + (False,) * 3
        )
        services.turn_roll(code=game.code, player=player, version=version_of(game))
        services.turn_score(
            code=game.code, player=player, version=version_of(game), category=card.open_boxes[0]
        )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def tamper_a_kept_die(game: Game) -> Move:
    """Change a die the log says was kept (the first) on the second roll of a turn."""
    move = Move.objects.filter(game=game, kind="roll", held="11000").order_by("version")[3]
    move.dice = str(int(move.dice[0]) % 6 + 1) + move.dice[1:]
    move.save()
    return move


@pytest.mark.django_db
def test_a_kept_die_changed_in_the_log_is_found_by_verify_dice(fair_seed, make_game, ann):
    game = play_keeping_two(make_game(ann), ann)
    call_command("verify_dice", game.code, stdout=StringIO())  # the true log verifies

    move = tamper_a_kept_die(game)

    out = StringIO()
    with pytest.raises(CommandError, match="do not match"):
        call_command("verify_dice", game.code, stdout=out)
    assert f"v{move.version} roll of seat 0: {' '.join(move.dice)} does NOT match" in out.getvalue()
    checks = verify(SEED, seeds_of(game), selectors.moves_json(game)["moves"])
    assert [c.version for c in checks if not c.ok] == [move.version]


@pytest.mark.django_db
def test_the_verify_page_tells_the_browser_where_each_turn_starts(
    fair_seed, make_game, ann, client
):
    game = play_keeping_two(make_game(ann), ann)

    page = client.get(f"/g/{game.code}/verify/").content.decode()
    rows = re.findall(r"<tr data-roll [^>]*>", page)

    # The roll-off, then each turn's first roll (kept dice come from no roll before it) and
    # its second (the two kept dice come from the first).
    assert len(rows) == 1 + 26
    assert all("data-first-roll" in row for row in rows[1::2])
    assert not any("data-first-roll" in row for row in rows[2::2])


def documented_check() -> str:
    """The Python check of a game's dice printed in docs/fair-dice.md."""
    doc = (settings.BASE_DIR / "docs" / "fair-dice.md").read_text()
    start = doc.index("```python\n   import hashlib") + len("```python\n")
    return textwrap.dedent(doc[start : doc.index("```", start)])


@pytest.mark.django_db
def test_the_documented_check_passes_a_true_game_and_finds_a_changed_kept_die(
    fair_seed, make_game, ann, client, monkeypatch, capsys
):
    game = play_keeping_two(make_game(ann), ann)
    site = "http://testserver"
    monkeypatch.setattr(
        urllib.request, "urlopen", lambda url: BytesIO(client.get(url[len(site) :]).content)
    )
    code = (
        documented_check()
        .replace('"<code>"', repr(game.code))
        .replace("http://127.0.0.1:8000", site)
    )

    exec(code, {})
    assert "every die matches" in capsys.readouterr().out

    tamper_a_kept_die(game)
    with pytest.raises(AssertionError):
        exec(code, {})


@pytest.mark.django_db
def test_verify_dice_refuses_a_game_still_in_play_or_unknown(make_game, ann):
    game = make_game(ann, start=True)
    with pytest.raises(CommandError, match="not ended"):
        call_command("verify_dice", game.code, stdout=StringIO())
    with pytest.raises(CommandError, match="no game"):
        call_command("verify_dice", "nosuchgame", stdout=StringIO())


@pytest.mark.django_db(transaction=True)
def test_a_whole_game_with_a_computer_player_verifies(fair_seed, alice, coach_advisor):
    from tests.test_coach import play_game_as

    host = player_of(alice)
    game = services.game_create(player=host, seat_count=2, coach_hints=False)
    services.game_add_bot(
        code=game.code, player=host, version=version_of(game), level=BotLevel.COACH
    )
    game = play_game_as(host, game)

    checks = verify(SEED, seeds_of(game), selectors.moves_json(game)["moves"])
    bot_rolls = [c for c in checks if c.what == "roll" and c.seat == 1]
    assert len(bot_rolls) >= 13
    assert all(check.ok for check in checks)


@pytest.mark.django_db
def test_the_verify_page_shows_the_seed_and_every_roll_once_the_game_is_over(
    fair_seed, make_game, ann, client
):
    game = make_game(ann)
    services.game_start(code=game.code, player=ann, version=version_of(game))
    during = client.get(f"/g/{game.code}/verify/").content.decode()
    assert "Secret until the game has ended." in during
    game = play_to_the_end(game, ann)

    page = client.get(f"/g/{game.code}/verify/").content.decode()

    assert f'data-seed="{SEED.hex()}"' in page
    assert page.count("data-roll ") == 1 + 13  # the roll-off and one roll a turn
    assert "js/verify.js" in page
    assert "<script>" not in page  # no inline script: the check lives in a static file


@pytest.mark.django_db
def test_the_verify_page_of_an_unknown_game_is_not_found(client):
    assert client.get("/g/nosuchgame/verify/").status_code == 404
    assert client.get("/g/nosuchgame/moves.json").status_code == 404


@pytest.mark.django_db
def test_the_board_links_the_check_of_the_dice(make_game, ann, alice_client):
    game = make_game(ann, start=True)
    view = board_view(game, ann)
    assert view.urls["game_verify"] == f"/g/{game.code}/verify/"
    assert f"/g/{game.code}/verify/" in alice_client.get(f"/g/{game.code}/").content.decode()


@pytest.mark.django_db
def test_a_game_started_before_the_fair_dice_still_rolls(make_game, ann):
    """Its row has no seed (the migration left it empty): it rolls the system's dice."""
    game = make_game(ann, start=True)
    Game.objects.filter(pk=game.pk).update(server_seed="")
    caches.clear_all()

    services.turn_roll(code=game.code, player=ann, version=version_of(game))

    game.refresh_from_db()
    assert len(dice_of(game)) == 5 and game.dice_cursor == 0
    assert selectors.state_json(game)["dice_commitment"] is None
