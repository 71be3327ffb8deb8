"""Time words of other languages in a question, written in English so :mod:`.timewords` reads them:
"letzten Dienstag", "mardi dernier", "el martes pasado" → "last Tuesday"; "am 1. Dezember", "le 1er
décembre", "el 1 de diciembre" → "1 December", "am 24. November" → "24 November"; "12月1日" → "December 1".
Month and weekday names come from dateparser's language data (German, French, Spanish, Portuguese,
Italian, Dutch); the words for "last" are ours. A month is read only beside a day or a year, a weekday only
beside a word for "last": alone they may be a name ("Domingo", "Mai"). In a question naming such a time, the
words it is asked with are written in English too ("Qu'avons-nous décidé le 1er décembre ?" → "what have-we
decided the 1 December ?"), so it is read as its English twin is; other words stay as written."""

from __future__ import annotations

import re
from functools import cache

from .timefmt import MONTH_NAMES as _MONTHS, WEEKDAY_NAMES as _WEEKDAYS

_LANGUAGES = ("de", "fr", "es", "pt", "it", "nl")
# Japanese particles (what "the", "on", a question mark are), where no other kana touches them
# ("何を決めましたか").
_PARTICLES = re.compile("(?<![\u3040-\u309f])[にをかはがでのへと](?![\u3040-\u309f])")
# The word before a day of the month in the languages above (an English month after it is of that language).
_LEAD = re.compile(r"(?<!\w)(?:op|le|el|il|em|au)\s+$", re.IGNORECASE)
# A day and month in digits with dots, without a year ("am 24.11."): after a word leading to a day (German's
# make the question German) or opening the question, never after another ("OpenSearch 2.11." is a version).
_DAY_MONTH = re.compile(r"(?:^|(?<![\w.])(am|vom|zum|seit|bis|ab|zwischen|und|on|since|until|till|by|before|after"
                        r"|from|between|and|to|through)\s+)(\d{1,2})\.(\d{1,2})\.(?![\w.])", re.IGNORECASE)
_GERMAN_LEAD = frozenset("am vom zum seit bis ab zwischen und".split())
# A weekday of a week counted from now in Japanese ("先週の火曜日": Tuesday last week).
_JAPANESE_WEEK = re.compile("(先週|今週|来週)の?([月火水木金土日])曜日?")
_JAPANESE_WEEKS = {"先週": "last", "今週": "this", "来週": "next"}
_JAPANESE_DAYS = "月火水木金土日"  # Monday first
# English month names and their abbreviations, read after a day of another language's form ("am 24. Nov.").
_ENGLISH = {form: month for month in _MONTHS for form in (month, month[:3])} | {"sept": "september"}
# "last" before or after the noun, and the nouns for a week and a month.
_LAST = ("letzten letzte letzter letztes vergangenen vergangene vergangener dernier dernière passé passée "
         "pasado pasada último última passado passada scorso scorsa vorige vorig afgelopen").split()
_UNITS = {"week": "woche semaine semana settimana", "month": "monat mois mes mês mese maand"}
# The words a question is asked with, by their English: written in English in a question naming a time in one
# of these languages, so it reads as its English twin does (its function words are no subject; "décidé",
# "entschieden" ask for decisions, and in the past). Ours; a word of several languages takes one English word.
_ASKING = {
    "what": "was wat qu' que qué quoi cosa che 何",
    "when": "wann quand cuándo quando wanneer いつ",
    "who": "wer qui quién quem chi wie 誰",
    "which": "welche welcher welches welchen quel quelle quels quelles cuál cuáles qual quale quali welk welke",
    "we": "wir nous nosotros nosotras nós noi 私たち",
    "i": "ich je j' yo eu io ik 私",
    "you": "du ihr tu vous usted ustedes você vocês voi jij",
    "they": "sie ils elles ellos ellas eles elas loro zij ze",
    "our": "unser unsere unseren unserem notre nos nuestro nuestra nuestros nosso nossa nostro nostra nostri ons"
           " onze",
    "the": "der die das den dem le la les l' el los las o os il lo gli het",
    "it": "ce c' ça cela",
    "a": "ein eine einen einem un une uno una um uma een",
    "of": "von vom des du d' de del do da dos di dei della van",
    "on": "am an auf op",
    "in": "im dans en em nel nella",
    "there": "er",
    "have": "haben hat habe habt hast avons avez ont ai hemos han ha he habéis temos tem têm abbiamo avete hanno ho"
            " hai hebben heeft hebt heb",
    # "ist passiert", "est arrivé": the participle after it tells the tense
    "has": "ist sind est sont es está están é são è sono zijn",
    "was": "war waren hatten hatte était étaient avait avions fue fueron era eram foi erano fu",
    "decided": "entschieden beschlossen décidé décidée décidés décidées decidimos decidió decidieron decidiste"
               " decidido decidida decidiu decidiram deciso decisa decisi decise decidemmo besloten besliste"
               " beslisten 決めました 決定しました",
    "happened": "passiert geschehen passé arrivé pasó ocurrió sucedió aconteceu ocorreu successo accaduto capitato"
                " gebeurd 起きました 起こりました",
    "failed": "fehlgeschlagen gescheitert échoué falló fallaron falhou falharam fallito fallita mislukt 失敗しました",
    "broke": "kaputt cassé rompió quebrou rotto kapot",
    "deployed": "deployt ausgerollt déployé desplegamos desplegado implantamos implantado uitgerold",
    "shipped": "ausgeliefert geliefert livré entregamos entregado consegnato geleverd",
    "released": "veröffentlicht publié lanzamos lanzado publicamos publicado lançamos lançado rilasciato pubblicato"
                " uitgebracht リリースしました",
    "changed": "geändert changé modifié cambiamos cambiado mudamos mudado alterado cambiato modificato veranderd"
               " gewijzigd 変更しました",
    "done": "gemacht getan fait hicimos hecho fizemos feito fatto gedaan",
    "met": "getroffen rencontré reunimos incontrato ontmoet",
    "planned": "geplant prévu planifié planeamos planificado planejamos planejado pianificato previsto gepland",
}


@cache
def _names() -> tuple[dict[str, str], dict[str, str]]:
    """({foreign month form: English month}, {foreign weekday name: English weekday}), lower case: of a
    month its forms of four letters or more, its full name and German's short forms ("Dez.", "Okt.", none an
    English word); of a weekday its names of five or more."""
    from importlib import import_module

    months: dict[str, str] = {}
    weekdays: dict[str, str] = {}
    for language in _LANGUAGES:
        info = import_module(f"dateparser.data.date_translation_data.{language}").info
        for month in _MONTHS:
            forms = [f.lower() for f in info.get(month, [])]
            months.update((f, month) for f in forms if len(f) >= 4 or f == max(forms, key=len) or language == "de")
        for day in _WEEKDAYS:
            weekdays.update((f.lower(), day) for f in info.get(day, []) if len(f) >= 5)
    for english in _MONTHS + _WEEKDAYS:
        months.pop(english, None)
        weekdays.pop(english, None)
    return months, weekdays


def _unspaced(word: str) -> bool:
    """Whether ``word`` is of a script written without spaces between words (kana, kanji)."""
    return any("\u3040" <= ch <= "\u9fff" for ch in word)


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    months, weekdays = _names()

    def alternation(words: object) -> str:
        return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))  # type: ignore[call-overload]

    # An English month name too after a day of another language's form ("am 24. November").
    month, last = alternation([*months, *_ENGLISH]), alternation(_LAST)
    nouns = alternation([*weekdays, *(w for words in _UNITS.values() for w in words.split())])
    dated = re.compile(
        rf"(?<![\w.])(?:(\d{{1,2}})(\.|er|º|°)?\s+(de\s+|di\s+|del\s+)?({month})\.?"
        rf"(?:,?\s+(?:de\s+|del\s+)?(\d{{4}}))?"
        rf"|({month})\.?\s+(\d{{4}}))(?![\w-])", re.IGNORECASE)
    relative = re.compile(rf"(?<![\w-])(?:({last})\s+({nouns})|({nouns})\s+({last}))(?![\w-])", re.IGNORECASE)
    cjk = re.compile(r"(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*日")
    words = sorted((w for ws in _ASKING.values() for w in ws.split()), key=len, reverse=True)
    spaced = "|".join(re.escape(w).replace("'", "['’]") for w in words if not _unspaced(w))
    asking = re.compile(rf"(?<!\w)(?:{spaced})(?:(?<=['’])|(?![\w'’]))|"
                        + "|".join(re.escape(w) for w in words if _unspaced(w)), re.IGNORECASE)
    return dated, relative, cjk, asking


def in_english(query: str) -> str:
    """``query`` with the time phrases of the languages above written in English, and where it holds one
    the words it is asked with (``_ASKING``); the rest unchanged."""
    months, weekdays = _names()
    dated, relative, cjk, asking = _patterns()
    units = {w: unit for unit, words in _UNITS.items() for w in words.split()}
    said = {w.replace("’", "'"): english for english, words in _ASKING.items() for w in words.split()}
    foreign = False

    def english(word: str) -> str:
        nonlocal foreign
        word = word.lower()
        foreign = foreign or word not in _ENGLISH
        return _ENGLISH.get(word) or months.get(word) or weekdays.get(word) or units[word]

    def date(found: re.Match[str]) -> str:
        if found[6]:
            return found[0] if found[6].lower() in _ENGLISH else f"{english(found[6]).title()} {found[7]}"
        nonlocal foreign
        if found[4].lower() in _ENGLISH and not (found[2] or found[3]):
            # "op 24 november" is Dutch; "on 24 November" English as written
            foreign = foreign or _LEAD.search(found.string, 0, found.start()) is not None
            return found[0]
        foreign = True  # "am 24. November"
        return f"{found[1]} {english(found[4]).title()}" + (f" {found[5]}" if found[5] else "")

    def last(found: re.Match[str]) -> str:
        return f"last {english(found[2] or found[3]).title()}"

    def asked(found: re.Match[str]) -> str:  # "qu'avons" → "what have", "決めました" → " decided "
        word = said[found[0].lower().replace("’", "'")]
        return f" {word} " if _unspaced(found[0]) else word + (" " if found[0][-1] in "'’" else "")

    def day(found: re.Match[str]) -> str:
        nonlocal foreign
        foreign = True
        return f" {_MONTHS[int(found[2]) - 1].title()} {found[3]}" + (f", {found[1]} " if found[1] else " ")

    def day_month(found: re.Match[str]) -> str:
        nonlocal foreign
        if not (1 <= int(found[2]) <= 31 and 1 <= int(found[3]) <= 12):
            return found[0]
        foreign = foreign or (found[1] or "").lower() in _GERMAN_LEAD
        return f"{found[1] or ''} {found[2]} {_MONTHS[int(found[3]) - 1].title()}".lstrip()

    def week(found: re.Match[str]) -> str:
        nonlocal foreign
        foreign = True
        weekday = _WEEKDAYS[_JAPANESE_DAYS.index(found[2])].title()
        return f" {weekday} {_JAPANESE_WEEKS[found[1]]} week "

    query = _JAPANESE_WEEK.sub(week, _DAY_MONTH.sub(day_month, query))
    query = cjk.sub(lambda f: day(f) if 1 <= int(f[2]) <= 12 else f[0], query)
    query = relative.sub(last, dated.sub(date, query))
    if not foreign:
        return query
    return _PARTICLES.sub(" ", asking.sub(asked, query))
