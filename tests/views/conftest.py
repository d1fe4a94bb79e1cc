"""Tables as the view tests meet them: played through the browser's own forms."""

from __future__ import annotations

import pytest

from tests.views.helpers import post


@pytest.fixture
def duel(make_game, alice_client, bob_client):
    """Alice and Bob at a started table; Alice won the roll-off and is to play."""
    return make_game(alice_client, bob_client, start=True, starter=0)


@pytest.fixture
def rolled(duel, alice_client, loaded_dice):
    """Alice has rolled 2 2 3 3 3 in the duel."""
    loaded_dice.load("22333")
    assert post(alice_client, duel, "roll").status_code == 302
    return duel
