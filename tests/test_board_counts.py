"""The counts each board keeps (bot/storage/counts.py) equal a recount of its rows after any
mix of play, shares taken and taken back, the coach, a deleted player, a reset server board
and a bulk load; and each board says it holds as many players as a count of its rows."""

import asyncio
import itertools
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_digest import DAY, GUILD, OTHER, play
from test_share_boards import opened, share, wordle

from bot.services import Player
from bot.storage import Storage
from bot.storage.counts import ALWAYS_LIVE, LEVELS, SLOTS
from bot.storage.periods import EPOCH, period_key
from bot.storage.records import GLOBAL

KIND = "wordle:daily"
_runs = itertools.count(1)
PLAYERS = st.integers(1, 4)
DAYS = st.integers(0, 9)  # days before DAY
ACTIONS = st.lists(st.one_of(
    st.tuples(st.just("play"), PLAYERS, DAYS, st.integers(0, 2), st.booleans(),
              st.sampled_from([GUILD, OTHER])),
    st.tuples(st.just("share"), PLAYERS, DAYS, st.integers(1, 6)),
    st.tuples(st.just("unshare"), PLAYERS, DAYS),
    st.tuples(st.just("coach"), st.integers(0, 99)),
    st.tuples(st.just("delete"), PLAYERS),
    st.tuples(st.just("reset"), st.sampled_from([GUILD, OTHER])),
    st.tuples(st.just("bulk"), PLAYERS, DAYS, st.booleans(), st.integers(2, 6)),
), min_size=1, max_size=12)  # fmt: skip


def levels(row, period: str) -> list[tuple[tuple, tuple[int, int, int, int]]]:
    """What one standings row counts in, by the rule counts.py states."""
    board = (int(row["scope"]), row["kind"], period)
    slot = int(row["player_id"]) % SLOTS
    found = []
    if row["played"] > 0:
        found.append(((*board, "played", min(row["played"], LEVELS), slot),
                      (1, row["played"], row["wins"], row["win_guesses"])))  # fmt: skip
    for measure in ("wins", "skilled") + (("max_streak",) if not period else ()):
        if row[measure] > 0:
            found.append(((*board, measure, min(row[measure], LEVELS), slot), (1, 0, 0, 0)))
    if not period and row["current_streak"] > 0:
        day = int(row["last_day"].replace("-", "")) if row["last_day"] else ALWAYS_LIVE
        found.append(((*board, "streak", day, slot), (1, 0, 0, 0)))
    return found


async def recounted(storage: Storage) -> dict[tuple, tuple[int, ...]]:
    totals: dict[tuple, list[int]] = {}
    for table, period in (("standings", None), ("period_standings", "period")):
        for row in await storage.db.all(f"SELECT * FROM {table}"):
            for key, adds in levels(row, row[period] if period else ""):
                total = totals.setdefault(key, [0, 0, 0, 0])
                for i, n in enumerate(adds):
                    total[i] += int(n)
    return {k: tuple(v) for k, v in totals.items()}


async def kept(storage: Storage) -> dict[tuple, tuple[int, ...]]:
    rows = await storage.db.all("SELECT * FROM board_counts")
    assert all(r["players"] >= 0 for r in rows), "a level holds fewer than no players"
    return {
        (int(r["scope"]), r["kind"], r["period"], r["measure"], int(r["level"]), int(r["slot"])):
        (int(r["players"]), int(r["played"]), int(r["wins"]), int(r["win_guesses"]))
        for r in rows if any((r["players"], r["played"], r["wins"], r["win_guesses"]))
    }  # fmt: skip


async def check_totals(storage: Storage) -> None:
    """Every board's size, as a page reports it, against a count of its rows."""
    today = DAY + timedelta(days=1)
    yesterday = DAY.isoformat()
    for scope in (GUILD, OTHER, GLOBAL):
        for period in (None, period_key("week", DAY, 28), period_key("month", DAY, 28)):
            table = "standings" if period is None else "period_standings"
            where = "scope = ? AND kind = ?" + ("" if period is None else " AND period = ?")
            params = [scope, KIND] + ([] if period is None else [period])
            rows = await storage.db.all(f"SELECT * FROM {table} WHERE {where}", params)
            expected = {
                "wins": sum(r["wins"] > 0 for r in rows),
                "average": sum(r["played"] > 0 for r in rows),
                "win_rate": sum(r["played"] >= 2 for r in rows),
                "skill": sum(r["skilled"] >= 2 for r in rows),
            }
            if period is None:
                expected["max_streak"] = sum(r["max_streak"] > 0 for r in rows)
                expected["current_streak"] = sum(
                    r["current_streak"] > 0 and (r["last_day"] is None
                                                 or r["last_day"] >= yesterday)
                    for r in rows
                )  # fmt: skip
            for metric, count in expected.items():
                _, total = await storage.leaderboard(
                    scope, KIND, metric, period=period, min_games=2, today=today
                )
                assert total == count, (scope, period, metric)


async def _run(url: str, actions: list[tuple]) -> None:
    services = await opened(url)
    storage = services.storage
    played: set[tuple[int, int]] = set()
    base = 10 * next(_runs)  # the examples share a database: players of their own
    for action, *args in actions:
        if action in ("play", "share", "unshare", "delete", "bulk"):
            args[0] += base
        if action == "play":
            player, back, misses, won, scope = args
            if (player, back) in played:
                continue  # one daily attempt a day
            played.add((player, back))
            await play(services, Player(player, f"p{player}"), DAY - timedelta(days=back),
                       misses, finish=True if won else "give up", scope=scope)  # fmt: skip
        elif action == "share":
            player, back, guesses = args
            number = (DAY - timedelta(days=back) - EPOCH).days
            await share(services, Player(player, f"p{player}"), wordle(number, guesses),
                        posted=DAY - timedelta(days=back))  # fmt: skip
        elif action == "unshare":
            player, back = args
            number = (DAY - timedelta(days=back) - EPOCH).days
            await storage.remove_share(player, "wordle", number)
        elif action == "coach":
            for result_id, _ in await storage.skills.pending(20):
                await storage.skills.record(result_id, args[0])
        elif action == "delete":
            await storage.delete_player(args[0])
            played = {p for p in played if p[0] != args[0]}
        elif action == "reset":
            await storage.reset_guild_board(args[0])
        else:
            player, back, won, guesses = args
            day = (DAY - timedelta(days=back)).isoformat()
            await storage.bulk_results([(player, GUILD, KIND, day, won, guesses, 40)])
    assert await kept(storage) == await recounted(storage), actions
    await check_totals(storage)
    await services.close()


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(actions=ACTIONS)
def test_the_counts_kept_are_a_recount_of_the_boards_after_anything(database_url, actions):
    asyncio.run(_run(database_url, actions))


@pytest.mark.parametrize("metric", ["wins", "win_rate", "skill", "average"])
async def test_a_minimum_past_the_levels_kept_is_counted(database_url, metric) -> None:
    """Win rate and skill over a minimum the counts do not reach are counted from the rows."""
    storage = await Storage.open(database_url)
    games = [(p, GUILD, KIND, None, True, 3, 50) for p in (1, 2) for _ in range(LEVELS + p)]
    await storage.bulk_results(games)
    _, total = await storage.leaderboard(GUILD, KIND, metric, min_games=LEVELS + 2,
                                         today=DAY)  # fmt: skip
    assert total == (1 if metric in ("win_rate", "skill") else 2)
    await storage.close()
