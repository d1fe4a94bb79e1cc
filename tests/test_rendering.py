"""The room's boards are assembled from memoised fragments (rows, cells, sums, dice, the
roll-off) shared between viewers and versions. Whatever was rendered before, a board must
be exactly what a render from scratch gives."""

from __future__ import annotations

import random
import re
from collections import Counter
from types import ModuleType

import pytest

from games import caches, rules, selectors, services
from games.live import rendering
from games.models import Game, Player
from games.rules import Category
from games.snapshots import Snapshot
from tests.conftest import (
    HTMX,
    ScriptedDice,
    guest_player,
    player_of,
    rolloff_won_by,
    seen_from,
    version_of,
)

pytestmark = pytest.mark.django_db


def counted_renders(monkeypatch: pytest.MonkeyPatch, module: ModuleType = rendering) -> list[str]:
    """The templates ``module`` (games/live/rendering.py unless told) renders from now on, by
    name, in order."""
    rendered: list[str] = []
    render = module.render_to_string

    def counting(name, context=None):
        rendered.append(name)
        return render(name, context)

    monkeypatch.setattr(module, "render_to_string", counting)
    return rendered


def forget_every_fragment() -> None:
    caches.clear_all()


def play_a_whole_game(game, players, rng) -> None:
    """Each turn: roll, keep the most common face twice, then score the box worth most."""
    while True:
        game.refresh_from_db()
        if game.status == game.Status.FINISHED:
            return
        state = game.engine_state(list(game.seats.order_by("position")))
        player = players[state.current_seat]
        for roll in range(3):
            services.turn_roll(code=game.code, player=player, version=version_of(game), rng=rng)
            game.refresh_from_db()
            if roll == 2:
                break
            face = Counter(game.dice).most_common(1)[0][0]
            held = tuple(int(die) == int(face) for die in game.dice)
            services.turn_keep(code=game.code, player=player, version=game.version, held=held)
            game.refresh_from_db()
        state = game.engine_state(list(game.seats.order_by("position")))
        options = rules.options(state.cards[state.current_seat], state.dice)
        best = max(options, key=lambda category: options[category])
        services.turn_score(code=game.code, player=player, version=game.version, category=best)


def test_every_board_of_a_game_matches_a_fresh_render(
    make_game, ann, ben, cat, monkeypatch, django_capture_on_commit_callbacks
):
    snapshots: list[Snapshot] = []
    monkeypatch.setattr(services.writes, "listeners", [snapshots.append])
    with django_capture_on_commit_callbacks(execute=True):
        game = make_game(ann, ben, cat, start=True)
        play_a_whole_game(game, [ann, ben, cat], random.Random(7))
    viewers = [ann, ben, cat, Player("")]
    assert len(snapshots) > 3 * 13 * 3

    shared = [rendering.live_board(s, v) for s in snapshots for v in viewers]
    fresh = []
    for s in snapshots:
        for viewer in viewers:
            forget_every_fragment()
            fresh.append(rendering.live_board(s, viewer))

    assert shared == fresh
    # The game did go through what the fragments show: kept dice, previews, sums, the end.
    boards = "".join(fresh)
    assert 'aria-pressed="true"' in boards
    assert 'class="preview for-others"' in boards
    assert "more for the bonus" in boards
    assert "Final ranking" in boards


def test_fragments_read_in_one_language_stay_findable_when_others_push_them_out(make_game, ann):
    """A busy server renders a timed table in Telugu, then so many fragments in English that
    the Telugu ones are pushed out of the memo: nothing breaks, and both read right."""
    from django.utils import translation

    from games import selectors
    from games.templatetags import room

    game = make_game(ann, seats=1, start=True, pace="live")
    snapshot = Snapshot.load(game.code)
    with translation.override("te"):
        telugu = rendering.live_board(snapshot, ann)
    for n in range(1100):  # more than the fragments' memo holds
        room.fragment("turn_banner", your_turn=False, player=f"P{n}", round=1, rounds=13)
    caches.clear_all()
    english = rendering.live_board(snapshot, ann)
    with translation.override("te"):
        assert rendering.live_board(snapshot, ann) == telugu
    assert str(selectors.snapshot_view(snapshot, ann).pace_label) in english


def test_in_play_the_whole_table_shares_one_board_rendered_once_a_version(
    duel, ann, ben, monkeypatch, django_capture_on_commit_callbacks
):
    rendered = counted_renders(monkeypatch)
    with django_capture_on_commit_callbacks(execute=True):
        services.turn_roll(
            code=duel.code, player=ann, version=version_of(duel), rng=ScriptedDice("22333")
        )
    snapshot = Snapshot.load(duel.code)
    viewers = (ann, ben, Player(""), guest_player("Gus"))

    boards = {rendering.live_board(snapshot, viewer) for viewer in viewers}

    assert len(boards) == 1
    assert rendered.count("games/room.html#live") == 1
    # What each page shows of it: the player on turn their controls, everyone else the turn.
    board = boards.pop()
    alice, bob, spectator = seen_from(board, 0), seen_from(board, 1), seen_from(board, None)
    assert 'name="category"' in alice and "data-roll" in alice and "Your turn!" in alice
    assert 'aria-label="Die 1: 2, keep"' in alice
    for other in (bob, spectator):
        assert 'name="category"' not in other and "data-roll" not in other
        assert 'aria-label="Die 1: 2"' in other and "Your turn!" not in other
        assert "alice’s turn" in other and 'title="Would score 25 here"' in other
    # The screen reader's sentence is each viewer's own.
    assert "Your roll: 2, 2, 3, 3, 3." in rendering.live_message(snapshot, ann)
    his = rendering.live_message(snapshot, ben)
    assert "alice&#x27;s roll: 2, 2, 3, 3, 3." in his and "Your roll" not in his


def test_with_the_coachs_hints_the_player_on_turn_has_a_board_of_their_own(
    alice, bob, coach_advisor
):
    ann, ben = player_of(alice), player_of(bob)
    game = services.game_create(player=ann, seat_count=2, coach_hints=True, rated=False)
    services.game_join(code=game.code, player=ben, version=version_of(game))
    services.game_start(
        code=game.code, player=ann, version=version_of(game), rng=rolloff_won_by(0, 2)
    )
    services.turn_roll(
        code=game.code, player=ann, version=version_of(game), rng=ScriptedDice("66612")
    )
    snapshot = Snapshot.load(game.code)

    hers, his = rendering.live_board(snapshot, ann), rendering.live_board(snapshot, ben)

    assert hers != his
    assert "Dashed dice: the ones the coach would hold." in hers and 'name="category"' in hers
    assert "Coach" not in his and "box-hint" not in his  # the advice is hers alone
    assert 'name="category"' not in his and "data-roll" not in his and "Your turn!" not in his
    assert rendering.live_board(snapshot, Player("")) == his


def test_each_die_button_sends_the_dice_kept_once_it_is_pressed(duel, ann):
    """A die's button looks the same whatever else is kept, but what it sends does not."""
    services.turn_roll(
        code=duel.code, player=ann, version=version_of(duel), rng=ScriptedDice("22333")
    )
    sent = {}
    for held in ((True, True, False, False, False), (False, False, True, True, False)):
        services.turn_keep(code=duel.code, player=ann, version=version_of(duel), held=held)
        board = seen_from(rendering.live_board(Snapshot.load(duel.code), ann), 0)
        sent[held] = re.findall(r'name="held" value="([01]{5})"', board)

    assert sent == {
        (True, True, False, False, False): ["01000", "10000", "11100", "11010", "11001"],
        (False, False, True, True, False): ["10110", "01110", "00010", "00100", "00111"],
    }


def test_a_kept_die_shows_the_lock_and_the_log_line_of_each_roll_names_its_dice(duel, ann):
    """Pieces a board shares with other boards (icons, log lines) still show this board's
    state: the dice kept now, and each roll of the turn as it fell."""
    services.turn_roll(
        code=duel.code, player=ann, version=version_of(duel), rng=ScriptedDice("22333")
    )
    held = (False, True, False, False, True)
    services.turn_keep(code=duel.code, player=ann, version=version_of(duel), held=held)
    services.turn_roll(
        code=duel.code, player=ann, version=version_of(duel), rng=ScriptedDice("456")
    )
    board = seen_from(rendering.live_board(Snapshot.load(duel.code), ann), 0)

    labels = re.findall(r'<span class="keep-label" aria-hidden="true">(.*?)</span>', board)
    assert ['<rect x="5" y="11"' in label for label in labels] == list(held)
    rolls = re.findall(r"<li>(.*?)</li>", board)
    assert rolls == ["alice rolled 2 2 3 3 3.", "alice held 2 3 and rolled 4 2 5 6 3."]


@pytest.mark.parametrize(("status", "sentences"), [("playing", 2), ("abandoned", 1)])
def test_the_announcements_rendered_with_a_change_serve_every_viewer(
    duel, ann, ben, monkeypatch, status, sentences
):
    """In play the player on turn hears their own sentence and everyone else another; what
    is said of a game out of play (here one given up on Alice's turn) is everyone's."""
    Game.objects.filter(pk=duel.pk).update(status=status)
    snapshot = Snapshot.load(duel.code)
    rendered = counted_renders(monkeypatch)

    shipped = rendering.preannounce(snapshot)
    heard = {rendering.announce(snapshot, viewer) for viewer in (ann, ben, Player(""))}

    assert len(shipped) == len(heard) == sentences
    assert heard == set(shipped.values())
    assert rendered == ["games/room.html#announce"] * sentences


def test_what_no_move_changed_is_rendered_once_for_every_table(
    make_game, ann, take_turn, monkeypatch
):
    """The player on turn's hint names nobody, and the Yahtzee bonus row changes only with a
    bonus: each is rendered once, not once per table and move."""
    from games.templatetags import room

    guests = [guest_player(f"Guest {n}") for n in range(3)]
    tables = [make_game(ann, guest, start=True, starter=0) for guest in guests]
    rendered = counted_renders(monkeypatch, room)
    for table in tables:
        rendering.live_board(Snapshot.load(table.code), ann)
        table = take_turn(table, ann, "12346", Category.CHANCE)
        rendering.live_board(Snapshot.load(table.code), ann)

    assert rendered.count("games/room.html#turn_hint") == 1  # not rolled yet, at every table
    assert rendered.count("games/room.html#yahtzee_bonus_row") == 1  # no bonus anywhere
    # What does change is rendered anew: each table's totals after Alice's 16 in Chance.
    assert rendered.count("games/room.html#total_row") == 2
    board = rendering.live_board(Snapshot.load(tables[-1].code), ann)
    assert "Guest 2’s turn" in board and "<td>16</td>" in board


def test_a_version_read_in_two_languages_shows_each_its_own_words(make_game, ann):
    """The memos are keyed by the language noted once per render (games/render_language.py):
    one version rendered in Telugu, then in English, then in Uzbek, each reads only its own,
    exactly as a render from scratch in that language does."""
    from django.utils import translation

    game = make_game(ann, seats=1, start=True, pace="live")
    services.turn_roll(
        code=game.code, player=ann, version=version_of(game), rng=ScriptedDice("12345")
    )
    snapshot = Snapshot.load(game.code)
    shared = {}
    for language in ("te", "en", "uz"):
        with translation.override(language):
            shared[language] = rendering.live_board(snapshot, ann)
    for language in ("te", "en", "uz"):
        forget_every_fragment()
        with translation.override(language):
            assert rendering.live_board(snapshot, ann) == shared[language]
    assert len(set(shared.values())) == 3


def test_the_language_of_a_render_is_its_own_thread_s_and_ends_with_it():
    """A push rendered on the server's loop and a move's board rendered on the worker thread
    at the same moment each see their own language, and Django's again afterwards."""
    import threading

    from django.utils import translation

    from games import render_language

    seen: list[str | None] = []
    with translation.override("te"), render_language.fixed():
        assert render_language.current() == "te"

        def elsewhere() -> None:
            with translation.override("uz"):
                seen.append(render_language.current())

        thread = threading.Thread(target=elsewhere)
        thread.start()
        thread.join()
        assert render_language.current() == "te"
    assert seen == ["uz"]
    with translation.override("uz"):
        assert render_language.current() == "uz"


@pytest.mark.django_db(transaction=True)
def test_an_htmx_move_is_answered_from_the_version_it_announced_rendered_once(
    duel, alice_client, monkeypatch, dice
):
    """The service hands the view the snapshot it announced: the answer reads nothing back,
    and the board the room's sockets get is the one the mover's answer carries, rendered
    once in this process."""
    rendered = counted_renders(monkeypatch)

    def read_back(*args, **kwargs):
        raise AssertionError("the answer read the game back")

    monkeypatch.setattr(selectors, "load_snapshot", read_back)
    before = version_of(duel)
    response = alice_client.post(f"/g/{duel.code}/roll/", {"version": before}, headers=HTMX)

    assert response.status_code == 200
    html = response.content.decode()
    assert f'data-version="{before + 1}"' in html
    assert rendered.count("games/room.html#live") == 1
    duel.refresh_from_db()
    snapshot = Snapshot.load(duel.code)
    assert snapshot is not None
    pushed = rendering.live_board(
        snapshot, Player("alice", user_id=duel.seats.get(position=0).user_id)
    )
    assert pushed in html  # the board the room gets, whole, inside the answer
