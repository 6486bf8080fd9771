"""The interface's languages (bot/i18n): the catalogs against their template, plural forms
against CLDR, the reader's locale per task, negotiation from Discord's locales, numbers in
each locale, and the command tree's translator.

English is the source: a message is its own English text, and every other shipped locale
must translate each message of the template, keeping its placeholders."""

from __future__ import annotations

import asyncio
import contextvars
import gettext as gettext_module
import re
import string
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest
from babel import Locale as BabelLocale
from babel.messages.catalog import Catalog
from babel.numbers import get_decimal_symbol, parse_decimal
from discord.app_commands import TranslationContext, TranslationContextLocation, locale_str
from hypothesis import given
from hypothesis import strategies as st

import bot.i18n as i18n
from bot.i18n import (
    LOCALES,
    N_,
    SOURCE,
    _,
    catalog_path,
    current_locale,
    format_number,
    format_percent,
    negotiate,
    ngettext,
    npgettext,
    pgettext,
    set_locale,
    translations,
    use_locale,
)
from bot.i18n.extract import TEMPLATE, code_messages, keys, read, template, tree_messages, write
from bot.i18n.translator import CatalogTranslator

TRANSLATED = [locale for locale in LOCALES if locale != SOURCE]
# Discord's locales (discord.Locale) and the catalog each must read.
DISCORD = {
    "es-ES": "es", "es-419": "es", "pt-BR": "pt-BR", "fr": "fr", "de": "de", "it": "it",
    "pl": "pl", "en-US": "en", "en-GB": "en", "ja": "en", "ru": "en", "sv-SE": "en",
}  # fmt: skip


def catalog(locale: str) -> Catalog:
    return read(catalog_path(locale), locale.replace("-", "_"))


def placeholders(text: str) -> Counter[str]:
    """The named fields a message formats: ``{name}`` (``str.format``, the project's style,
    with any ``.attr``, ``[key]``, ``!r`` or ``:spec``) and ``%(name)s``. A positional field
    (``{}``, ``{0}``) counts as ``<positional>``: a translation could not reorder it. A stray
    brace makes the text unformattable: ``<broken>``."""
    found: Counter[str] = Counter()
    try:
        fields = [f for _text, f, _spec, _conv in string.Formatter().parse(text) if f is not None]
    except ValueError:
        return Counter({"<broken>": 1})
    for field in fields:
        name = re.split(r"[.\[]", field, maxsplit=1)[0]
        found["<positional>" if name == "" or name.isdigit() else name] += 1
    found.update(re.findall(r"%\((\w+)\)", text))
    return found


def placeholder_problems(msgid: str, msgstr: str) -> list[str]:
    source, translated = placeholders(msgid), placeholders(msgstr)
    problems = [f"{name} lost" for name in source if name not in translated]
    problems += [f"{name} added" for name in translated if name not in source]
    problems += [f"{name} is not a named field" for name in ("<positional>", "<broken>")
                 if name in source + translated]  # fmt: skip
    return problems


def test_the_placeholder_check_catches_what_breaks_a_translation() -> None:
    assert placeholder_problems("{count} left", "Zostało {count}") == []
    assert placeholder_problems("{player} won in {n}", "En {n}, {player} ganó") == []
    assert placeholder_problems("{count} left", "Zostało") == ["count lost"]
    assert placeholder_problems("{count} left", "{cuenta} quedan") == ["count lost", "cuenta added"]
    assert placeholder_problems("{user.name}", "{user.display_name}") == []  # the same field
    assert placeholder_problems("{count}", "{count") != []  # unformattable
    assert placeholder_problems("%(n)s left", "quedan %(m)s") != []
    assert placeholder_problems("{} left", "quedan {}") != []  # positional: refused
    assert placeholder_problems("win %, streaks", "% de victorias, rachas") == []


# The shipped catalogs against the template.


async def test_the_template_holds_every_message_of_the_tree_and_the_code() -> None:
    """bot/locales/wordlebot.pot is what `python -m bot.i18n.extract` makes now: a command,
    option or marked message added without extracting fails here."""
    fresh = template(await tree_messages(), code_messages())
    assert keys(read(TEMPLATE)) == keys(fresh)
    assert len(keys(fresh)) > 150  # the whole tree was walked


def test_the_extractor_reads_every_marker_of_the_code(tmp_path: Path) -> None:
    (tmp_path / "bot").mkdir()
    (tmp_path / "cogs").mkdir()
    (tmp_path / "bot" / "sample.py").write_text(
        "from bot.i18n import N_, _, ngettext, pgettext\n"
        'NO_GAME = N_("You have no game going.")\n'
        "def reply(n):\n"
        "    # Translators: the number of words still possible\n"
        '    return ngettext("{count} word left", "{count} words left", n)\n'
        'LABEL = pgettext("button", "Share")\n'
        'print(_("Hello {player}").format(player="x"))\n'
        'print("not marked")\n',
        encoding="utf-8",
    )
    found = {key: (where, comments) for key, where, _line, comments in code_messages(tmp_path)}
    assert set(found) == {
        (None, "You have no game going."),
        (None, ("{count} word left", "{count} words left")),
        ("button", "Share"),
        (None, "Hello {player}"),
    }
    assert found[(None, ("{count} word left", "{count} words left"))] == (
        "bot/sample.py",
        ["the number of words still possible"],
    )


def test_every_shipped_locale_has_its_catalog() -> None:
    assert LOCALES[0] == SOURCE == "en"
    assert set(TRANSLATED) == {"es", "pt-BR", "fr", "de", "it", "pl"}
    for locale in TRANSLATED:
        assert catalog_path(locale).is_file(), locale
        assert str(catalog(locale).locale) == locale.replace("-", "_")


def catalog_problems(shipped: Catalog, template_keys: set[tuple[object, object]]) -> list[str]:
    """Every message of the template in ``shipped``: translated, checked (not fuzzy), with
    the same named fields; plural messages with each of the language's forms; nothing the
    template no longer holds."""
    problems = []
    entries = {(m.context, m.id): m for m in shipped if m.id}
    problems += [f"{key}: missing" for key in template_keys - set(entries)]
    problems += [f"{key}: not in the template (python -m bot.i18n.extract --update)"
                 for key in set(entries) - template_keys]  # fmt: skip
    for key, message in entries.items():
        if "fuzzy" in message.flags:
            problems.append(f"{key}: fuzzy")
        given = message.string if isinstance(message.string, tuple) else (message.string,)
        strings = tuple(text or "" for text in given)
        if isinstance(message.id, tuple) and len(strings) != shipped.num_plurals:
            problems.append(f"{key}: {len(strings)} forms, the language has {shipped.num_plurals}")
        source = message.id[-1] if isinstance(message.id, tuple) else message.id
        for text in strings:
            problems += [f"{key}: {problem}" for problem in placeholder_problems(source, text)]
        if not all(strings):
            problems.append(f"{key}: untranslated")
    return problems


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_message_is_translated_with_its_placeholders(locale: str) -> None:
    assert catalog_problems(catalog(locale), set(keys(read(TEMPLATE)))) == []


def test_the_catalog_check_catches_each_fault() -> None:
    words = ("{count} word left", "{count} words left")
    expected = {(None, words), (None, "Hello {player}"), ("button", "Share")}

    def polish(changes: dict[tuple[str | None, object], object] | None = None) -> Catalog:
        entries = {(None, words): ("{count} słowo", "{count} słowa", "{count} słów"),
                   (None, "Hello {player}"): "Cześć {player}",
                   ("button", "Share"): "Udostępnij", **(changes or {})}  # fmt: skip
        sample = Catalog(locale="pl")
        for (context, message), text in entries.items():
            sample.add(message, text, context=context)
        return sample

    assert catalog_problems(polish(), expected) == []
    faulty = [
        polish({(None, words): ("{count} słowo", "{count} słów")}),  # two forms of three
        polish({(None, words): ("{count} słowo", "{count} słowa", "słów")}),  # count lost
        polish({(None, "Hello {player}"): "Cześć {gracz}"}),
        polish({(None, "Hello {player}"): ""}),
        polish({("button", "Share"): None}),
        polish({(None, "Share"): "Udostępnij"}),  # a context lost: a stale entry
    ]
    for sample in faulty:
        assert catalog_problems(sample, expected) != [], list(sample)
    fuzzy = polish()
    fuzzy[words].flags.add("fuzzy")
    assert catalog_problems(fuzzy, expected) == [f"{(None, words)}: fuzzy"]


def cldr_form(locale: str, n: int) -> int:
    """The form CLDR (an independent source: Babel's plural rules) says ``n`` takes, as the
    index of gettext's forms: Polish one/few/many, the others one/other. CLDR's "many" of
    Spanish, French, Italian and Portuguese (round millions, since CLDR 46) is gettext's
    "other" there."""
    category = BabelLocale.parse(locale.replace("-", "_")).plural_form(n)
    if locale == "pl":
        return {"one": 0, "few": 1}.get(category, 2)
    return 0 if category == "one" else 1


def plural_rule_faults(locale: str, count: int, rule: str) -> list[int]:
    """The counts from 0 to 200 for which gettext's ``rule`` picks another form than CLDR."""
    pick = gettext_module.c2py(rule)
    return [n for n in range(201) if not 0 <= pick(n) < count or pick(n) != cldr_form(locale, n)]


@pytest.mark.parametrize("locale", TRANSLATED)
def test_each_language_counts_as_cldr_says(locale: str) -> None:
    """Our Plural-Forms of each language against CLDR's rule, n = 0..200: Polish 1 słowo,
    2 słowa, 5 słów, 12 słów, 22 słowa; French and Brazilian 0 and 1 singular."""
    count, rule = i18n.PLURAL_FORMS[locale]
    assert count == {"pl": 3}.get(locale, 2)
    assert plural_rule_faults(locale, count, rule) == []


def test_the_plural_check_catches_a_wrong_rule() -> None:
    assert plural_rule_faults("pl", 3, "(n==1 ? 0 : n%10>=2 && n%10<=4 ? 1 : 2)") == [
        12, 13, 14, 112, 113, 114]  # fmt: skip
    assert plural_rule_faults("fr", 2, "(n != 1)") == [0]
    assert plural_rule_faults("es", 2, "(n > 1)") == [0]
    assert plural_rule_faults("pt-BR", 2, "(n != 1)") == [0]
    assert plural_rule_faults("de", 3, "(n != 1) ? 2 : 0") != []  # a form out of range


@pytest.mark.parametrize("locale", TRANSLATED)
def test_each_catalog_counts_plurals_as_its_language_does(locale: str) -> None:
    """The Plural-Forms header of each shipped catalog is ours, with every plural message in
    that many forms, whatever Babel's own table says; and it compiles."""
    assert i18n.plural_problems(catalog(locale), locale) == []
    assert translations(locale).ngettext("a", "b", 1) == "a"  # compiles and reads its header


def test_a_catalog_with_another_plural_rule_stops_the_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A catalog written by Babel's table (CLDR 46 gives French three forms) would count
    wrong: it is refused when loaded. A plural message missing a form shows in English, as
    an untranslated one does, never an empty form."""
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    translations.cache_clear()
    try:
        three = Catalog(locale="fr", domain=i18n.DOMAIN)
        three.mime_headers = [("Plural-Forms", "nplurals=3; plural=(n == 0 || n == 1) ? 0 : 2;")]
        three.add(WORDS_LEFT, ("a", "b", "c"))
        write(three, catalog_path("fr"))
        with pytest.raises(ValueError, match="Plural-Forms"):
            translations("fr")
        short = i18n.new_catalog("pl")
        short.add(WORDS_LEFT, ("{count} słowo", "{count} słowa"))
        write(short, catalog_path("pl"))
        with use_locale("pl"):
            said = [ngettext(*WORDS_LEFT, n) for n in (1, 2, 5)]
        assert said == [WORDS_LEFT[0], WORDS_LEFT[1], WORDS_LEFT[1]]
    finally:
        translations.cache_clear()


# Plurals and contexts, on a catalog of our own in each shipped language.

WORDS_LEFT = ("{count} word left", "{count} words left")
PLURALS = {
    "es": ("Queda {count} palabra", "Quedan {count} palabras"),
    "pt-BR": ("Resta {count} palavra", "Restam {count} palavras"),
    "fr": ("{count} mot restant", "{count} mots restants"),
    "de": ("{count} Wort übrig", "{count} Wörter übrig"),
    "it": ("Resta {count} parola", "Restano {count} parole"),
    "pl": ("Zostało {count} słowo", "Zostały {count} słowa", "Zostało {count} słów"),
}


@pytest.fixture
def sample_catalogs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """bot/locales replaced by catalogs holding one plural message and one word in two
    contexts, in every shipped language: the loading code is the bot's own."""
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    for locale, forms in PLURALS.items():
        sample = i18n.new_catalog(locale)
        sample.add(WORDS_LEFT, forms)
        sample.add("Share", f"Share [{locale}]")
        sample.add("Share", f"Share button [{locale}]", context="button")
        sample.add(("{count} guess", "{count} guesses"), ("g",) * sample.num_plurals,
                   context="stats")  # fmt: skip
        write(sample, catalog_path(locale))
    translations.cache_clear()
    yield
    translations.cache_clear()


@pytest.mark.parametrize("locale", sorted(PLURALS))
def test_ngettext_takes_the_form_the_language_takes(sample_catalogs, locale: str) -> None:
    """Every count from 0 to 999 (CLDR's "many" for millions left out): the form gettext's
    Plural-Forms picks is the one CLDR gives; Polish 1 słowo, 2 słowa, 5 słów, 22 słowa."""
    with use_locale(locale):
        for n in range(1000):
            assert ngettext(*WORDS_LEFT, n) == PLURALS[locale][cldr_form(locale, n)], n
            assert npgettext("stats", "{count} guess", "{count} guesses", n) == "g"


def test_polish_counts_in_three_forms_french_counts_zero_as_one(sample_catalogs) -> None:
    with use_locale("pl"):
        said = [ngettext(*WORDS_LEFT, n).format(count=n) for n in (1, 2, 5, 22, 25, 112)]
    assert said == ["Zostało 1 słowo", "Zostały 2 słowa", "Zostało 5 słów", "Zostały 22 słowa",
                    "Zostało 25 słów", "Zostało 112 słów"]  # fmt: skip
    with use_locale("fr"):
        said = [ngettext(*WORDS_LEFT, n).format(count=n) for n in (0, 1, 2)]
    assert said == ["0 mot restant", "1 mot restant", "2 mots restants"]
    said = [ngettext(*WORDS_LEFT, n).format(count=n) for n in (0, 1, 2)]  # English
    assert said == ["0 words left", "1 word left", "2 words left"]


def test_a_context_tells_the_same_english_apart(sample_catalogs) -> None:
    with use_locale("de"):
        assert _("Share") == "Share [de]"
        assert pgettext("button", "Share") == "Share button [de]"
        assert pgettext("elsewhere", "Share") == "Share"  # no such entry: the English
    assert (_("Share"), pgettext("button", "Share")) == ("Share", "Share")


def test_a_marked_constant_is_translated_where_it_is_shown(sample_catalogs) -> None:
    SHARE = N_("Share")  # at import: no locale yet, the English kept
    assert SHARE == "Share"
    with use_locale("it"):
        assert _(SHARE) == "Share [it]"


# The compiled catalogs a start reads back from the cache folder.


def test_a_start_reads_the_compiled_catalog_and_never_a_stale_one(
    sample_catalogs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A catalog is compiled once and kept in the cache folder (a start reads it back rather
    than parsing every .po anew); a changed .po is compiled again, never served from the
    compiled copy of its old text, and its old text's copy is still found by that text."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("WORDLEBOT_CACHE_DIR", str(cache))

    def share_in_german() -> str:
        translations.cache_clear()  # as a new process would
        with use_locale("de"):
            return _("Share")

    assert share_in_german() == "Share [de]"
    [first] = cache.glob("catalog-de-*.mo")
    with first.open("rb") as compiled:
        assert gettext_module.GNUTranslations(compiled).gettext("Share") == "Share [de]"
    sample = catalog_path("de").read_bytes()
    changed = i18n.new_catalog("de")
    changed.add("Share", "Teilen")
    write(changed, catalog_path("de"))
    assert share_in_german() == "Teilen"
    assert len(list(cache.glob("catalog-de-*.mo"))) == 2
    catalog_path("de").write_bytes(sample)
    assert share_in_german() == "Share [de]"
    assert len(list(cache.glob("catalog-de-*.mo"))) == 2


def test_a_cache_that_cannot_be_written_still_translates(
    sample_catalogs, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The compiled copy is a saving, not a need: where the cache folder cannot be made (a
    file stands at its path) every catalog is compiled in memory, as checked as ever."""
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("")
    monkeypatch.setenv("WORDLEBOT_CACHE_DIR", str(blocked))
    translations.cache_clear()
    with use_locale("pl"):
        assert ngettext(*WORDS_LEFT, 5) == PLURALS["pl"][2]
        assert pgettext("button", "Share") == "Share button [pl]"


# The reader's locale.


def test_with_no_locale_set_messages_are_english() -> None:
    fresh = contextvars.Context()  # as a new task or thread with nothing set
    assert fresh.run(current_locale) == "en"
    assert fresh.run(pgettext, "command name", "stats") == "stats"
    assert fresh.run(_, "Unknown message {x}") == "Unknown message {x}"
    with use_locale("es"):
        assert pgettext("command name", "stats") == "estadísticas"  # the shipped catalog
        assert _("Unknown message {x}") == "Unknown message {x}"  # not in it: the English


def test_use_locale_sets_the_block_and_restores_what_was_there() -> None:
    assert current_locale() == "en"
    with use_locale("pl") as chosen:
        assert chosen == current_locale() == "pl"
        with use_locale("es-419") as inner:
            assert inner == current_locale() == "es"
        assert current_locale() == "pl"
        with pytest.raises(RuntimeError), use_locale("de"):
            raise RuntimeError
        assert current_locale() == "pl"
    assert current_locale() == "en"


async def test_a_locale_set_in_one_task_does_not_reach_another() -> None:
    """Two interactions at once: each task keeps its own reader's language, the handler
    that started them keeps its own, and work sent to a thread keeps the task's."""
    polish_set, german_set = asyncio.Event(), asyncio.Event()
    seen: dict[str, list[str]] = {"pl": [], "de": []}

    async def player(code: str, mine: asyncio.Event, other: asyncio.Event) -> None:
        seen[code].append(current_locale())  # before setting: the creator's (English)
        set_locale(code)
        mine.set()
        await other.wait()  # the other task has set its own meanwhile
        seen[code].append(current_locale())
        seen[code].append(await asyncio.to_thread(current_locale))
        seen[code].append(await asyncio.to_thread(pgettext, "command name", "stats"))

    await asyncio.gather(player("pl", polish_set, german_set), player("de", german_set, polish_set))
    assert seen == {"pl": ["en", "pl", "pl", "statystyki"], "de": ["en", "de", "de", "statistik"]}
    assert current_locale() == "en"


def test_each_discord_locale_reads_its_catalog() -> None:
    assert {code: negotiate(code) for code in DISCORD} == DISCORD
    assert set(DISCORD) <= {locale.value for locale in discord.Locale}
    for locale in discord.Locale:  # every one Discord has: a shipped catalog, by language
        chosen = negotiate(locale.value)
        assert chosen in LOCALES
        assert chosen == "en" or chosen.split("-")[0] == locale.value.split("-")[0]


def test_negotiation_reads_other_spellings_and_falls_back_to_english() -> None:
    cases = {"pt_BR.UTF-8": "pt-BR", "pt-PT": "pt-BR", "pt": "pt-BR", "de_AT": "de",
             "FR-ca": "fr", "pl_PL@euro": "pl", "C": "en", "POSIX": "en", "": "en", None: "en",
             "zh-TW": "en", "english": "en"}  # fmt: skip
    assert {code: negotiate(code) for code in cases} == cases


@given(st.text(max_size=20))
def test_negotiation_always_names_a_shipped_locale(code: str) -> None:
    assert negotiate(code) in LOCALES


# Numbers.


def test_numbers_take_the_locales_decimal_mark_and_grouping() -> None:
    said = {}
    for locale in LOCALES:
        with use_locale(locale):
            said[locale] = (format_number(12345.678, 2), format_number(2.3), format_percent(0.456))
    assert said["en"] == ("12,345.68", "2", "46%")
    assert said["de"] == ("12.345,68", "2", "46\u00a0%")
    assert said["fr"] == ("12\u202f345,68", "2", "46\u00a0%")
    assert said["pt-BR"][0] == said["es"][0] == said["it"][0] == "12.345,68"
    assert said["pl"][0] == "12\u00a0345,68"
    with use_locale("fr"):
        assert format_percent(0.4567, 1) == "45,7\u00a0%"


@given(st.sampled_from(LOCALES), st.decimals(min_value=-(10**9), max_value=10**9, places=2))
def test_a_formatted_number_reads_back_as_itself(locale: str, value) -> None:
    with use_locale(locale):
        shown = format_number(float(value), 2)
    assert parse_decimal(shown, locale=locale.replace("-", "_")) == value
    assert shown.count(get_decimal_symbol(locale.replace("-", "_"))) == 1


# The command tree's translator.


def context(location: TranslationContextLocation) -> TranslationContext:
    return TranslationContext(location=location, data=None)


async def test_the_translator_reads_the_catalog_by_place() -> None:
    translator = CatalogTranslator()
    await translator.load()
    name = context(TranslationContextLocation.command_name)
    choice = context(TranslationContextLocation.choice_name)

    async def say(text: str, locale: discord.Locale, where: TranslationContext) -> str | None:
        return await translator.translate(locale_str(text), locale, where)

    assert await say("stats", discord.Locale.spain_spanish, name) == "estadísticas"
    assert await say("stats", discord.Locale.latin_american_spanish, name) == "estadísticas"
    assert await say("stats", discord.Locale.polish, name) == "statystyki"
    # The same English, two places: a subcommand's name is lower case (in German the same
    # as in English, so Discord shows the default), a choice's need not be.
    assert await say("server", discord.Locale.german, name) is None
    assert await say("server", discord.Locale.german, choice) == "Server"
    # None where Discord should show the English: English itself, a language we do not ship,
    # a string no catalog holds, a tree string asked for at run time (no place).
    assert await say("stats", discord.Locale.british_english, name) is None
    assert await say("stats", discord.Locale.japanese, name) is None
    assert await say("no such command", discord.Locale.french, name) is None
    assert (
        await say("stats", discord.Locale.french, context(TranslationContextLocation.other)) is None
    )
    assert await say("wordle", discord.Locale.french, name) is None  # translated as itself
