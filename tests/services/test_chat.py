"""Table talk's writes: who may post what, the table's setting, mutes, reports, a
moderator's hide and silence, an account's "chat off", and what each reader reads."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.utils import translation

from games import selectors, services
from games.models import (
    Block,
    ChatLevel,
    ChatMessage,
    ChatMute,
    ChatReport,
    Game,
    Player,
    TableChat,
    chat_level_default,
    person_key,
)
from games.selectors import chat as chat_selectors
from games.services import GameError, NotAllowed
from games.services import chat as chat_services
from games.services.chat import ChatRefused, clean_text
from tests.conftest import guest_player, player_of, version_of
from tests.services.helpers import roll

pytestmark = pytest.mark.django_db


def post(game, player, **said):
    return chat_services.chat_post(code=game.code, player=player, **said)


def read(game, player) -> list[tuple[str, str | None, str | None]]:
    return [
        (m["name"], m["phrase"], m["text"])
        for m in chat_selectors.chat_json(game, player)["messages"]
    ]


def test_a_table_by_link_talks_freely_and_a_public_one_in_phrases(ann):
    by_link = services.game_create(player=ann, seat_count=2)
    public = services.game_create(player=ann, seat_count=2, is_public=True)
    assert TableChat.objects.get(game=by_link).level == ChatLevel.TEXT
    assert TableChat.objects.get(game=public).level == ChatLevel.PHRASES


@pytest.mark.parametrize(
    ("is_public", "kind", "level"),
    [
        (False, "", "text"),
        (True, "", "phrases"),
        (False, "play_now", "phrases"),
        (False, "tournament", "phrases"),
    ],
)
def test_the_default_chat_is_a_function_of_the_tables_kind(is_public, kind, level):
    assert chat_level_default(is_public=is_public, kind=kind) == level


def test_the_creator_may_choose_the_chat_and_a_made_up_one_is_refused(ann):
    game = services.game_create(player=ann, seat_count=2, chat="off")
    assert TableChat.objects.get(game=game).level == ChatLevel.OFF
    with pytest.raises(GameError):
        services.game_create(player=ann, seat_count=2, chat="loud")


def test_a_seated_player_says_a_phrase_and_everyone_reads_its_id(duel, ann, ben):
    message = post(duel, ann, phrase="good_luck")
    assert message.version == version_of(duel)
    assert read(duel, ben) == [("alice", "good_luck", None)]


def test_a_phrase_is_read_in_each_readers_language(duel, ann, ben):
    from games.viewmodels.chat import MessageView

    post(duel, ann, phrase="good_luck")
    [view] = chat_selectors.chat_messages(duel, ben)
    assert isinstance(view, MessageView)
    words = {}
    for language in ("en", "te", "uz"):
        with translation.override(language):
            words[language] = str(view.words)
    assert words["en"] == "Good luck!"
    assert len(set(words.values())) == 3


@pytest.mark.parametrize(
    ("said", "sentence"),
    [
        ({"phrase": "shout"}, "no such quick phrase"),
        ({"text": ""}, "Write something"),
        ({"text": " \x00\x07 "}, "Write something"),
        ({"text": "x" * 201}, "at most 200"),
        ({"phrase": "yes", "text": "yes"}, "not both"),
    ],
)
def test_bad_messages_are_refused_and_nothing_is_stored(duel, ann, said, sentence):
    with pytest.raises(ChatRefused, match=sentence):
        post(duel, ann, **said)
    assert not ChatMessage.objects.exists()


def test_free_text_loses_its_control_characters_but_keeps_joiners():
    assert clean_text("hi\x00 there\x1b\n\tfriend\u202e") == "hi there friend"
    assert clean_text("న\u200dమస్తే") == "న\u200dమస్తే"


def test_two_hundred_characters_are_allowed(duel, ann):
    assert post(duel, ann, text="y" * 200).text == "y" * 200


def test_text_is_refused_at_a_phrases_table_and_everything_at_an_off_table(ann, ben):
    game = services.game_create(player=ann, seat_count=2, chat="phrases")
    with pytest.raises(ChatRefused, match="quick phrases only"):
        post(game, ann, text="hello")
    post(game, ann, phrase="hello")
    off = services.game_create(player=ann, seat_count=2, chat="off")
    with pytest.raises(ChatRefused, match="off at this table"):
        post(off, ann, phrase="hello")


def test_a_stranger_a_spectator_and_a_player_who_left_may_not_post(duel, ann, ben, cat):
    with pytest.raises(NotAllowed):
        post(duel, cat, phrase="hello")
    with pytest.raises(NotAllowed):
        post(duel, guest_player("Gus"), phrase="hello")
    services.game_leave(code=duel.code, player=ben, version=version_of(duel))
    with pytest.raises(NotAllowed):
        post(duel, ben, phrase="bye")
    assert not ChatMessage.objects.exists()


def test_a_guest_at_the_table_may_post(ann):
    gus = guest_player("Gus", "gus-token")
    game = services.game_create(player=ann, seat_count=2)
    services.game_join(code=game.code, player=gus, version=version_of(game))
    assert post(game, gus, text="hi all").author == "g:gus-token"


def test_the_host_lowers_the_chat_but_never_raises_it(duel, ann, ben):
    with pytest.raises(NotAllowed):
        chat_services.chat_setting_lower(code=duel.code, player=ben, chat="off")
    assert chat_services.chat_setting_lower(code=duel.code, player=ann, chat="phrases")
    with pytest.raises(ChatRefused, match="never raised"):
        chat_services.chat_setting_lower(code=duel.code, player=ann, chat="text")
    with pytest.raises(ChatRefused):
        chat_services.chat_setting_lower(code=duel.code, player=ann, chat="shout")
    assert TableChat.objects.get(game=duel).level == ChatLevel.PHRASES


def test_a_muted_seat_is_not_read_by_the_one_who_muted_it(duel, ann, ben, cat):
    post(duel, ann, phrase="hello")
    chat_services.chat_mute(code=duel.code, player=ben, seat=0)
    assert read(duel, ben) == []
    assert read(duel, cat) == [("alice", "hello", None)]
    chat_services.chat_mute(code=duel.code, player=ben, seat=0, mute=False)
    assert read(duel, ben) == [("alice", "hello", None)]


@pytest.mark.parametrize("seat", ["7", "x", ""])
def test_muting_an_unknown_seat_is_refused(duel, ben, seat):
    with pytest.raises(ChatRefused, match="no such seat"):
        chat_services.chat_mute(code=duel.code, player=ben, seat=seat)


@pytest.mark.parametrize("blocker", ["alice", "bob"])
def test_a_block_either_way_hides_the_messages_both_ways(duel, alice, bob, ann, ben, blocker):
    post(duel, ann, phrase="hello")
    post(duel, ben, phrase="thanks")
    a, b = (alice, bob) if blocker == "alice" else (bob, alice)
    Block.objects.create(blocker=a, blocked=b)
    assert read(duel, ben) == [("bob", "thanks", None)]
    assert read(duel, ann) == [("alice", "hello", None)]


def test_a_report_goes_to_the_queue_once_and_a_hidden_message_disappears(duel, ann, ben, cat):
    message = post(duel, ann, text="rude words")
    chat_services.chat_report(code=duel.code, player=ben, message=message.pk, reason="abuse")
    chat_services.chat_report(code=duel.code, player=ben, message=message.pk, reason="spam")
    assert ChatReport.objects.count() == 1
    with pytest.raises(ChatRefused):
        chat_services.chat_report(code=duel.code, player=ben, message=message.pk, reason="mean")
    with pytest.raises(ChatRefused):
        chat_services.chat_report(code=duel.code, player=ann, message=message.pk, reason="spam")
    assert chat_services.chat_message_hide(message_id=message.pk)
    assert not chat_services.chat_message_hide(message_id=message.pk)
    assert read(duel, cat) == []
    with pytest.raises(ChatRefused, match="no longer shown"):
        chat_services.chat_report(code=duel.code, player=cat, message=message.pk, reason="spam")
    assert ChatReport.objects.get().handled_at is not None


@pytest.mark.parametrize(("duration", "hours"), [("24h", 24), ("7d", 168)])
def test_a_silenced_author_is_refused_until_the_silence_ends(
    duel, ann, frozen_clock, duration, hours
):
    message = post(duel, ann, phrase="hello")
    chat_services.chat_author_silence(message_id=message.pk, duration=duration)
    frozen_clock.advance(hours=hours - 1)
    with pytest.raises(NotAllowed, match="silenced you until"):
        post(duel, ann, phrase="hello")
    frozen_clock.advance(hours=1)
    post(duel, ann, phrase="hello")


def test_the_silence_is_said_with_a_date_in_the_readers_language(duel, ann, frozen_clock):
    message = post(duel, ann, phrase="hello")
    chat_services.chat_author_silence(message_id=message.pk, duration="24h")
    with translation.override("uz"), pytest.raises(NotAllowed) as refused:
        post(duel, ann, phrase="hello")
    assert "2026" in str(refused.value)
    assert "silenced" not in str(refused.value)


def test_chat_off_for_an_account_hides_everything_and_refuses_its_messages(duel, alice, ann, ben):
    post(duel, ben, phrase="hello")
    chat_services.chat_preference_set(user_id=alice.pk, chat_off=True)
    assert read(duel, ann) == []
    with pytest.raises(ChatRefused, match="turned chat off"):
        post(duel, ann, phrase="hello")
    view = chat_selectors.chat_view(duel, ann)
    assert view.off_for_you and not view.can_post


def test_the_replay_shows_messages_up_to_the_move_they_were_said_at(duel, ann, ben):
    early = post(duel, ann, phrase="good_luck").version
    roll(duel, ann, "12345")
    duel.refresh_from_db()
    post(duel, ben, phrase="nice_roll")
    shown = chat_selectors.chat_messages(duel, ben, up_to_version=early)
    assert [m.phrase for m in shown] == ["good_luck"]
    assert len(chat_selectors.chat_messages(duel, ben, up_to_version=duel.version)) == 2


@pytest.mark.parametrize("level", ["off", "phrases"])
def test_a_rematch_keeps_the_tables_chat(finished_game, alice, bob, ann, level):
    game = finished_game((alice, {}), (bob, {}))
    TableChat.objects.create(game=game, level=level)
    rematch = services.game_rematch(code=game.code, player=ann)
    assert TableChat.objects.get(game=rematch).level == level


def test_a_guest_spectator_mutes_by_their_token(duel, ann):
    gus = guest_player("Gus", "gus-token")
    post(duel, ann, phrase="hello")
    chat_services.chat_mute(code=duel.code, player=gus, seat=0)
    assert read(duel, gus) == []
    assert read(duel, guest_player("Gus", "another-token")) == [("alice", "hello", None)]


def test_a_guest_who_signs_up_keeps_their_talk_mutes_reports_and_silence(ann, make_user):
    gus = guest_player("Gus", "gus-token")
    game = services.game_create(player=ann, seat_count=2)
    services.game_join(code=game.code, player=gus, version=version_of(game))
    theirs = post(game, ann, text="Roll faster")
    mine = post(game, gus, text="I am new here")
    chat_services.chat_mute(code=game.code, player=gus, seat=0)
    chat_services.chat_report(code=game.code, player=gus, message=theirs.pk, reason="spam")
    chat_services.chat_author_silence(message_id=mine.pk, duration="24h")
    account = make_user("gus")
    # The account had already reported that message from another device: still one report.
    ChatReport.objects.create(
        message=theirs, reporter=f"u:{account.pk}", reason="other", created_at=theirs.created_at
    )

    services.guest_seats_claim(guest="gus-token", user_id=account.pk)

    now_gus = player_of(account)
    assert read(game, now_gus) == [("Gus", None, "I am new here")]  # ann's seat stays muted
    kept = selectors.account_kept(account.pk)["chat"]
    assert [m["text"] for m in kept["messages"]] == ["I am new here"]
    assert ChatReport.objects.filter(message=theirs).count() == 1
    with pytest.raises(NotAllowed, match="silenced you until"):
        post(game, now_gus, phrase="hello")  # signing up is no way around a silence
    chat_services.chat_mute(code=game.code, player=now_gus, seat=0, mute=False)
    assert read(game, now_gus)[0] == ("alice", None, "Roll faster")


def lobby_of_four(make_user, ann, ben, cat) -> tuple[Game, Player]:
    """Alice hosts a lobby for four with Bob in seat 1 and Carol in seat 2; Carol talks."""
    dan = player_of(make_user("dan"))
    game = services.game_create(player=ann, seat_count=4, chat="text")
    for person in (ben, cat):
        services.game_join(code=game.code, player=person, version=version_of(game))
    post(game, cat, text="you all play like bots")
    return game, dan


def close_up_and_sit_down(game, ben, dan) -> None:
    """Bob leaves (Carol moves to seat 1), then Dan takes seat 2."""
    services.game_leave(code=game.code, player=ben, version=version_of(game))
    services.game_join(code=game.code, player=dan, version=version_of(game))


def test_a_mute_in_the_lobby_keeps_silencing_the_same_person_after_seats_close_up(
    make_user, ann, ben, cat
):
    game, dan = lobby_of_four(make_user, ann, ben, cat)
    chat_services.chat_mute(code=game.code, player=ann, seat=2)  # "Mute carol"
    close_up_and_sit_down(game, ben, dan)
    post(game, cat, text="still here, still rude")
    assert read(game, ann) == []
    assert [s.name for s in chat_selectors.chat_view(game, ann).muted] == ["carol"]


def test_the_one_who_takes_a_muted_persons_old_seat_number_is_not_muted(make_user, ann, ben, cat):
    game, dan = lobby_of_four(make_user, ann, ben, cat)
    chat_services.chat_mute(code=game.code, player=ann, seat=2)
    close_up_and_sit_down(game, ben, dan)
    post(game, dan, text="hello everyone")
    assert read(game, ann) == [("dan", None, "hello everyone")]
    assert "dan" not in [s.name for s in chat_selectors.chat_view(game, ann).muted]


def test_unmuting_the_seat_a_muted_person_moved_to_lets_them_through_again(
    make_user, ann, ben, cat
):
    game, dan = lobby_of_four(make_user, ann, ben, cat)
    chat_services.chat_mute(code=game.code, player=ann, seat=2)
    close_up_and_sit_down(game, ben, dan)
    chat_services.chat_mute(code=game.code, player=ann, seat=2, mute=False)  # dan: no change
    assert read(game, ann) == []
    chat_services.chat_mute(code=game.code, player=ann, seat=1, mute=False)  # carol now
    assert read(game, ann) == [("carol", None, "you all play like bots")]


def test_a_messages_seat_follows_its_author_and_is_none_once_they_left(make_user, ann, ben, cat):
    game, dan = lobby_of_four(make_user, ann, ben, cat)
    post(game, ben, phrase="bye")
    close_up_and_sit_down(game, ben, dan)
    seats = {m["name"]: m["seat"] for m in chat_selectors.chat_json(game, ann)["messages"]}
    assert seats == {"carol": 1, "bob": None}  # seat 2 is dan's now, seat 1 no longer bob's


def test_the_download_keeps_a_mutes_seat_in_step_with_the_person_muted(
    make_user, alice, ann, ben, cat
):
    game, dan = lobby_of_four(make_user, ann, ben, cat)
    chat_services.chat_mute(code=game.code, player=ann, seat=2)
    close_up_and_sit_down(game, ben, dan)
    assert selectors.account_kept(alice.pk)["chat"]["mutes"] == [{"game": game.code, "seat": 1}]


def test_a_guest_muted_by_others_stays_muted_once_they_sign_up(ann, make_user):
    gus = guest_player("Gus", "gus-token")
    game = services.game_create(player=ann, seat_count=2)
    services.game_join(code=game.code, player=gus, version=version_of(game))
    chat_services.chat_mute(code=game.code, player=ann, seat=1)
    account = make_user("gus")

    services.guest_seats_claim(guest="gus-token", user_id=account.pk)

    post(game, player_of(account), text="it is me, signed up")
    assert read(game, ann) == []
    chat_services.chat_mute(code=game.code, player=ann, seat=1, mute=False)
    assert read(game, ann) == [("gus", None, "it is me, signed up")]


def test_existing_mutes_name_the_person_in_the_seat_and_messages_follow_their_authors(
    make_user, ann, ben, cat
):
    game, dan = lobby_of_four(make_user, ann, ben, cat)
    close_up_and_sit_down(game, ben, dan)  # carol in seat 1, dan in seat 2
    ChatMessage.objects.update(seat=2)  # carol's line, as it was stored before
    ChatMute.objects.create(game=game, viewer=person_key(ann), person="", seat=1)
    ChatMute.objects.create(game=game, viewer=person_key(ben), person="", seat=3)  # nobody
    migration = importlib.import_module("games.migrations.0031_chat_mute_names_a_person")

    migration.fill(apps, None)

    assert list(ChatMute.objects.values_list("person", "seat")) == [(person_key(cat), 1)]
    assert ChatMessage.objects.get().seat == 1
