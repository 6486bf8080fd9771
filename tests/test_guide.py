"""The first-game guide (issue 32.4): the first time a player uses the bot, one private
message explains the tiles and three commands, in their language; never again, whichever
process they reach. A /mydata delete forgets it (and the export lists it)."""

import asyncio
import json

from discord_double import only

from bot.console import Console
from bot.services import Player
from bot.storage import Storage

SEED = "7a1c5e9b3d2f4a6c8e0b1d3f5a7c9e2b-tests"
ANN, BOB = 111, 222
GUIDE = "A short guide, shown only this once"


async def test_the_first_command_gets_the_guide_once_across_two_processes(shared_url,
                                                                          make_double):  # fmt: skip
    first = await make_double(shared_url)
    first.new_players.add(ANN)
    *help_, guide = await first.command("help", user_id=ANN)  # /help, in two messages
    assert GUIDE not in help_[0].text and "/wordle daily" in help_[0].text  # the answer first
    assert guide.ephemeral and guide.path.startswith("/webhooks/")  # a private follow-up
    assert "🟩 the letter is in the word, in that spot" in guide.text
    for command in ("`/wordle daily`", "`/guess word:crane`", "`/help`"):
        assert command in guide.text
    # Never again: not in this process, not in the other.
    assert all(GUIDE not in m.text for m in await first.command("help", user_id=ANN))
    second = await make_double(shared_url)  # another process of the deployment, one database
    second.new_players.add(ANN)  # (the double made last records what either bot sends)
    assert GUIDE not in only(await second.command("streak", user_id=ANN)).text
    board = only(await second.command("wordle", "practice", user_id=ANN))
    assert board.files == ["board.png"]


async def test_two_processes_asking_at_once_guide_once(shared_url, opened):
    one, other = await opened(shared_url), await opened(shared_url)
    for player in (Player(ANN, "ann"), Player(BOB, "")):
        asked = [services.guide.first_use(player) for _ in range(3) for services in (one, other)]
        assert sorted(await asyncio.gather(*asked)) == [False] * 5 + [True]
        assert await one.storage.guided(player.id) and await other.storage.guided(player.id)


async def test_a_guide_not_said_gives_its_mark_back(shared_url, opened):
    """Discord refused the guide's message: the mark goes back, and the player's next use,
    whichever process it reaches, guides them; once more only."""
    one, other = await opened(shared_url), await opened(shared_url)
    ann = Player(ANN, "ann")
    assert await one.guide.first_use(ann)
    await one.guide.not_given(ANN)
    assert not await one.storage.guided(ANN)
    assert await other.guide.first_use(ann)
    assert not await one.guide.first_use(ann) and not await other.guide.first_use(ann)


async def test_a_deletion_waits_for_a_first_use_being_marked(shared_url, opened):
    """The first use is decided beside the command (its answer waits on nothing): a
    /mydata delete made meanwhile waits for the mark, so no mark, nor the name it keeps,
    outlives the deletion; and the next use is a first one again."""
    services = await opened(shared_url)
    ann = Player(ANN, "ann")
    claim = services.guide.begin(ann)
    assert claim is not None
    await services.delete_player(ANN)  # at once: the claim has not run yet
    assert await claim and not await services.storage.guided(ANN)
    assert not (await services.storage.export_player(ANN))["player"]  # no row, no name
    again = services.guide.begin(ann)
    assert again is not None and await again
    assert services.guide.begin(ann) is None  # known now: nothing is asked


async def test_the_guide_speaks_the_players_language(make_double):
    double = await make_double()
    double.new_players.update({ANN, BOB})
    double.locale = "es-ES"  # Ann's Discord shows Spanish
    _board, guide = await double.command("wordle", "practice", user_id=ANN)
    assert guide.ephemeral and "¡Bienvenido a wordlebot!" in guide.text
    assert "🟩 la letra está en la palabra, en esa posición" in guide.text
    assert "`/wordle daily` empieza el reto de hoy" in guide.text  # commands as typed
    double.locale = "en-US"  # Bob's shows English, but he chose Polish (/settings me)
    await double.bot.services.storage.set_player_locale(BOB, "bob", "pl")
    _stats, guide = await double.command("streak", user_id=BOB)
    assert "Witaj w wordlebot!" in guide.text and "`/help` pokazuje całą resztę" in guide.text


async def test_a_failed_command_still_guides_and_a_post_does_not(make_double):
    double = await make_double()
    double.new_players.update({ANN, BOB})
    refused, guide = await double.command("guess", user_id=ANN, word="crane")  # no game
    assert refused.ephemeral and GUIDE not in refused.text and GUIDE in guide.text
    await double.post("hello there", user_id=BOB)  # a message, not a command: nothing
    assert not await double.bot.services.storage.guided(BOB)


async def test_deleting_my_data_forgets_the_guide_and_the_export_lists_it(make_double):
    double = await make_double()
    double.new_players.add(ANN)
    await double.command("wordle", "practice", user_id=ANN)  # the board, then the guide
    export = only(await double.command("mydata", "export", user_id=ANN))
    assert export.files == ["wordlebot.json"]
    stored = await double.bot.services.storage.export_player(ANN)
    assert stored["player"]["guided_at"] is not None
    json.dumps(stored)  # JSON-ready, as the file is
    gone = only(await double.command("mydata", "delete", user_id=ANN, confirm="DELETE"))
    assert "Deleted" in gone.text  # and no guide straight after: the mark went with the rest
    assert not await double.bot.services.storage.guided(ANN)
    *_help, guide = await double.command("help", user_id=ANN)  # a first use again
    assert GUIDE in guide.text
    # A newcomer whose first command deletes their data is not greeted (nor marked).
    double.new_players.add(BOB)
    nothing = only(await double.command("mydata", "delete", user_id=BOB, confirm="DELETE"))
    assert nothing.text == "There was nothing to delete."
    assert not await double.bot.services.storage.guided(BOB)


async def test_the_console_guides_before_the_first_reply_once(tmp_path, opened):
    url = str(tmp_path / "console.sqlite3")
    services = await opened(url)
    shown: list[str] = []
    console = Console(services, Player(5, "tess"), shown.append, colour=False)
    await console.handle("/streak")
    text = "\n".join(shown)
    assert GUIDE in text and text.index(GUIDE) < text.index("streak:")  # before the reply
    assert "/wordle daily starts today's puzzle" in text and "`" not in text
    assert "/guess crane plays a word in your game" in text
    shown.clear()
    await console.handle("/streak")
    assert GUIDE not in "\n".join(shown)
    # Another console on the same file (another process): Tess is known; Uma is new.
    later: list[str] = []
    other = Console(await opened(url), Player(5, "tess"), later.append, colour=False)
    await other.handle("/help")
    assert GUIDE not in "\n".join(later)
    await other.handle("/as uma")  # handing over the keyboard is nobody's use
    assert GUIDE not in "\n".join(later)
    await other.handle("crane")  # Uma's first: a bare word (no game yet)
    assert GUIDE in "\n".join(later)


async def test_the_console_guides_in_the_players_language(tmp_path, opened):
    services = await opened(str(tmp_path / "es.sqlite3"))
    shown: list[str] = []
    console = Console(services, Player(6, "eva"), shown.append, colour=False, locale="es-ES")

    lines = ["/help"]

    async def script(_prompt: str) -> str | None:
        return lines.pop() if lines else None

    await console.run(script)
    text = "\n".join(shown)
    assert "¡Bienvenido a wordlebot!" in text and "/help muestra todo lo demás" in text


async def test_players_before_the_guide_are_taken_as_guided(tmp_path):
    storage = await Storage.open(str(tmp_path / "old.sqlite3"), migrate=False)
    await storage.migrate(target=18)
    await storage.ensure_player(ANN, "ann")  # played before the guide existed
    await storage.migrate()
    assert await storage.guided(ANN)
    assert not await storage.claim_guide(ANN, "ann")
    assert await storage.claim_guide(BOB, "bob") and not await storage.claim_guide(BOB)
    await storage.close()
