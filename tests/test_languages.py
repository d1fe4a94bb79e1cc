"""Which language a person reads: their choice (account, else cookie), else the browser's
Accept-Language, else English; and the pages read in Telugu and Uzbek carry no English."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from games import caches, languages
from games.live import rendering
from games.models.accounts import Profile
from games.rules import Category
from games.selectors import box_name
from tests.conftest import PASSWORD, full_card, player_of

LOCALE = Path(settings.BASE_DIR) / "locale"


@pytest.fixture(autouse=True)
def english_again_afterwards():
    """A request leaves its language active in the thread (LocaleMiddleware never
    deactivates it): the next test must not start in Telugu or Uzbek."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


COOKIE = settings.LANGUAGE_COOKIE_NAME


def lang_of(response) -> str:
    match = re.search(r'<html lang="([^"]+)" dir="(ltr|rtl)">', response.content.decode())
    assert match, "the page has no <html lang dir>"
    return match.group(1)


# -- the choice ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("te", "te"),
        ("uz", "uz"),
        ("uz-Latn-UZ,uz;q=0.9", "uz"),
        ("te-IN,te;q=0.9,en;q=0.8", "te"),
        ("fr-FR,fr;q=0.9", "en"),
        ("", "en"),
    ],
)
def test_without_a_choice_the_browser_header_decides_else_english(db, header, expected):
    response = Client().get("/rules/", HTTP_ACCEPT_LANGUAGE=header)

    assert response.status_code == 200
    assert lang_of(response) == expected
    assert response.headers["Content-Language"] == expected


@pytest.mark.parametrize("language", ["en", "te", "uz"])
def test_every_page_says_its_language_and_direction(db, language):
    response = Client().get("/", HTTP_ACCEPT_LANGUAGE=language)

    assert f'<html lang="{language}" dir="ltr">' in response.content.decode()


def test_a_guest_chooses_a_language_in_the_menu_and_comes_back_to_the_page(db):
    browser = Client()
    response = browser.post("/i18n/setlang/", {"language": "uz", "next": "/rules/"})

    assert response.status_code == 302
    assert response.headers["Location"] == "/rules/"
    assert response.cookies[COOKIE].value == "uz"
    # The cookie now beats the browser's own header.
    assert lang_of(browser.get("/rules/", HTTP_ACCEPT_LANGUAGE="te")) == "uz"


@pytest.mark.parametrize("bad", ["xx", "", "en'--", "fr"])
def test_an_unknown_language_changes_nothing(db, bad):
    browser = Client()
    browser.cookies[COOKIE] = "te"

    response = browser.post("/i18n/setlang/", {"language": bad, "next": "/"})

    assert response.status_code == 302
    assert COOKIE not in response.cookies
    assert lang_of(browser.get("/")) == "te"


def test_the_language_menu_only_takes_a_posted_form(db):
    assert Client().get("/i18n/setlang/?language=te").status_code == 405


def test_an_account_keeps_its_language_in_any_browser(make_client, alice):
    first = make_client(alice)
    first.post("/i18n/setlang/", {"language": "te", "next": "/"})

    assert Profile.objects.get(user=alice).language == "te"
    elsewhere = make_client(alice)  # a new browser, asking for Uzbek
    elsewhere.cookies[COOKIE] = "uz"
    assert lang_of(elsewhere.get("/", HTTP_ACCEPT_LANGUAGE="uz")) == "te"


def test_an_account_that_never_chose_follows_the_browser(make_client, alice):
    assert lang_of(make_client(alice).get("/", HTTP_ACCEPT_LANGUAGE="uz")) == "uz"
    assert not Profile.objects.filter(user=alice).exists()


def test_a_guest_who_chose_a_language_keeps_it_when_signing_up(db):
    browser = Client()
    browser.post("/i18n/setlang/", {"language": "uz", "next": "/"})

    response = browser.post(
        "/accounts/signup/",
        {"username": "zarina", "password1": "tashlash-besh-zar", "password2": "tashlash-besh-zar"},
    )

    assert response.status_code == 302
    assert Profile.objects.get(user__username="zarina").language == "uz"


def test_logging_in_brings_the_account_language_back(alice):
    Profile.objects.create(user=alice, language="te")
    browser = Client()
    browser.cookies[COOKIE] = "uz"

    response = browser.post("/accounts/login/", {"username": "alice", "password": PASSWORD})

    assert response.status_code == 302
    assert lang_of(browser.get("/")) == "te"
    assert Profile.objects.get(user=alice).language == "te"  # the guest's choice did not win


def test_the_menu_and_the_rules_link_are_on_every_page(db):
    page = Client().get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="te").content.decode()

    menu = re.search(r'<form method="post" action="/i18n/setlang/".*?</form>', page, re.S)
    assert menu is not None
    assert 'name="csrfmiddlewaretoken"' in menu.group(0)
    assert 'value="en"' in menu.group(0) and 'value="uz"' in menu.group(0)
    assert 'aria-current="true">తెలుగు<' in menu.group(0)  # the language in use, by its name
    assert "oʻzbek" in menu.group(0).lower()
    assert 'href="/rules/"' in page
    assert "<script>" not in page  # nothing inline: the menu is a plain form


# -- sockets and shared renders -----------------------------------------------------------


def test_a_socket_reads_the_same_choice_as_its_pages():
    def scope(cookie=None, header=b"", session=None, user=None):
        return {
            "cookies": {COOKIE: cookie} if cookie else {},
            "headers": [(b"accept-language", header)],
            "session": session or {},
            "user": user,
        }

    class Account:
        is_authenticated = True

    assert languages.of_scope(scope(header=b"te-IN,en;q=0.5")) == "te"
    assert languages.of_scope(scope(cookie="uz", header=b"te")) == "uz"
    assert languages.of_scope(scope(header=b"de")) == "en"
    assert languages.of_scope(scope(cookie="xx", header=b"*")) == "en"
    chosen = {languages.SESSION_KEY: "te"}
    assert languages.of_scope(scope(cookie="uz", session=chosen, user=Account())) == "te"


def test_boards_are_shared_per_language_not_across_languages(duel, ann):
    from games.snapshots import Snapshot

    snapshot = Snapshot.load(duel.code)
    with translation.override("te"):
        telugu = rendering.viewpoint(snapshot, ann)
    with translation.override("uz"):
        uzbek = rendering.viewpoint(snapshot, ann)

    assert telugu != uzbek
    assert telugu.startswith("te:") and uzbek.startswith("uz:")


def test_a_memoized_render_remembers_each_language_apart():
    @caches.memoize("test: words by language", maxsize=4, key_extra=translation.get_language)
    def word(category: Category) -> str:
        return box_name(category)

    with translation.override("te"):
        assert word(Category.SMALL_STRAIGHT) == "చిన్న వరుస"
    with translation.override("uz"):
        assert word(Category.SMALL_STRAIGHT) == "Kichik ketma-ketlik"
    with translation.override("en"):
        assert word(Category.SMALL_STRAIGHT) == "Small Straight"


@pytest.mark.parametrize(
    ("language", "names"),
    [
        ("te", ["ఒకట్లు", "ఫుల్ హౌస్", "పెద్ద వరుస", "యాట్జీ", "ఛాన్స్"]),
        ("uz", ["Birlar", "Full House", "Katta ketma-ketlik", "Yahtzee", "Shans"]),
    ],
)
def test_box_names_are_the_ones_players_use(language, names):
    categories = [
        Category.ONES,
        Category.FULL_HOUSE,
        Category.LARGE_STRAIGHT,
        Category.YAHTZEE,
        Category.CHANCE,
    ]
    with translation.override(language):
        assert [box_name(c) for c in categories] == names
        assert len({box_name(c) for c in Category}) == 13


# -- no English left in Telugu and Uzbek pages --------------------------------------------


def english_ui_strings(language: str) -> list[str]:
    """The English sentences and words of the catalog that read differently in ``language``
    (names that stay English there, like "Yahtzee" or "Full House", are not checked)."""
    catalog = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po"))
    found = []
    for entry in catalog:
        forms = [entry.msgstr] if not entry.msgid_plural else list(entry.msgstr_plural.values())
        for english in filter(None, [entry.msgid, entry.msgid_plural]):
            plain = re.sub(r"<[^>]+>|%\(\w+\)[sd]|%[sd]", " ", english)
            for part in re.split(r"\s{2,}|[·.?]\s", plain):
                part = part.strip(" .?")
                if len(part) >= 4 and not any(part in form for form in forms):
                    found.append(part)
    return sorted(set(found), key=len, reverse=True)


def english_box_names() -> list[str]:
    with translation.override("en"):
        return [box_name(box) for box in Category]


def shown_on_purpose(text: str) -> str:
    """``text`` without the English a Telugu or Uzbek page shows by design: the language
    menu names each language in its own language, and a box's English name may follow its
    own in brackets, as players know both."""
    names = "|".join(re.escape(name) for name in english_box_names())
    return re.sub(rf"\bEnglish\b|\((?:{names})\)", " ", text)


def what_a_person_reads(response) -> str:
    page = response.content.decode()
    page = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", page, flags=re.S)
    attributes = re.findall(r'(?:aria-label|title|placeholder|alt)="([^"]*)"', page)
    text = shown_on_purpose(re.sub(r"<[^>]+>", " ", page))
    return html.unescape(" ".join([text, *attributes]))


def english_in(read: str, language: str) -> list[str]:
    """The catalog's English UI strings found in ``read``, each as a whole: not inside a
    longer word, whether it begins or ends with a letter or a bracket."""
    return [
        s for s in english_ui_strings(language) if re.search(rf"(?<!\w){re.escape(s)}(?!\w)", read)
    ]


def english_left(response, language: str) -> list[str]:
    return english_in(what_a_person_reads(response), language)


RULES_EN = Path(settings.BASE_DIR) / "templates" / "rules" / "en.html"


def english_rules_sentences() -> list[str]:
    source = re.sub(r"\{%.*?%\}", " ", RULES_EN.read_text())
    text = html.unescape(re.sub(r"<[^>]+>", "\n", source))
    return [line.strip() for line in text.splitlines() if len(line.strip()) > 20]


@pytest.mark.parametrize("language", ["te", "uz"])
def test_the_rules_page_is_written_in_the_readers_language(db, language):
    response = Client().get("/rules/", HTTP_ACCEPT_LANGUAGE=language)
    read = what_a_person_reads(response)

    assert english_left(response, language) == []
    assert [s for s in english_rules_sentences() if s in read] == []
    page = response.content.decode()
    assert 'id="joker"' in page and 'id="upper-first"' in page
    assert page.count('class="die-face"') >= 60  # every box pictured with the game's dice


def test_the_rules_page_covers_every_rule_in_english(db):
    page = Client().get("/rules/").content.decode()

    for words in [
        "roll-off",
        "three times",
        "63 or more",
        "35 points",
        "100 points",
        "filled the Yahtzee box with 0",
        "Joker",
        "upper section first",
        "30 seconds",
        "90 seconds",
        "5 minutes",
        "24 hours",
        "Untimed",
        "the coach plays your turn",
        "away",
    ]:
        assert words in page, words
    assert 'id="joker"' in page and 'id="upper-first"' in page
    for box in Category:
        assert box_name(box) in page


def test_the_rules_page_reads_the_dice_out(db):
    page = Client().get("/rules/").content.decode()

    assert 'role="img" aria-label="5, 5, 5, 5, 5"' in page


@pytest.mark.parametrize("language", ["te", "uz"])
def test_log_in_and_sign_up_speak_the_readers_language_errors_too(db, language):
    browser = Client(headers={"accept-language": language})

    login = browser.get("/accounts/login/")
    failed_login = browser.post("/accounts/login/", {"username": "nobody", "password": "x"})
    signup = browser.get("/accounts/signup/")
    failed_signup = browser.post(
        "/accounts/signup/", {"username": "bad name!", "password1": "123", "password2": "124"}
    )

    assert failed_signup.status_code == 400
    for response in (login, failed_login, signup, failed_signup):
        assert english_left(response, language) == []
    assert 'class="error"' in failed_signup.content.decode()


def errors_on(response) -> list[str]:
    page = response.content.decode()
    return [html.unescape(error) for error in re.findall(r'<p class="error">(.*?)</p>', page)]


def ours(language: str, english: str) -> str:
    """The project's own translation of ``english`` (not Django's)."""
    entry = polib.pofile(str(LOCALE / language / "LC_MESSAGES" / "django.po")).find(english)
    assert entry is not None and entry.msgstr, f"no translation of ours for {english!r}"
    return entry.msgstr


@pytest.mark.parametrize("language", ["te", "uz"])
def test_sign_up_refuses_a_bad_name_or_email_address_in_our_own_words(db, language):
    """Django's Telugu catalog words these its own way or not at all, and its Uzbek one
    writes oʻ and gʻ with an ASCII apostrophe."""
    browser = Client(headers={"accept-language": language})

    response = browser.post(
        "/accounts/signup/",
        {
            "username": "ann\x00",
            "email": "not an address",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert response.status_code == 400
    assert errors_on(response) == [
        ours(language, "Null characters are not allowed."),
        ours(language, "Enter an e-mail address such as ann@example.com."),
    ]
    assert not [error for error in errors_on(response) if "'" in error]


@pytest.mark.parametrize("language", ["te", "uz"])
def test_the_history_page_speaks_the_readers_language(client, alice, bob, finished_game, language):
    finished_game(
        (alice, full_card(ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18, yahtzee=50)),
        (bob, full_card(chance=20)),
    )

    response = client.get("/u/alice/", HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 200
    assert english_left(response, language) == []


@pytest.mark.parametrize(("language", "title"), [("te", "దొరకలేదు"), ("uz", "Topilmadi")])
def test_an_unknown_address_says_so_in_the_readers_language(db, language, title):
    response = Client().get("/no/such/page/", HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 404
    assert title in response.content.decode()
    assert "Resolver404" not in response.content.decode()


@pytest.mark.parametrize(
    ("language", "title"),
    [("en", "Bad request"), ("te", "అర్థం కాని అభ్యర్థన"), ("uz", "Notoʻgʻri soʻrov")],
)
def test_a_request_the_site_cannot_take_gets_a_page_in_the_readers_language(db, language, title):
    # A request for another site's name (a misdirected or forged Host) is one Django
    # refuses with 400; so are other malformed requests.
    response = Client().get("/", HTTP_HOST="elsewhere.example", HTTP_ACCEPT_LANGUAGE=language)

    page = response.content.decode()
    assert response.status_code == 400
    assert f"<h1>{title}</h1>" in page
    assert f'<html lang="{language}"' in page
    assert "Bad Request (400)" not in page


@pytest.mark.parametrize(("language", "title"), [("te", "ఏదో పొరపాటు"), ("uz", "Nimadir")])
def test_the_server_error_page_speaks_the_readers_language(language, title):
    with translation.override(language):
        page = render_to_string("500.html")

    assert title in page
    assert f'<html lang="{language}"' in page


def test_a_form_sent_without_its_token_gets_a_sentence_not_a_technical_page(db):
    browser = Client(enforce_csrf_checks=True, headers={"accept-language": "uz"})

    response = browser.post("/accounts/login/", {"username": "a", "password": "b"})

    assert response.status_code == 403
    assert "sahifani qayta yuklab" in response.content.decode().lower()
    assert "CSRF verification" not in response.content.decode()


def test_a_player_count_is_worded_for_the_number(db):
    from games.views.forms import GameCreateForm

    with translation.override("te"):
        labels = dict(GameCreateForm().fields["seats"].choices)
        assert str(labels[1]) == "ఒంటరిగా"
        assert str(labels[3]) == "3 ఆటగాళ్ళు"
    with translation.override("uz"):
        assert str(dict(GameCreateForm().fields["seats"].choices)[3]) == "3 oʻyinchi"


def test_bots_and_statuses_are_named_in_the_readers_language():
    from games.models import BotLevel, Game

    with translation.override("uz"):
        assert str(BotLevel.CASUAL.label) == "Havaskor"
        assert BotLevel.BEGINNER.description == "hozir eng koʻp ochkoni oladi"
        assert str(Game.Status.LOBBY.label) == "Oʻyinchilar kutilmoqda"
    with translation.override("te"):
        assert str(BotLevel.COACH.label) == "కోచ్"


# -- live pushes ----------------------------------------------------------------------------


async def open_room(code: str, user, language: str):
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator

    from games.live.routing import websocket_urlpatterns

    headers = [(b"origin", b"http://localhost"), (b"accept-language", language.encode())]
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/g/{code}/", headers)
    comm.scope.update(user=user, session={}, url_route={"kwargs": {"code": code}})
    connected, _ = await comm.connect()
    assert connected
    return comm


async def next_board(comm) -> str:
    for _ in range(10):
        html = await comm.receive_from(timeout=3)
        if 'id="board"' in html:
            return html
    raise AssertionError("no board was pushed")


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.usefixtures("presence_pushes_finished")
async def test_two_pages_in_two_languages_each_receive_their_own_language():
    from channels.db import database_sync_to_async
    from django.contrib.auth import get_user_model

    from games import services
    from games.models import BotLevel
    from games.services import Player

    @database_sync_to_async
    def open_table():
        host = get_user_model().objects.create_user("ravi", password="a long enough password")
        game = services.game_create(player=Player("ravi", user_id=host.pk), seat_count=3)
        return host, game

    host, game = await open_table()
    telugu = await open_room(game.code, host, "te")
    uzbek = await open_room(game.code, host, "uz")
    try:
        # The host's board offers computer players, named in each page's language.
        first_te, first_uz = await next_board(telugu), await next_board(uzbek)
        assert "క్యాజువల్" in first_te and "Havaskor" not in first_te
        assert "Havaskor" in first_uz and "క్యాజువల్" not in first_uz

        await database_sync_to_async(services.game_add_bot)(
            code=game.code,
            player=Player("ravi", user_id=host.pk),
            level=BotLevel.CASUAL,
            version=game.version,
        )
        pushed_te, pushed_uz = await next_board(telugu), await next_board(uzbek)
        assert "బిగినర్" in pushed_te and "Yangi boshlovchi" in pushed_uz
        assert "Yangi boshlovchi" not in pushed_te and "బిగినర్" not in pushed_uz
        # The seated computer player is named in each page's language too.
        assert "క్యాజువల్ బాట్" in pushed_te and "Havaskor bot" in pushed_uz
        assert "Casual bot" not in pushed_te and "Casual bot" not in pushed_uz
    finally:
        await telugu.disconnect()
        await uzbek.disconnect()


@pytest.mark.parametrize("language", ["te", "uz"])
def test_the_pages_script_catalog_is_served_in_the_readers_language(db, language):
    response = Client().get("/i18n/js/", HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/javascript")
    assert "django.gettext" in response.content.decode()


def test_an_unknown_language_goes_back_to_the_page_but_never_elsewhere(db):
    browser = Client()

    assert browser.post("/i18n/setlang/", {"language": "xx", "next": "/rules/"}).url == "/rules/"
    outside = browser.post("/i18n/setlang/", {"language": "xx", "next": "https://evil.test/"})
    assert outside.url == "/"


def test_a_computer_player_is_stored_under_the_same_name_in_any_language(
    make_client, alice, make_game
):
    from games.models import Seat

    browser = make_client(alice)
    browser.post("/i18n/setlang/", {"language": "uz", "next": "/"})
    game = make_game(player_of(alice), seats=3)
    page = browser.get(game.get_absolute_url())
    version = int(re.search(r'name="version" value="(\d+)"', page.content.decode()).group(1))

    browser.post(f"/g/{game.code}/bots/add/", {"level": "beginner", "version": version})

    assert Seat.objects.get(game=game, bot="beginner").name == "Beginner bot"


@pytest.mark.parametrize(
    ("language", "written"), [("te", "05-03-2026 19:07"), ("uz", "05.03.2026 19:07")]
)
def test_the_history_writes_dates_the_readers_way(
    client, alice, bob, finished_game, language, written
):
    from datetime import UTC, datetime

    finished_game(
        (alice, full_card(chance=20)),
        (bob, full_card(chance=10)),
        finished_at=datetime(2026, 3, 5, 19, 7, tzinfo=UTC),
    )

    page = client.get("/u/alice/", HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert written in page
    assert "p.m." not in page


# -- computer players, named in each reader's language --------------------------------------


def add_bots(game, host, *levels):
    from games import services

    for level in levels:
        game.refresh_from_db()
        services.game_add_bot(code=game.code, player=host, version=game.version, level=level)
    game.refresh_from_db()
    return game


@pytest.mark.parametrize(
    ("language", "first", "second"),
    [("te", "క్యాజువల్ బాట్", "క్యాజువల్ బాట్ 2"), ("uz", "Havaskor bot", "Havaskor bot 2")],
)
def test_computer_players_are_named_in_the_readers_language(
    alice_client, make_game, ann, language, first, second
):
    from games.models import BotLevel

    game = add_bots(make_game(ann, seats=3), ann, BotLevel.CASUAL, BotLevel.CASUAL)

    response = alice_client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)

    page = what_a_person_reads(response)
    assert first in page and second in page
    assert "Casual bot" not in page
    assert english_left(response, language) == []
    # Stored once, in English, whoever reads it.
    assert list(game.seats.values_list("name", "bot_number")) == [
        ("alice", 0),
        ("Casual bot", 1),
        ("Casual bot 2", 2),
    ]


@pytest.mark.parametrize(("language", "name"), [("te", "కోచ్ బాట్"), ("uz", "Murabbiy bot")])
def test_a_game_with_a_computer_player_names_it_in_the_readers_language(
    alice_client, make_game, ann, language, name
):
    from games import services
    from games.models import BotLevel

    game = add_bots(make_game(ann, seats=2), ann, BotLevel.COACH)
    services.game_start(code=game.code, player=ann, version=game.version)

    response = alice_client.get(game.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 200
    assert name in what_a_person_reads(response)
    assert "Coach bot" not in what_a_person_reads(response)
    assert english_left(response, language) == []


def test_a_guest_cannot_sit_down_under_a_computer_players_name_in_any_language(make_game, ann):
    from games import services
    from games.models import BotLevel
    from games.services import GameError
    from tests.conftest import guest_player

    game = add_bots(make_game(ann, seats=3), ann, BotLevel.CASUAL)

    with pytest.raises(GameError, match="already called"):
        services.game_join(
            code=game.code, player=guest_player("havaskor BOT"), version=game.version
        )


def test_a_computer_player_takes_a_number_when_a_person_carries_its_name_in_any_language(
    make_game, ann
):
    from games import services
    from games.models import BotLevel
    from tests.conftest import guest_player

    game = make_game(ann, seats=3)
    services.game_join(code=game.code, player=guest_player("క్యాజువల్ బాట్"), version=game.version)
    game = add_bots(game, ann, BotLevel.CASUAL)

    bot = game.seats.get(bot="casual")
    assert (bot.name, bot.bot_number) == ("Casual bot 2", 2)
    with translation.override("te"):
        assert bot.display_name == "క్యాజువల్ బాట్ 2"


def test_the_presence_names_computer_players_in_each_pages_language(make_game, ann):
    from games import selectors
    from games.live.consumers import render_presence
    from games.models import BotLevel

    game = add_bots(make_game(ann, seats=2), ann, BotLevel.BEGINNER)
    wire = selectors.presence_view(game.code).to_wire()  # one push for every page
    presence = selectors.PresenceView.from_wire(json.loads(json.dumps(wire)))

    with translation.override("te"):
        telugu = render_presence(presence)
    with translation.override("uz"):
        uzbek = render_presence(presence)

    assert "బిగినర్ బాట్" in telugu and "Beginner bot" not in telugu
    assert "Yangi boshlovchi bot" in uzbek and "Beginner bot" not in uzbek
    assert presence.seats[0] == ("alice", False)


def test_computer_players_seated_before_take_the_number_their_name_ends_with(make_game, ann):
    from importlib import import_module

    from django.apps import apps

    from games.models import BotLevel, Seat

    game = add_bots(make_game(ann, seats=3), ann, BotLevel.COACH, BotLevel.COACH)
    Seat.objects.filter(game=game).update(bot_number=0)  # as every row stood before
    migration = import_module("games.migrations.0013_computer_player_named_per_reader")

    migration.number_the_computer_players(apps, None)

    assert list(game.seats.values_list("name", "bot_number")) == [
        ("alice", 0),
        ("Coach bot", 1),
        ("Coach bot 2", 2),
    ]
