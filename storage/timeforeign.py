"""Time words of other languages in a question, written in English so :mod:`.timewords` reads them:
"letzten Dienstag", "mardi dernier", "el martes pasado" → "last Tuesday"; "diese Woche", "今週" → "this week";
"seit Montag", "desde el lunes" → "since Monday"; "am 1. Dezember", "le 1er
décembre", "el 1 de diciembre" → "1 December", "am 24. November" → "24 November"; "12月1日" → "December 1".
Month and weekday names come from dateparser's language data (German, French, Spanish, Portuguese,
Italian, Dutch); the words for "last" are ours. A month is read only beside a day or a year, a weekday only
beside a word for "last" or before a day ("Dienstag, 24."): alone they may be a name ("Domingo", "Mai"). In a
question naming such a time, or any date with two words asking it of one of these languages, the words it is
asked with are written in English too ("Qu'avons-nous décidé le 1er décembre ?" → "what have-we decided on 1
December ?", "Was wurde am 24.11.2026 beschlossen?" → "what was on 24.11.2026 decided?"), and a word leading to
a day is written "on" ("O que foi decidido em 11/03?" → "the what was decided on 11/03?"), so it is read as its
English twin is; other words stay as written."""

from __future__ import annotations

import re
from datetime import datetime
from functools import cache

from .query import STOP_WORDS
from .timefmt import MONTH_NAMES as _MONTHS, WEEKDAY_NAMES as _WEEKDAYS

_LANGUAGES = ("de", "fr", "es", "pt", "it", "nl")
# Japanese particles (what "the", "on", a question mark are), one or a run of them ("には", "のは") where no
# other kana touches them ("何を決めましたか", "3月11日には").
_PARTICLES = re.compile("(?<![\u3040-\u309f])[にをかはがでのへとも]+(?![\u3040-\u309f])")
# A day and month in digits with dots, perhaps a year of two digits ("am 24.11.", "am 24.11.26"): after a word
# leading to a day or opening the question, never after another ("OpenSearch 2.11." is a version).
_DAY_MONTH = re.compile(r"(?:^|(?<![\w.])(am|vom|zum|seit|bis|ab|zwischen|und|oder|on|since|until|till|by|before|after"
                        r"|from|between|and|to|through)\s+)(\d{1,2})\.(\d{1,2})\.(\d\d(?![\w.]))?(?![\w.])",
                        re.IGNORECASE)
# A date in digits, of no language ("24.11.2026", "2026-11-24", "24/11", "12/1/26"; not "2.11", a version).
_DIGIT_DATE = re.compile(r"(?<![\w.])(?:\d{1,4}([./-])\d{1,2}\1\d{1,4}|\d{1,2}/\d{1,2})(?!\w|\.\w)")
# A weekday of a week counted from now in Japanese ("先週の火曜日": Tuesday last week).
_JAPANESE_WEEK = re.compile("(先週|今週|来週)の?([月火水木金土日])曜日?")
_JAPANESE_WEEKS = {"先週": "last", "今週": "this", "来週": "next"}
# A week or month counted from now in Japanese, alone ("今週何をしましたか": what did we do this week?).
_JAPANESE_PERIOD = re.compile("(先|今|来)(週|月)(?!の?[月火水木金土日]曜)")
_JAPANESE_PERIODS = {"先": "last", "今": "this", "来": "next", "週": "week", "月": "month"}
_JAPANESE_DAYS = "月火水木金土日"  # Monday first
# Days counted from today, read where a weekday alone is; the French "hier" only in a question with a word
# only French writes (``_FRENCH``): it is German and Dutch for "here".
_DAYS_SAID = {word: english for english, words in (
    ("yesterday", ("gestern", "ayer", "ontem", "ieri", "gisteren", "hier", "昨日")),
    ("day before yesterday", ("vorgestern", "anteayer", "anteontem", "avant-hier", "l'altro ieri", "eergisteren",
                              "一昨日", "おととい")),
    ("today", ("heute", "hoy", "hoje", "oggi", "vandaag", "aujourd'hui", "今日"))) for word in words}
# Italian "since", written "since" (as "seit", "depuis", "desde" are): "da", "dal", "dalla" or "dall'", perhaps after
# "a partire" ("starting from"), before a weekday, "ieri", a day and month or a period ("da mercoledì", "dal 3
# dicembre", "dalla settimana scorsa", "dall'altro ieri"); before anything else it stays ("da Milano", "Dal Monte",
# "da 3 vagoni").
# Portuguese "da" is "of the", before a "-feira" day: not read so.
_ITALIAN_DAYS = "lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica"
_ITALIAN_SINCE = re.compile(rf"(?<![\w'’])(?:a\s+partire\s+)?(?:da|dal|dalla|dall['’](?=altro\s))\s*"
                            rf"(?=(?:{_ITALIAN_DAYS}|ieri|altro\s+ieri|l['’]altro\s+ieri|settimana|mese|anno)(?![\w'’])"
                            rf"|\d{{1,2}}\s+(?:gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre"
                            rf"|ottobre|novembre|dicembre)(?![\w'’]))", re.IGNORECASE)
_FRENCH = re.compile(r"(?<![\w'’])(?:qu['’]|quoi|quand|où|pourquoi|nous|vous|avons|avez|était|été|est-ce|c['’]est"
                     r"|déployé|décidé|fait|passé|arrivé|changé|livré|publié)(?![\w'’])", re.IGNORECASE)
# English month names and their abbreviations, read after a day of another language's form ("am 24. Nov.").
_ENGLISH = {form: month for month in _MONTHS for form in (month, month[:3])} | {"sept": "september"}
# "last" before or after the noun, and the nouns for a week and a month.
_LAST = ("letzten letzte letzter letztes letztem vergangenen vergangene vergangener vergangenes vergangenem vorigen "
         "vorigem voriger voriges dernier dernière passé passée "
         "pasado pasada último última passado passada scorso scorsa vorige vorig afgelopen").split()
# "this" before the noun ("diese Woche", "cette semaine", "esta semana", "deze week").
_THIS = "diese diesen dieser dieses cette ce este esta questa questo deze dit".split()
_UNITS = {"week": "woche semaine semana settimana week", "month": "monat mois mes mês mese maand"}
# The words for "and" and "or" between two days (the Dutch "en", "of"; the Spanish "o"): ``between`` below.
_JOINS = {"und": "and", "et": "and", "y": "and", "e": "and", "en": "and", "oder": "or", "ou": "or", "o": "or",
          "of": "or"}
# The words leading to a day ("am", "le", "el", "il", "l'", "em", "no dia", "op"; "vom", "du", "do dia"; "los días",
# "nos dias", "les" before days listed: "los días 3 y 5 de noviembre"), perhaps
# with the word for "day", written "on" or "of" before a date, in English words by then ("em 11/03", "no dia 1
# December"): English reads a date in digits only after such a word, and "no", "dia" are no subject.
_ON_DAY = "am le les el los il l' all' em no na nos nas op"
_OF_DAY = "vom du del do da dal dell' della van"
_DAY_NOUNS = "tag tage jour jours día días dia dias giorno giorni dag dagen"
# The words a question is asked with, by their English: written in English in a question naming a time in one
# of these languages, so it reads as its English twin does (its function words are no subject; "décidé",
# "entschieden" ask for decisions, and in the past). Ours; a word of several languages takes one English word.
# A Japanese polite past ("決めました") is written plain too ("決めた": ``_asked``).
_ASKING = {
    "what": "was wat qu' que qué quoi cosa che 何 こと",  # "決まったこと": what was decided
    "when": "wann quand cuándo quando wanneer いつ",
    "where": "wo où dónde onde waar",
    "why": "warum wieso weshalb pourquoi perché waarom",
    "may": "darf dürfen",  # German modal verbs, which open a question as "may", "can" ... do
    "can": "kann können",
    "should": "soll sollen",
    "must": "muss müssen",
    "who": "wer qui quién quem chi wie 誰",
    "which": "welche welcher welches welchen welchem quel quelle quels quelles cuál cuáles qual quale quali welk"
             " welke",
    "we": "wir nous nosotros nosotras nós noi 私たち",
    "i": "ich je j' yo eu io ik 私",
    "you": "du ihr tu vous usted ustedes você vocês voi jij",
    "they": "sie ils elles ellos ellas eles elas loro zij ze",
    "our": "unser unsere unseren unserem notre nos nuestro nuestra nuestros nosso nossa nostro nostra nostri ons"
           " onze",
    "the": "der die das den dem le la les l' el los las o os il lo gli het",
    "it": "ce c' ça cela se si",  # "se decidió", "si è deciso": it was decided
    "a": "ein eine einen einem un une uno una um uma een",
    "of": "von vom des du d' de del do da dos di dei della van",
    "on": "am an auf op",
    "since": "seit seitdem depuis desde sinds",  # "seit Montag", "depuis lundi", "desde el lunes": since Monday
    "until": "bis jusqu'à hasta até",
    "in": "im dans en em nel nella",
    "there": "er ci",  # "was er", "ci sono": there are
    "and": "und et y e",
    "have": "haben hat habe habt hast avons avez ont ai hemos han ha he habéis temos tem têm abbiamo avete hanno ho"
            " hai hebben heeft hebt heb",
    # "ist passiert", "est arrivé": the participle after it tells the tense
    # "gibt es", "hay", "há": there is
    "has": "ist sind est sont es está están é são è sono zijn gibt hay há です あります",
    # "gab es", "hubo", "houve": there was
    "was": "war waren wurde wurden werd hatten hatte était étaient avait avions fue fueron era eram foi erano"
           " fu gab hubo houve でした ありました",
    "been": "worden gewesen gegeben été sido habido havido stato stata stati state",
    "decided": "entschieden beschlossen décidé décidée décidés décidées decidió decidieron decidiste"
               " decidido decidida decidiu decidiram deciso decisa decisi decise decidemmo besloten besliste"
               " beslisten 決めました 決定しました 決まりました",
    # "Welche Entscheidung fiel", "a été prise", "decisión tomada", "è stata presa", "genomen"
    "made": "fiel getroffen prise pris prises tomada tomado tomadas tomados tomó tomaron tomou tomámos tomaram presa"
            " prese preso"
            " genomen",
    "decisions": "entscheidung entscheidungen décision décisions decisión decisiones decisão decisões decisione"
                 " decisioni beslissing beslissingen besluit besluiten 決定事項 決定 決断",
    "happened": "passiert geschehen passé arrivé pasó ocurrió sucedió aconteceu ocorreu successo accaduto capitato"
                " gebeurd 起きました 起こりました",
    "failed": "fehlgeschlagen gescheitert échoué falló fallaron falhou falharam fallito fallita mislukt 失敗しました",
    "broke": "kaputt cassé rompió quebrou rotto kapot",
    "deployed": "deployt ausgerollt déployé desplegado desplegué desplegó desplegaron implantámos implantado implantei"
                " implantou implantaram uitgerold",
    "shipped": "ausgeliefert geliefert livré entregado entregó entregaron entregou entregaram consegnato geleverd",
    "released": "veröffentlicht publié lanzado lanzó lanzaron publicó publicaron publicámos publicado publicou"
                " publicaram lançámos lançado lançou lançaram rilasciato pubblicato uitgebracht リリースしました",
    "changed": "geändert changé modifié cambiado cambió cambiaron mudámos mudado mudou mudaram alterado alterou"
               " alteraram cambiato modificato veranderd gewijzigd 変更しました",
    "done": "gemacht getan fait hecho feito fatto gedaan",
    "did": "hice hizo hicimos hicieron fiz fez fizemos fizeram",  # preterites alone: "¿Qué hicimos el martes?"
    "met": "getroffen rencontré incontrato ontmoet",
    "planned": "geplant prévu planifié planificado planificó planearon planeó planeámos planejámos planejou"
               " planejaram planejado pianificato previsto gepland",
    # A Spanish or Brazilian first person plural of an -ar or -ir verb is its present and its preterite alike
    # ("desplegamos": we deploy, or deployed), so it takes the English present: only another word tells the
    # past ("desplegamos el viernes" is a habit, "el viernes pasado" a day). Portugal's preterite is accented.
    "deploy": "desplegamos implantamos",
    "decide": "decidimos",
    "make": "tomamos",
    "ship": "entregamos",
    "release": "lanzamos publicamos lançamos",
    "change": "cambiamos mudamos",
    "meet": "reunimos",
    "plan": "planeamos planejamos",
}


@cache
def _names() -> tuple[dict[str, str], dict[str, str]]:
    """:func:`names_from_dateparser`, as kept in ``time_names.json`` for the installed dateparser's version
    (importing dateparser weighed on every prompt hook: docs/hooks.md#speed); read from
    dateparser itself, and said in the log, when another version is installed."""
    import json
    from pathlib import Path

    from .installed import version

    kept = json.loads(Path(__file__).with_name("time_names.json").read_text(encoding="utf-8"))
    installed = version("dateparser", "dateparser", "__init__.py", "__version__")
    if kept["dateparser"] == installed:
        return kept["months"], kept["weekdays"]
    import logging

    logging.getLogger(__name__).info("time_names.json is dateparser %s's, %s is installed: its names are read "
                                     "from dateparser", kept["dateparser"], installed)
    return names_from_dateparser()


def names_from_dateparser() -> tuple[dict[str, str], dict[str, str]]:
    """({foreign month form: English month}, {foreign weekday name: English weekday}), lower case, from
    dateparser's language data: of a month its forms of four letters or more, its full name and German's
    short forms ("Dez.", "Okt.", none an English word); of a weekday its names of five or more. Write
    ``time_names.json`` again when dateparser changes (``tests/test_time_names.py`` says how)."""
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


def month_or_weekday(word: str) -> bool:
    """Whether ``word`` is a month's or a weekday's name (:func:`_names`) of a language read here or of English."""
    folded = word.casefold()
    months, weekdays = _names()
    return folded in months or folded in weekdays or folded in _ENGLISH or folded in _WEEKDAYS


def _unspaced(word: str) -> bool:
    """Whether ``word`` is of a script written without spaces between words (kana, kanji)."""
    return any("\u3040" <= ch <= "\u9fff" for ch in word)


@cache
def _asked() -> dict[str, str]:
    """{a word of ``_ASKING``, lower case: its English}, with each Japanese polite past also written plain
    ("決めました" → "決めた", "起こりました" → "起こった")."""
    said = {w: english for english, words in _ASKING.items() for w in words.split()}
    plain = {(w[:-4] + "った" if w.endswith("りました") else w[:-3] + "た"): english
             for w, english in said.items() if w.endswith("ました")}
    return said | plain


# Words of ``_ASKING`` that English writes too ("hat", "war"), and the English of those that do not tell a
# question's language (articles, prepositions: "de la Cruz", "van der Berg"): no sign of another language.
_ALSO_ENGLISH = STOP_WORDS | {"hat", "war", "era"}
_PARTICLE = frozenset("the of on in a it there".split())


# A word with a Latin letter English does not write ("läuft", "heißt", "está"): with one word of ``_ASKING``,
# the sign of another language that a second such word is.
_ACCENTED = re.compile(r"(?<!\w)(?=\w*[À-ÖØ-öø-ÿĀ-ſ])[^\W\d_]+(?!\w)")


def _another_language(query: str, asking: re.Pattern[str]) -> bool:
    """Whether ``query`` holds two words of ``_ASKING`` that English does not write, one of them more than an
    article or a preposition ("Was wurde am ... beschlossen?", "décisions du ..."), or one such word that is
    more and another word with a letter English does not write ("Wo läuft Memcached?") or Spanish's opening
    "¿" or "¡"."""
    said = _asked()
    found = {w for w in (m[0].lower().replace("’", "'") for m in asking.finditer(query)) if w not in _ALSO_ENGLISH}
    asked = any(said[w] not in _PARTICLE for w in found)
    if len(found) >= 2:
        return asked
    return asked and ("¿" in query or "¡" in query or any(m[0].lower() not in found for m in _ACCENTED.finditer(query)))


def another_language(query: str) -> bool:
    """Whether ``query`` is asked in one of the languages above (:func:`_another_language`): "Wo läuft die
    Datenbank?", "Wie heißt der Build-Server?"."""
    return _another_language(query, _patterns()[6])


@cache
def _patterns() -> tuple[re.Pattern[str], ...]:
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
    this = re.compile(rf"(?<![\w-])({alternation(_THIS)})\s+({nouns})(?![\w-])", re.IGNORECASE)
    # A weekday before a day of the month ("Dienstag, dem 24", "el martes 24 de", "mardi 24.11.").
    before_day = re.compile(rf"(?<![\w-])({alternation(weekdays)})(?=\.?,?\s+(?:\w{{1,3}}\s+)?\d)", re.IGNORECASE)
    days_said = alternation(w for w in _DAYS_SAID if not _unspaced(w)).replace("'", "['’]")
    lone_day = re.compile(rf"(?<![\w-])(?:{alternation(weekdays)})(?![\w-])|([{_JAPANESE_DAYS}])曜日"
                          rf"|(?<![\w'’-])({days_said})(?![\w'’-])|({alternation(w for w in _DAYS_SAID if _unspaced(w))})",
                          re.IGNORECASE)
    # "12月1日", "2026年12月1日", a list writing its month once: "11月3日、5日、9日", "12月3日と5日"
    cjk = re.compile(r"(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*日((?:\s*[、,，と・や]\s*\d{1,2}\s*日(?!\d))*)")
    words = sorted(_asked(), key=len, reverse=True)
    spaced = "|".join(re.escape(w).replace("'", "['’]") for w in words if not _unspaced(w))
    asking = re.compile(rf"(?<!\w)(?:{spaced})(?:(?<=['’])|(?![\w'’]))|"
                        + "|".join(re.escape(w) for w in words if _unspaced(w)), re.IGNORECASE)
    english_month, english_day = alternation(_ENGLISH), alternation(_WEEKDAYS)
    leads = alternation([*_ON_DAY.split(), *_OF_DAY.split()]).replace("'", "['’]")
    day_lead = re.compile(
        rf"(?<![\w'’])(en\s+)?({leads})(?:\s+(?:dem\s+|den\s+)?(?:{alternation(_DAY_NOUNS.split())}))?(?:(?<=['’])|\s+)"
        rf"(?=\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{english_month})\b|(?:{english_month})\.?\s+\d"
        rf"|\d{{1,2}}\.?(?:\s*(?:,|{alternation(_JOINS)})\s*\d{{1,2}}\.?)+\s+(?:of\s+)?(?:{english_month})\b"
        rf"|\d{{1,4}}[./-]\d{{1,2}}|(?:{english_day})\b)", re.IGNORECASE)
    # A word for "and" or "or" between two days ("14 en 24 november", "el 3 de marzo o quizás el 13"), perhaps
    # with a word for "maybe": "and", "or" (as a word of ``_ASKING`` it was "in", "the": Dutch "en", Spanish "o").
    between = re.compile(rf"(\d\.?|\b(?:{english_month}))\s+({alternation(_JOINS)})\s+"
                         rf"(?=(?:(?:vielleicht|peut-être|quizás?|tal\s+vez|forse|misschien|talvez)\s+)?(?:on\s+)?\d)",
                         re.IGNORECASE)
    return dated, relative, this, before_day, lone_day, cjk, asking, day_lead, between


def in_english(query: str) -> str:
    """``query`` with the time phrases of the languages above written in English, and where it names a time
    of them, or a date with words of them (:func:`_another_language`), the words it is asked with
    (``_ASKING``); the rest unchanged."""
    months, weekdays = _names()
    dated, relative, this, before_day, lone_day, cjk, asking, day_lead, between = _patterns()
    units = {w: unit for unit, words in _UNITS.items() for w in words.split()}
    said = _asked()
    foreign = False
    timed = _DIGIT_DATE.search(query) is not None

    def english(word: str) -> str:
        nonlocal foreign
        word = word.lower()
        foreign = foreign or word not in _ENGLISH
        return _ENGLISH.get(word) or months.get(word) or weekdays.get(word) or units[word]

    def date(found: re.Match[str]) -> str:
        nonlocal timed
        timed = True
        if found[6]:
            return found[0] if found[6].lower() in _ENGLISH else f"{english(found[6]).title()} {found[7]}"
        if found[4].lower() in _ENGLISH and not (found[2] or found[3]):
            return found[0]  # "on 24 November", "op 24 november": English as written
        nonlocal foreign
        foreign = True  # "am 24. November"
        return f"{found[1]} {english(found[4]).title()}" + (f" {found[5]}" if found[5] else "")

    def last(found: re.Match[str]) -> str:
        return f"last {english(found[2] or found[3]).title()}"

    def period(found: re.Match[str]) -> str:
        nonlocal foreign
        foreign = True
        return f" {_JAPANESE_PERIODS[found[1]]} {_JAPANESE_PERIODS[found[2]]} "

    def asked(found: re.Match[str]) -> str:  # "qu'avons" → "what have", "決めました" → " decided "
        word = said[found[0].lower().replace("’", "'")]
        return f" {word} " if _unspaced(found[0]) else word + (" " if found[0][-1] in "'’" else "")

    def day(found: re.Match[str]) -> str:  # each day of a list with its month: " November 3 、 November 5 "
        nonlocal foreign
        foreign = True
        month, year = _MONTHS[int(found[2]) - 1].title(), f", {found[1]} " if found[1] else " "
        return " 、".join(f" {month} {number}{year}" for number in [found[3], *re.findall(r"\d+", found[4])])

    def day_month(found: re.Match[str]) -> str:
        nonlocal timed
        if not (1 <= int(found[2]) <= 31 and 1 <= int(found[3]) <= 12):
            return found[0]
        timed = True
        year = f" {datetime.strptime(found[4], '%y').year}" if found[4] else ""  # POSIX: 69-99 are 19..
        return f"{found[1] or ''} {found[2]} {_MONTHS[int(found[3]) - 1].title()}{year}".lstrip()

    def week(found: re.Match[str]) -> str:
        nonlocal foreign
        foreign = True
        weekday = _WEEKDAYS[_JAPANESE_DAYS.index(found[2])].title()
        return f" {weekday} {_JAPANESE_WEEKS[found[1]]} week "

    query = _ITALIAN_SINCE.sub(lambda found: "since l'" if found[0][-1] in "'’" else "since ", query)
    query = _JAPANESE_PERIOD.sub(period, _JAPANESE_WEEK.sub(week, _DAY_MONTH.sub(day_month, query)))
    query = cjk.sub(lambda f: day(f) if 1 <= int(f[2]) <= 12 else f[0], query)
    query = this.sub(lambda found: f"this {english(found[2]).title()}", relative.sub(last, dated.sub(date, query)))
    if foreign or timed:
        query = before_day.sub(lambda found: english(found[1]).title(), query)
    elif _another_language(query, asking):  # a weekday or "gestern" alone: "Was haben wir am Dienstag entschieden?"
        french = _FRENCH.search(query) is not None

        def lone(found: re.Match[str]) -> str:
            if found[1]:
                return f" {_WEEKDAYS[_JAPANESE_DAYS.index(found[1])].title()} "
            if found[3]:
                return f" {_DAYS_SAID[found[3]]} "
            if found[2]:
                word = found[2].lower().replace("’", "'")
                return found[0] if word == "hier" and not french else _DAYS_SAID[word]
            return english(found[0]).title()

        read = lone_day.sub(lone, query)
        foreign, query = read != query, read
    if not (foreign or timed and _another_language(query, asking)):
        return query
    bounds = {w for w, english in said.items() if english in ("since", "until")}

    def lead(found: re.Match[str]) -> str:
        before = query[:found.start()].split()[-1:]
        if before and before[0].lower() in bounds:
            return ""  # "desde el lunes": since Monday, not since on Monday
        return ("and " if found[1] else "") \
            + ("of " if found[2].lower().replace("’", "'") in _OF_DAY.split() else "on ")  # "en op": "and on"

    query = day_lead.sub(lead, query)
    query = between.sub(lambda found: f"{found[1]} {_JOINS[found[2].lower()]} ", query)
    return _PARTICLES.sub(" ", asking.sub(asked, query))
