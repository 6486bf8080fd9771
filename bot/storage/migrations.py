"""The schema, as ordered migrations, for each engine. Version N is the database after the
first N scripts.

Never edit a released migration: add a new one, to both lists. ``tests/test_storage.py``
builds a SQLite database at every earlier version, fills it, and migrates it to the latest.
PostgreSQL came at version 6: its first script builds that version whole, and every later
change is a script in each list, so both engines have the same tables, the same rules (one
active game per kind, one daily attempt, the version column for compare-and-set) and the same
version number.
"""

from bot.storage import counts

# Migration 12 on both engines: the indexes that served a board's counts go (bot/storage/
# counts.py keeps them); the current streak's holds each row's last day, so a streak gone
# cold is passed over on the index; the score indexes order each group of players with as
# many games by their sum of guesses (a loss as 7), for the fair average.
_COUNTED = """
    DROP INDEX standings_totals;
    DROP INDEX standings_skill_totals;
    DROP INDEX period_standings_skill_totals;
    DROP INDEX standings_played;
    DROP INDEX standings_live;
    DROP INDEX standings_current_streak;
    CREATE INDEX standings_current_streak
        ON standings(scope, kind, current_streak DESC, player_id, last_day);
    CREATE INDEX standings_score ON standings(scope, kind, played,
        (win_guesses + (played - wins) * 7), player_id, wins, win_guesses);
    CREATE INDEX period_standings_score ON period_standings(scope, kind, period, played,
        (win_guesses + (played - wins) * 7), player_id, wins, win_guesses);
"""

# Migration 14 on both engines: a mark is the hex HMAC of (player, kind, puzzle); ``day`` is
# the puzzle day it holds for (ignored after it, and purged).
_PLAYED_MARKS = """
    CREATE TABLE played_marks (
        mark TEXT PRIMARY KEY,
        day TEXT NOT NULL
    );
    CREATE INDEX played_marks_day ON played_marks(day);
"""

# 15 (both engines): shares count on their server's boards only, never on the global ones
# (bot/storage/shares.py): the shares counted so far are taken off the global standings; the
# global period boards are counted again after (Storage.migrate, SHARES_MIGRATION).
_SHARES_OFF_GLOBAL = """
UPDATE standings SET
    played = played - (SELECT COUNT(*) FROM share_results s WHERE s.counted = 1
        AND s.player_id = standings.player_id AND s.game || ':daily' = standings.kind),
    wins = wins - (SELECT COALESCE(SUM(s.won), 0) FROM share_results s WHERE s.counted = 1
        AND s.player_id = standings.player_id AND s.game || ':daily' = standings.kind),
    win_guesses = win_guesses - (SELECT COALESCE(SUM(s.won * s.guesses), 0)
        FROM share_results s WHERE s.counted = 1
        AND s.player_id = standings.player_id AND s.game || ':daily' = standings.kind)
WHERE scope = -1 AND EXISTS (SELECT 1 FROM share_results s WHERE s.counted = 1
    AND s.player_id = standings.player_id AND s.game || ':daily' = standings.kind);
"""


# 16 (both engines): the players a deleted setter's challenges named lately, so that deleting
# is no way around a target's cooldown (bot/storage/challenges.py); kept for the cooldown's
# window, then purged.

# 17: languages (issue 30): a server's language (its Wordle words by default, and the words
# of what the bot posts there) and word length; a player's own interface language.
_LANGUAGES = """
    ALTER TABLE guild_settings ADD COLUMN language TEXT;
    ALTER TABLE guild_settings ADD COLUMN word_length INTEGER;
    ALTER TABLE players ADD COLUMN locale TEXT;
"""


# 18 (both engines): the NYT answers a deployment learns from its players' solved shares
# after the shipped list ends (bot/storage/answers.py): each player's word for a number, and
# the numbers learned (once two players agree and the number's day has ended).
def _learned_answers(player_id: str) -> str:
    return f"""
    CREATE TABLE nyt_answer_votes (
        number INTEGER NOT NULL,
        player_id {player_id} NOT NULL,
        answer TEXT NOT NULL,
        voted_at TEXT NOT NULL,
        PRIMARY KEY (number, player_id)
    );
    CREATE INDEX nyt_answer_votes_player ON nyt_answer_votes(player_id);
    CREATE TABLE nyt_answers (
        number INTEGER PRIMARY KEY,
        answer TEXT NOT NULL,
        learned_at TEXT NOT NULL
    );
"""


# 19 (both engines): when a player was given the first-game guide (bot/services/guide.py),
# NULL until then; set by a compare-and-set, so one process of many sends it. Everyone who
# has a row already has met the bot: they are taken as guided since they came.
_GUIDED = """
    ALTER TABLE players ADD COLUMN guided_at TEXT;
    UPDATE players SET guided_at = created_at;
"""

# 23 (both engines): the coach's luck (0 to 99) of each finished daily, beside its skill,
# for the year card's luckiest game (bot/services/year.py); NULL for games coached before.
_RESULT_LUCK = """
    ALTER TABLE results ADD COLUMN luck INTEGER;
"""


# 20 (both engines): the winner's role (issue 32): the role a server gives the day's winners
# (guild_settings.winner_role), the problem with it last said in the digest's channel (said
# once, not each day), and who holds it by the bot's hand (bot/storage/winner_roles.py): taken
# back at the next digest, by whichever process runs it; a player's rows go with their data.
_WINNER_ROLE = """
    ALTER TABLE guild_settings ADD COLUMN winner_role INTEGER;
    ALTER TABLE guild_settings ADD COLUMN winner_role_problem TEXT;
    CREATE TABLE winner_roles (
        guild_id INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        role_id INTEGER NOT NULL,
        day TEXT NOT NULL,
        PRIMARY KEY (guild_id, player_id, role_id)
    );
    CREATE INDEX winner_roles_player ON winner_roles(player_id);
"""
_WINNER_ROLE_POSTGRES = _WINNER_ROLE.replace("INTEGER", "BIGINT")
# 21 (both engines): achievements (bot/services/achievements.py), each earned once per player
# (the primary key), with when and where (the game's scope); they go with the player. A
# server announces them in its channel only when its admins say so (default: privately).
# SQLite gets the index on standings' player that PostgreSQL has had since its version 6: an
# award reads one player's global rows (and a deletion's cascade finds them) without a scan.
_ACHIEVEMENTS = """
    CREATE TABLE achievements (
        player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        achievement TEXT NOT NULL,
        earned_at TEXT NOT NULL,
        scope BIGINT NOT NULL,
        PRIMARY KEY (player_id, achievement)
    );
    ALTER TABLE guild_settings ADD COLUMN achievements_public INTEGER NOT NULL DEFAULT 0;
"""
_ACHIEVEMENTS_POSTGRES = _ACHIEVEMENTS
# PostgreSQL has had it since its version 6 (and would refuse even IF NOT EXISTS in the
# transaction of a migration that changed standings before: "pending trigger events").
_ACHIEVEMENTS += "    CREATE INDEX IF NOT EXISTS standings_player ON standings(player_id);\n"


def _share_imports(big: str) -> str:
    """22: a checkpoint per share channel's history import (/import): where it got to (the
    last message read), its counts so far, and who holds it (``owner``, a process, until
    ``updated_at`` is older than the lease): a kill loses at most the message in hand, and
    two /import at once find one row (compare-and-set on ``version``)."""
    return f"""
    CREATE TABLE share_imports (
        guild_id {big} NOT NULL,
        channel_id {big} NOT NULL,
        since TEXT NOT NULL,
        started_by {big} NOT NULL,
        status TEXT NOT NULL,
        owner TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        last_message_id {big},
        messages_read INTEGER NOT NULL DEFAULT 0,
        counted INTEGER NOT NULL DEFAULT 0,
        already INTEGER NOT NULL DEFAULT 0,
        refused INTEGER NOT NULL DEFAULT 0,
        not_shares INTEGER NOT NULL DEFAULT 0,
        progress_channel_id {big},
        progress_message_id {big},
        started_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (guild_id, channel_id)
    );
    """


# 24 (both engines): the live daily board (bot/services/live_board.py): the channel a server
# chose for it, and one row per server and puzzle day naming its message. The row is claimed
# (message_id NULL) before the message is posted and its id set after, each a compare-and-set,
# so two processes never post two boards of one day; a board deleted in Discord is claimed
# again from its old id. BIGINT: Discord's ids (SQLite reads it as INTEGER).
_LIVE_BOARDS = """
    ALTER TABLE guild_settings ADD COLUMN live_channel BIGINT;
    CREATE TABLE live_boards (
        guild_id BIGINT NOT NULL,
        day TEXT NOT NULL,
        channel_id BIGINT NOT NULL,
        message_id BIGINT,
        claimed_at TEXT NOT NULL,
        PRIMARY KEY (guild_id, day)
    );
"""

# 25 (both engines): the players who deleted their data (bot/services/deletion.py): the
# keyed mark of each (it names nobody without the deployment's seed) and the moment of their
# last deletion; a share of theirs posted before it never counts again (an import of old
# history, an old message edited).
_FORGOTTEN = """
    CREATE TABLE forgotten (
        mark TEXT PRIMARY KEY,
        deleted_at TEXT NOT NULL
    );
"""


# 26 (both engines): when each recorded share's message was posted (its last edit, if any;
# now for a share with no message): a message older than the recorded one never undoes it
# (bot/storage/shares.py), however late it is read (an import months later). Rows recorded
# before: the moment they were recorded. And the live board's "still playing" read
# (bot/storage/digests.py, unfinished) as an index walk over the games in progress only.
_SHARE_MOMENTS = """
    ALTER TABLE share_results ADD COLUMN posted_at TEXT NOT NULL DEFAULT '';
    UPDATE share_results SET posted_at = recorded_at;
    CREATE INDEX games_playing_day ON games(scope, puzzle) WHERE status = 'playing';
"""
# 27 (both engines): each player's games won, by guesses and kind. The achievements of one
# game ("In two", "Absurdle in four": bot/services/achievements.py) are read from the games
# stored, so one the database missed when its game ended is made at the next check; the read
# walks only the player's wins in that many guesses (bot/storage/achievements.py).
_WON_GAMES = """
    CREATE INDEX results_won ON results(player_id, guesses, kind) WHERE won = 1;
"""


def _recent_pings(player_id: str) -> str:
    return f"""
    CREATE TABLE recent_pings (
        target_id {player_id} NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (target_id, created_at)
    );
"""


# 28 (both engines): learned NYT answers resist forgery (issue 38; bot/storage/answers.py):
# each vote keeps where it was cast (its server, 0 for a DM) and the voter's history then
# (distinct puzzle days with a finished game before the vote's day), and the answer is
# elected from the votes at each read. The votes so far were cast where nobody noted: they
# count as a DM's (no server); their history is counted from the results before their day.
# The answers learned so far are kept as 'legacy': they stand until votes elect an answer
# or an operator pins or removes one (``wordlebot nyt``); an operator's pin is 'pin'. Each
# hint reads the counted votes' tallies from an index holding every column they need.
# 29 (both engines): shares on boards of their own (issue 38; bot/storage/shares.py): the
# bot's daily and the NYT's are different puzzles. The moves of each share's totals, from the
# ``{game}:daily`` boards to the ``{game}:shared`` ones, are counted by the code that counts
# shares (period keys, season lengths): this leaves the mark that has them made, once, in one
# transaction, by whichever process opens the database next (shares.move_apart).
_SHARES_APART = """
    INSERT INTO meta (key, value) VALUES ('shares_apart', 'pending');
"""

# 30: a digest's claim becomes a lease: the step it reached (claimed, sending, posted, done),
# which process holds it and until when (renewed while it works; another takes over once
# it lapses), and when its post was first sent (a retry within Discord's nonce window cannot
# post twice). Digests claimed before are done, as they were: never tried again.
_DIGEST_LEASES = """
    ALTER TABLE digests ADD COLUMN step TEXT NOT NULL DEFAULT 'done';
    ALTER TABLE digests ADD COLUMN holder TEXT;
    ALTER TABLE digests ADD COLUMN lease_until TEXT;
    ALTER TABLE digests ADD COLUMN sent_at TEXT;
"""


# 31 (both engines): a server's page on the web (issue 41; bot/storage/web_pages.py): the
# random slug of its link (never its id), whether search engines may index it; each player's
# choice to be named on pages (else a keyed anonymous label). (The count of changes to who is
# shown how, which a page's version holds, is a row of meta made at the first change.)
_WEB_PAGES = """
    CREATE TABLE web_pages (
        guild_id BIGINT PRIMARY KEY,
        slug TEXT NOT NULL UNIQUE,
        indexed INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL
    );
    ALTER TABLE players ADD COLUMN web_name INTEGER NOT NULL DEFAULT 0;
"""

# The deployment's pace of requests to Discord (bot/services/request_budget.py): the time
# (seconds since the epoch, by the database's clock on PostgreSQL) from which the next
# request may go, shared by every process; and the refusals Discord gave (401, 403, 429),
# counted by the minute, kept far from the count that bans an address.
_REQUEST_PACE = """
    CREATE TABLE request_pace (
        name TEXT PRIMARY KEY,
        next_at DOUBLE PRECISION NOT NULL
    );
    INSERT INTO request_pace (name, next_at) VALUES ('discord', 0);
    CREATE TABLE request_refusals (
        minute BIGINT PRIMARY KEY,
        refused INTEGER NOT NULL
    );
"""


def _answer_votes(big: str) -> str:
    return f"""
    ALTER TABLE nyt_answer_votes ADD COLUMN scope {big} NOT NULL DEFAULT 0;
    ALTER TABLE nyt_answer_votes ADD COLUMN history_days INTEGER NOT NULL DEFAULT 0;
    UPDATE nyt_answer_votes SET history_days = (SELECT COUNT(DISTINCT r.played_on)
        FROM results r WHERE r.player_id = nyt_answer_votes.player_id
        AND r.played_on < substr(nyt_answer_votes.voted_at, 1, 10));
    ALTER TABLE nyt_answers ADD COLUMN source TEXT NOT NULL DEFAULT 'legacy';
    CREATE INDEX nyt_answer_votes_tally
        ON nyt_answer_votes(number, answer, history_days, scope);
"""


SQLITE_MIGRATIONS: tuple[str, ...] = (
    # 1: players, guild settings, games, daily puzzles, results.
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
    );
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        timezone TEXT,
        hints_in_daily INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        scope INTEGER NOT NULL,
        kind TEXT NOT NULL,
        puzzle TEXT,
        state TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX games_one_active ON games(player_id, scope, kind)
        WHERE status = 'playing';
    CREATE UNIQUE INDEX games_one_daily ON games(player_id, kind, puzzle)
        WHERE puzzle IS NOT NULL;
    CREATE TABLE daily_puzzles (
        variant TEXT NOT NULL,
        day TEXT NOT NULL,
        number INTEGER NOT NULL,
        answer TEXT NOT NULL,
        PRIMARY KEY (variant, day)
    );
    CREATE TABLE results (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL UNIQUE REFERENCES games(id) ON DELETE CASCADE,
        player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        scope INTEGER NOT NULL,
        kind TEXT NOT NULL,
        day TEXT,
        won INTEGER NOT NULL,
        guesses INTEGER NOT NULL,
        finished_at TEXT NOT NULL
    );
    CREATE INDEX results_player ON results(player_id, kind);
    """,
    # 2: standings, kept up to date with each result so leaderboards are one indexed query.
    """
    CREATE TABLE standings (
        scope INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        played INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        win_guesses INTEGER NOT NULL DEFAULT 0,
        current_streak INTEGER NOT NULL DEFAULT 0,
        max_streak INTEGER NOT NULL DEFAULT 0,
        last_day TEXT,
        PRIMARY KEY (scope, kind, player_id)
    );
    CREATE INDEX standings_wins ON standings(scope, kind, wins DESC, player_id);
    CREATE INDEX standings_max_streak ON standings(scope, kind, max_streak DESC, player_id);
    ALTER TABLE guild_settings ADD COLUMN board_reset_at TEXT;
    """,
    # 3: results recorded from pasted shares of games played elsewhere.
    """
    CREATE TABLE share_results (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        game TEXT NOT NULL,
        puzzle INTEGER NOT NULL,
        won INTEGER NOT NULL,
        guesses INTEGER NOT NULL,
        hard INTEGER NOT NULL DEFAULT 0,
        grid TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        UNIQUE (player_id, game, puzzle)
    );
    """,
    # 4: every leaderboard order as an index, so a page is an index walk, not a sort.
    """
    CREATE INDEX standings_win_rate
        ON standings(scope, kind, (CAST(wins AS REAL) / played) DESC, player_id);
    CREATE INDEX standings_average
        ON standings(scope, kind, (CAST(win_guesses AS REAL) / wins), player_id);
    CREATE INDEX standings_current_streak
        ON standings(scope, kind, current_streak DESC, player_id);
    CREATE INDEX standings_live ON standings(scope, kind, last_day, current_streak);
    CREATE INDEX standings_played ON standings(scope, kind, played);
    """,
    # 5: channels where an admin lets the bot record the shares people post.
    """
    CREATE TABLE share_channels (
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        PRIMARY KEY (guild_id, channel_id)
    );
    """,
    # 6: game ids are never reused (AUTOINCREMENT): a deleted player's game id must not come
    # back as someone else's game. The table is rebuilt as SQLite's ALTER TABLE guide says.
    """
    CREATE TABLE games_new (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        scope INTEGER NOT NULL,
        kind TEXT NOT NULL,
        puzzle TEXT,
        state TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    INSERT INTO games_new (id, player_id, scope, kind, puzzle, state, version, status,
                           created_at, updated_at)
        SELECT id, player_id, scope, kind, puzzle, state, version, status, created_at,
               updated_at FROM games;
    DROP TABLE games;
    ALTER TABLE games_new RENAME TO games;
    CREATE UNIQUE INDEX games_one_active ON games(player_id, scope, kind)
        WHERE status = 'playing';
    CREATE UNIQUE INDEX games_one_daily ON games(player_id, kind, puzzle)
        WHERE puzzle IS NOT NULL;
    """,
    # 7: the daily digest: the channel a server chose (and who chose it, told if it fails),
    # and one row per server and puzzle day, claimed before the post is sent: each digest is
    # posted at most once, whatever the restarts and processes. Results by day, for it.
    """
    ALTER TABLE guild_settings ADD COLUMN digest_channel INTEGER;
    ALTER TABLE guild_settings ADD COLUMN digest_admin INTEGER;
    CREATE TABLE digests (
        guild_id INTEGER NOT NULL,
        day TEXT NOT NULL,
        channel_id INTEGER,
        message_id INTEGER,
        claimed_at TEXT NOT NULL,
        PRIMARY KEY (guild_id, day)
    );
    CREATE INDEX results_day ON results(scope, kind, day);
    -- Boards over a period (a day, a week, a month, a server's season): one row per scope,
    -- game, period and player, kept with each result as standings are. A result's day is
    -- its puzzle's, or for practice the puzzle day it was played on (played_on).
    ALTER TABLE results ADD COLUMN played_on TEXT;
    UPDATE results SET played_on = COALESCE(day, substr(finished_at, 1, 10));
    ALTER TABLE guild_settings ADD COLUMN season_days INTEGER NOT NULL DEFAULT 28;
    ALTER TABLE guild_settings ADD COLUMN fail_score INTEGER NOT NULL DEFAULT 7;
    CREATE TABLE period_standings (
        scope INTEGER NOT NULL,
        kind TEXT NOT NULL,
        period TEXT NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        played INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        win_guesses INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (scope, kind, period, player_id)
    ) WITHOUT ROWID;  -- a board's rows lie together, in key order: its scans are short reads
    CREATE INDEX period_standings_wins
        ON period_standings(scope, kind, period, wins DESC, player_id);
    CREATE INDEX period_standings_win_rate ON period_standings(
        scope, kind, period, (CAST(wins AS REAL) / played) DESC, player_id);
    CREATE INDEX period_standings_player ON period_standings(player_id);
    -- The fair average is ranked from each row's totals: an index that holds them all lets
    -- a board's scans read the index alone. It replaces the plain average's index.
    DROP INDEX standings_average;
    CREATE INDEX standings_totals
        ON standings(scope, kind, played, wins, win_guesses, player_id);
    """,
    # 8: what a server does around the game. Shares count on its boards: each keeps the
    # server it was recorded in, the puzzle day it counts on, and whether it counts (a result
    # played here for the same puzzle counts instead). The coach's skill of each finished
    # daily, for the skill board (a job fills it in). Reminders, and the daily role.
    """
    ALTER TABLE share_results ADD COLUMN scope INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE share_results ADD COLUMN day TEXT;
    ALTER TABLE share_results ADD COLUMN counted INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX share_results_day ON share_results(scope, game, day);
    ALTER TABLE results ADD COLUMN skill INTEGER;
    ALTER TABLE results ADD COLUMN coached INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX results_to_coach ON results(id) WHERE coached = 0 AND day IS NOT NULL;
    ALTER TABLE standings ADD COLUMN skilled INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE standings ADD COLUMN skill_total INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE period_standings ADD COLUMN skilled INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE period_standings ADD COLUMN skill_total INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX standings_skill ON standings(
        scope, kind, (CAST(skill_total AS REAL) / skilled) DESC, player_id);
    CREATE INDEX period_standings_skill ON period_standings(
        scope, kind, period, (CAST(skill_total AS REAL) / skilled) DESC, player_id);
    -- A board's counts (who is on it, who is ahead) read these alone, as standings_totals.
    CREATE INDEX standings_skill_totals ON standings(scope, kind, skilled, skill_total);
    CREATE INDEX period_standings_skill_totals
        ON period_standings(scope, kind, period, skilled, skill_total);
    CREATE TABLE reminders (
        guild_id INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        channel_id INTEGER NOT NULL,
        minute INTEGER NOT NULL,  -- of the server's day (its time zone)
        last_day TEXT,  -- the puzzle day last reminded: claimed before the message is sent
        PRIMARY KEY (guild_id, player_id)
    );
    CREATE INDEX reminders_player ON reminders(player_id);
    ALTER TABLE guild_settings ADD COLUMN daily_role INTEGER;
    ALTER TABLE guild_settings ADD COLUMN daily_role_channel INTEGER;
    ALTER TABLE guild_settings ADD COLUMN daily_role_day TEXT;
    """,
    # 9: playing together. A race: one answer for its players, a lobby message that becomes
    # its scoreboard, times stored (a restart keeps the clock). Each player's race game is a
    # game row of kind "<game>:race" whose puzzle is "race:<id>"; a challenge's likewise
    # "<game>:custom" and "custom:<id>" (the word is stored here, never in a message or id).
    # A co-op game: one board per channel, its rows and who played them, points per player.
    """
    CREATE TABLE races (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER,
        host_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        mode TEXT NOT NULL,
        answers TEXT NOT NULL,
        status TEXT NOT NULL,  -- lobby, running, over
        created_at TEXT NOT NULL,
        start_by TEXT NOT NULL,  -- the lobby starts by itself then
        started_at TEXT,
        end_by TEXT,  -- the time limit, once started
        ended_at TEXT,
        version INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX races_open ON races(status, start_by);
    CREATE TABLE race_players (
        race_id INTEGER NOT NULL REFERENCES races(id) ON DELETE CASCADE,
        player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        joined_at TEXT NOT NULL,
        finished_at TEXT,
        won INTEGER,
        guesses INTEGER,
        place INTEGER,
        PRIMARY KEY (race_id, player_id)
    );
    CREATE INDEX race_players_player ON race_players(player_id);
    CREATE TABLE race_standings (
        scope INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        races INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        podiums INTEGER NOT NULL DEFAULT 0,
        place_total INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (scope, player_id)
    );
    CREATE INDEX race_standings_player ON race_standings(player_id);
    CREATE TABLE challenges (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER,
        setter_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        target_id INTEGER,  -- the one player it is for (None: anyone)
        game TEXT NOT NULL,
        answer TEXT NOT NULL,
        max_guesses INTEGER NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE INDEX challenges_setter ON challenges(setter_id);
    CREATE TABLE coop_games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER,
        game TEXT NOT NULL,
        state TEXT NOT NULL,
        status TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX coop_one_per_channel ON coop_games(channel_id) WHERE status = 'playing';
    CREATE TABLE coop_rows (
        coop_id INTEGER NOT NULL REFERENCES coop_games(id) ON DELETE CASCADE,
        turn INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        points INTEGER NOT NULL,
        played_at TEXT NOT NULL,
        PRIMARY KEY (coop_id, turn)
    );
    CREATE INDEX coop_rows_player ON coop_rows(player_id, played_at);
    CREATE TABLE coop_standings (
        scope INTEGER NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        points INTEGER NOT NULL DEFAULT 0,
        guesses INTEGER NOT NULL DEFAULT 0,
        solves INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (scope, player_id)
    );
    CREATE INDEX coop_standings_player ON coop_standings(player_id);
    ALTER TABLE guild_settings ADD COLUMN coop_cooldown INTEGER NOT NULL DEFAULT 30;
    """,
    # 10: each player's own settings: the colours of their boards, images and shares
    # ('standard' green/yellow, 'high-contrast' orange/blue as the NYT's option).
    """
    ALTER TABLE players ADD COLUMN palette TEXT NOT NULL DEFAULT 'standard';
    """,
    # 11: each row's plain average (a loss counted as 7, the default fail score), in order:
    # the fair-average board reads only the rows that can be on its page from it, and the
    # totals its fair average needs, so that reading the index is enough.
    """
    CREATE INDEX standings_plain_average ON standings(scope, kind,
        (CAST(win_guesses + (played - wins) * 7 AS REAL) / played), player_id,
        played, wins, win_guesses);
    CREATE INDEX period_standings_plain_average ON period_standings(scope, kind, period,
        (CAST(win_guesses + (played - wins) * 7 AS REAL) / played), player_id,
        played, wins, win_guesses);
    -- The win rate and skill boards skip rows under their minimum of games: each index
    -- holds that count, so a row skipped is read from the index, not from the table.
    DROP INDEX standings_win_rate;
    CREATE INDEX standings_win_rate ON standings(
        scope, kind, (CAST(wins AS REAL) / played) DESC, player_id, played);
    DROP INDEX period_standings_win_rate;
    CREATE INDEX period_standings_win_rate ON period_standings(
        scope, kind, period, (CAST(wins AS REAL) / played) DESC, player_id, played);
    DROP INDEX standings_skill;
    CREATE INDEX standings_skill ON standings(
        scope, kind, (CAST(skill_total AS REAL) / skilled) DESC, player_id, skilled);
    DROP INDEX period_standings_skill;
    CREATE INDEX period_standings_skill ON period_standings(
        scope, kind, period, (CAST(skill_total AS REAL) / skilled) DESC, player_id, skilled);
    """,
    # 12: how many players each board holds, kept by triggers (bot/storage/counts.py), so
    # a page never counts its board; and a page's players are read from its board's index
    # alone, so each index holds what its order and its condition read (and _COUNTED).
    _COUNTED
    + """
    DROP INDEX standings_win_rate;
    CREATE INDEX standings_win_rate ON standings(
        scope, kind, (CAST(wins AS REAL) / played) DESC, player_id, played, wins);
    DROP INDEX period_standings_win_rate;
    CREATE INDEX period_standings_win_rate ON period_standings(
        scope, kind, period, (CAST(wins AS REAL) / played) DESC, player_id, played, wins);
    DROP INDEX standings_skill;
    CREATE INDEX standings_skill ON standings(scope, kind,
        (CAST(skill_total AS REAL) / skilled) DESC, player_id, skilled, skill_total);
    DROP INDEX period_standings_skill;
    CREATE INDEX period_standings_skill ON period_standings(scope, kind, period,
        (CAST(skill_total AS REAL) / skilled) DESC, player_id, skilled, skill_total);
    """
    + counts.migration("sqlite"),
    # 13: the cooldowns of /challenge and /race count recent rows (bot/storage/cooldowns.py):
    # the challenges naming a player, the races a player hosted.
    """
    CREATE INDEX challenges_target ON challenges(target_id, created_at);
    CREATE INDEX races_host ON races(host_id, created_at);
    """,
    # 14: what a deletion keeps until its day ends: a mark per puzzle the player had going or
    # finished that day, so deleting is no way to replay it (bot/services/deletion.py). A
    # mark is a keyed hash: it names nobody without the deployment's secret seed.
    _PLAYED_MARKS,
    # 15: shares off the global boards (see _SHARES_OFF_GLOBAL).
    _SHARES_OFF_GLOBAL,
    # 16: the pings of a deleted setter's challenges (see _recent_pings).
    _recent_pings("INTEGER"),
    # 17: languages (see _LANGUAGES).
    _LANGUAGES,
    # 18: the NYT answers learned from players (see _learned_answers).
    _learned_answers("INTEGER"),
    # 19: the first-game guide given (see _GUIDED).
    _GUIDED,
    # 20: the winner's role (see _WINNER_ROLE).
    _WINNER_ROLE,
    # 21: achievements (see _ACHIEVEMENTS).
    _ACHIEVEMENTS,
    # 22: the checkpoints of share channels' history imports (see _share_imports).
    _share_imports("INTEGER"),
    # 23: the coach's luck of each daily (see _RESULT_LUCK).
    _RESULT_LUCK,
    # 24: the live daily board (see _LIVE_BOARDS).
    _LIVE_BOARDS,
    # 25: the players who deleted their data (see _FORGOTTEN).
    _FORGOTTEN,
    # 26: the moment of each share's message; the games in progress by day (see
    # _SHARE_MOMENTS).
    _SHARE_MOMENTS,
    # 27: each player's games won, by guesses (see _WON_GAMES).
    _WON_GAMES,
    # 28: votes with their server and history; answers pinned or legacy (see _answer_votes).
    _answer_votes("INTEGER"),
    # 29: shares on boards of their own (see _SHARES_APART).
    _SHARES_APART,
    # 30: a digest's lease and step (see _DIGEST_LEASES).
    _DIGEST_LEASES,
    # 31: servers' web pages and players' names on them (see _WEB_PAGES).
    _WEB_PAGES,
    # 32: the deployment's pace of requests to Discord (see _REQUEST_PACE).
    _REQUEST_PACE,
)

LATEST = len(SQLITE_MIGRATIONS)
MIGRATIONS = SQLITE_MIGRATIONS

# PostgreSQL: Discord ids are 64-bit (BIGINT); ids come from identity columns, never reused;
# a quotient is NULL, not an error, when its denominator is 0 (NULLIF), as in SQLite; the
# columns that deleting a player cascades through are indexed.
POSTGRES_BASE = 6
POSTGRES_MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE players (
        id BIGINT PRIMARY KEY,
        name TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
    );
    CREATE TABLE guild_settings (
        guild_id BIGINT PRIMARY KEY,
        timezone TEXT,
        hints_in_daily INTEGER NOT NULL DEFAULT 1,
        board_reset_at TEXT
    );
    CREATE TABLE games (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        scope BIGINT NOT NULL,
        kind TEXT NOT NULL,
        puzzle TEXT,
        state TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    ) WITH (fillfactor = 70);  -- room on each page: a guess's UPDATE stays on it (HOT)
    CREATE UNIQUE INDEX games_one_active ON games(player_id, scope, kind)
        WHERE status = 'playing';
    CREATE UNIQUE INDEX games_one_daily ON games(player_id, kind, puzzle)
        WHERE puzzle IS NOT NULL;
    CREATE INDEX games_player ON games(player_id, id);
    CREATE TABLE daily_puzzles (
        variant TEXT NOT NULL,
        day TEXT NOT NULL,
        number INTEGER NOT NULL,
        answer TEXT NOT NULL,
        PRIMARY KEY (variant, day)
    );
    CREATE TABLE results (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game_id BIGINT NOT NULL UNIQUE REFERENCES games(id) ON DELETE CASCADE,
        player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        scope BIGINT NOT NULL,
        kind TEXT NOT NULL,
        day TEXT,
        won INTEGER NOT NULL,
        guesses INTEGER NOT NULL,
        finished_at TEXT NOT NULL
    );
    CREATE INDEX results_player ON results(player_id, kind);
    CREATE TABLE standings (
        scope BIGINT NOT NULL,
        player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        played INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        win_guesses INTEGER NOT NULL DEFAULT 0,
        current_streak INTEGER NOT NULL DEFAULT 0,
        max_streak INTEGER NOT NULL DEFAULT 0,
        last_day TEXT,
        PRIMARY KEY (scope, kind, player_id)
    );
    CREATE INDEX standings_player ON standings(player_id);
    CREATE INDEX standings_wins ON standings(scope, kind, wins DESC, player_id);
    CREATE INDEX standings_max_streak ON standings(scope, kind, max_streak DESC, player_id);
    CREATE INDEX standings_win_rate ON standings(
        scope, kind, (CAST(wins AS DOUBLE PRECISION) / NULLIF(played, 0)) DESC, player_id);
    CREATE INDEX standings_average ON standings(
        scope, kind, (CAST(win_guesses AS DOUBLE PRECISION) / NULLIF(wins, 0)), player_id);
    CREATE INDEX standings_current_streak
        ON standings(scope, kind, current_streak DESC, player_id);
    CREATE INDEX standings_live ON standings(scope, kind, last_day, current_streak);
    CREATE INDEX standings_played ON standings(scope, kind, played);
    CREATE TABLE share_results (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        game TEXT NOT NULL,
        puzzle INTEGER NOT NULL,
        won INTEGER NOT NULL,
        guesses INTEGER NOT NULL,
        hard INTEGER NOT NULL DEFAULT 0,
        grid TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        UNIQUE (player_id, game, puzzle)
    );
    CREATE TABLE share_channels (
        guild_id BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        PRIMARY KEY (guild_id, channel_id)
    );
    """,
    # 7: as SQLite's 7.
    """
    ALTER TABLE guild_settings ADD COLUMN digest_channel BIGINT;
    ALTER TABLE guild_settings ADD COLUMN digest_admin BIGINT;
    CREATE TABLE digests (
        guild_id BIGINT NOT NULL,
        day TEXT NOT NULL,
        channel_id BIGINT,
        message_id BIGINT,
        claimed_at TEXT NOT NULL,
        PRIMARY KEY (guild_id, day)
    );
    CREATE INDEX results_day ON results(scope, kind, day);
    ALTER TABLE results ADD COLUMN played_on TEXT;
    UPDATE results SET played_on = COALESCE(day, substr(finished_at, 1, 10));
    ALTER TABLE guild_settings ADD COLUMN season_days INTEGER NOT NULL DEFAULT 28;
    ALTER TABLE guild_settings ADD COLUMN fail_score INTEGER NOT NULL DEFAULT 7;
    CREATE TABLE period_standings (
        scope BIGINT NOT NULL,
        kind TEXT NOT NULL,
        period TEXT NOT NULL,
        player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        played INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        win_guesses INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (scope, kind, period, player_id)
    );
    CREATE INDEX period_standings_wins
        ON period_standings(scope, kind, period, wins DESC, player_id);
    CREATE INDEX period_standings_win_rate ON period_standings(scope, kind, period,
        (CAST(wins AS DOUBLE PRECISION) / NULLIF(played, 0)) DESC, player_id);
    CREATE INDEX period_standings_player ON period_standings(player_id);
    -- The fair average is ranked from each row's totals: an index that holds them all lets
    -- a board's scans read the index alone. It replaces the plain average's index.
    DROP INDEX standings_average;
    CREATE INDEX standings_totals
        ON standings(scope, kind, played, wins, win_guesses, player_id);
    """,
    # 8: as SQLite's 8.
    """
    ALTER TABLE share_results ADD COLUMN scope BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE share_results ADD COLUMN day TEXT;
    ALTER TABLE share_results ADD COLUMN counted INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX share_results_day ON share_results(scope, game, day);
    ALTER TABLE results ADD COLUMN skill INTEGER;
    ALTER TABLE results ADD COLUMN coached INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX results_to_coach ON results(id) WHERE coached = 0 AND day IS NOT NULL;
    ALTER TABLE standings ADD COLUMN skilled INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE standings ADD COLUMN skill_total INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE period_standings ADD COLUMN skilled INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE period_standings ADD COLUMN skill_total INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX standings_skill ON standings(scope, kind,
        (CAST(skill_total AS DOUBLE PRECISION) / NULLIF(skilled, 0)) DESC, player_id);
    CREATE INDEX period_standings_skill ON period_standings(scope, kind, period,
        (CAST(skill_total AS DOUBLE PRECISION) / NULLIF(skilled, 0)) DESC, player_id);
    CREATE INDEX standings_skill_totals ON standings(scope, kind, skilled, skill_total);
    CREATE INDEX period_standings_skill_totals
        ON period_standings(scope, kind, period, skilled, skill_total);
    -- A period's fair average reads every row's totals (the board's mean, who is on it, who
    -- is ahead): here an index-only scan, where SQLite's table (WITHOUT ROWID) is one.
    CREATE INDEX period_standings_totals
        ON period_standings(scope, kind, period, played, wins, win_guesses, player_id);
    CREATE TABLE reminders (
        guild_id BIGINT NOT NULL,
        player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        channel_id BIGINT NOT NULL,
        minute INTEGER NOT NULL,
        last_day TEXT,
        PRIMARY KEY (guild_id, player_id)
    );
    CREATE INDEX reminders_player ON reminders(player_id);
    ALTER TABLE guild_settings ADD COLUMN daily_role BIGINT;
    ALTER TABLE guild_settings ADD COLUMN daily_role_channel BIGINT;
    ALTER TABLE guild_settings ADD COLUMN daily_role_day TEXT;
    """,
    # 9: as SQLite's 9.
    """
    CREATE TABLE races (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        message_id BIGINT,
        host_id BIGINT NOT NULL,
        game TEXT NOT NULL,
        mode TEXT NOT NULL,
        answers TEXT NOT NULL,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        start_by TEXT NOT NULL,
        started_at TEXT,
        end_by TEXT,
        ended_at TEXT,
        version INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX races_open ON races(status, start_by);
    CREATE TABLE race_players (
        race_id BIGINT NOT NULL REFERENCES races(id) ON DELETE CASCADE,
        player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        joined_at TEXT NOT NULL,
        finished_at TEXT,
        won INTEGER,
        guesses INTEGER,
        place INTEGER,
        PRIMARY KEY (race_id, player_id)
    );
    CREATE INDEX race_players_player ON race_players(player_id);
    CREATE TABLE race_standings (
        scope BIGINT NOT NULL,
        player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        races INTEGER NOT NULL DEFAULT 0,
        wins INTEGER NOT NULL DEFAULT 0,
        podiums INTEGER NOT NULL DEFAULT 0,
        place_total INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (scope, player_id)
    );
    CREATE INDEX race_standings_player ON race_standings(player_id);
    CREATE TABLE challenges (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        message_id BIGINT,
        setter_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        target_id BIGINT,
        game TEXT NOT NULL,
        answer TEXT NOT NULL,
        max_guesses INTEGER NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE INDEX challenges_setter ON challenges(setter_id);
    CREATE TABLE coop_games (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        message_id BIGINT,
        game TEXT NOT NULL,
        state TEXT NOT NULL,
        status TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX coop_one_per_channel ON coop_games(channel_id) WHERE status = 'playing';
    CREATE TABLE coop_rows (
        coop_id BIGINT NOT NULL REFERENCES coop_games(id) ON DELETE CASCADE,
        turn INTEGER NOT NULL,
        player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        points INTEGER NOT NULL,
        played_at TEXT NOT NULL,
        PRIMARY KEY (coop_id, turn)
    );
    CREATE INDEX coop_rows_player ON coop_rows(player_id, played_at);
    CREATE TABLE coop_standings (
        scope BIGINT NOT NULL,
        player_id BIGINT NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        points INTEGER NOT NULL DEFAULT 0,
        guesses INTEGER NOT NULL DEFAULT 0,
        solves INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (scope, player_id)
    );
    CREATE INDEX coop_standings_player ON coop_standings(player_id);
    ALTER TABLE guild_settings ADD COLUMN coop_cooldown INTEGER NOT NULL DEFAULT 30;
    """,
    # 10: as SQLite's 10.
    """
    ALTER TABLE players ADD COLUMN palette TEXT NOT NULL DEFAULT 'standard';
    """,
    # 11: as SQLite's 11.
    """
    CREATE INDEX standings_plain_average ON standings(scope, kind,
        (CAST(win_guesses + (played - wins) * 7 AS DOUBLE PRECISION) / NULLIF(played, 0)),
        player_id, played, wins, win_guesses);
    CREATE INDEX period_standings_plain_average ON period_standings(scope, kind, period,
        (CAST(win_guesses + (played - wins) * 7 AS DOUBLE PRECISION) / NULLIF(played, 0)),
        player_id, played, wins, win_guesses);
    DROP INDEX standings_win_rate;
    CREATE INDEX standings_win_rate ON standings(scope, kind,
        (CAST(wins AS DOUBLE PRECISION) / NULLIF(played, 0)) DESC, player_id, played);
    DROP INDEX period_standings_win_rate;
    CREATE INDEX period_standings_win_rate ON period_standings(scope, kind, period,
        (CAST(wins AS DOUBLE PRECISION) / NULLIF(played, 0)) DESC, player_id, played);
    DROP INDEX standings_skill;
    CREATE INDEX standings_skill ON standings(scope, kind,
        (CAST(skill_total AS DOUBLE PRECISION) / NULLIF(skilled, 0)) DESC, player_id, skilled);
    DROP INDEX period_standings_skill;
    CREATE INDEX period_standings_skill ON period_standings(scope, kind, period,
        (CAST(skill_total AS DOUBLE PRECISION) / NULLIF(skilled, 0)) DESC, player_id, skilled);
    """,
    # 12: as SQLite's 12.
    _COUNTED
    + """
    DROP INDEX period_standings_totals;
    DROP INDEX standings_win_rate;
    CREATE INDEX standings_win_rate ON standings(scope, kind,
        (CAST(wins AS DOUBLE PRECISION) / NULLIF(played, 0)) DESC, player_id, played, wins);
    DROP INDEX period_standings_win_rate;
    CREATE INDEX period_standings_win_rate ON period_standings(scope, kind, period,
        (CAST(wins AS DOUBLE PRECISION) / NULLIF(played, 0)) DESC, player_id, played, wins);
    DROP INDEX standings_skill;
    CREATE INDEX standings_skill ON standings(scope, kind,
        (CAST(skill_total AS DOUBLE PRECISION) / NULLIF(skilled, 0)) DESC, player_id, skilled,
        skill_total);
    DROP INDEX period_standings_skill;
    CREATE INDEX period_standings_skill ON period_standings(scope, kind, period,
        (CAST(skill_total AS DOUBLE PRECISION) / NULLIF(skilled, 0)) DESC, player_id, skilled,
        skill_total);
    """
    + counts.migration("postgresql"),
    # 13: as SQLite's 13.
    """
    CREATE INDEX challenges_target ON challenges(target_id, created_at);
    CREATE INDEX races_host ON races(host_id, created_at);
    """,
    # 14: as SQLite's 14.
    _PLAYED_MARKS,
    # 15: as SQLite's 15.
    _SHARES_OFF_GLOBAL,
    # 16: as SQLite's 16.
    _recent_pings("BIGINT"),
    _LANGUAGES,
    # 18: as SQLite's 18.
    _learned_answers("BIGINT"),
    # 19: as SQLite's 19.
    _GUIDED,
    # 20: as SQLite's 20.
    _WINNER_ROLE_POSTGRES,
    _ACHIEVEMENTS_POSTGRES,
    _share_imports("BIGINT"),
    _RESULT_LUCK,
    _LIVE_BOARDS,
    # 25: as SQLite's 25.
    _FORGOTTEN,
    # 26: as SQLite's 26.
    _SHARE_MOMENTS,
    # 27: as SQLite's 27.
    _WON_GAMES,
    # 28: as SQLite's 28.
    _answer_votes("BIGINT"),
    # 29: as SQLite's 29.
    _SHARES_APART,
    # 30: as SQLite's 30.
    _DIGEST_LEASES,
    # 31: as SQLite's 31.
    _WEB_PAGES,
    # 32: as SQLite's 32.
    _REQUEST_PACE,
)
assert POSTGRES_BASE + len(POSTGRES_MIGRATIONS) - 1 == LATEST, "a migration for each engine"

# Every table, parents before children: what `wordlebot db copy` moves, in this order.
TABLES = ("meta", "players", "guild_settings", "games", "daily_puzzles", "results",
          "standings", "share_results", "share_channels", "digests",
          "period_standings", "reminders", "races", "race_players", "race_standings",
          "challenges", "coop_games", "coop_rows", "coop_standings",
          "played_marks", "recent_pings", "nyt_answer_votes", "nyt_answers",
          "winner_roles", "achievements", "share_imports", "live_boards",
          "forgotten", "web_pages")  # fmt: skip
