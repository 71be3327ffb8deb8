"""One name or value written two ways in two texts, rewritten one way before they are compared:
an acronym and the words it stands for ("NYC" / "New York City", "GH" / "GitHub"), a numeronym and
its word ("k8s" / "Kubernetes": first letter, count of the letters between, last letter), and a
time range with a dash or in words ("14:00-16:00" / "from 14:00 to 16:00")."""

from __future__ import annotations

import re

_ACRONYM = re.compile(r"\b[A-Z]{2,5}\b")
_NUMERONYM = re.compile(r"\b([a-zA-Z])(\d{1,2})([a-zA-Z])\b")
_WORD = re.compile(r"[^\W\d_]+")
_PART = re.compile(r"[A-Z][a-z]*")  # "GitHub" → "Git", "Hub"
_CLOCK = r"\d{1,2}(?::\d{2}\s*(?:[ap]\.?m\.?)?|\s*[ap]\.?m\.?)"  # a time, never a bare number ("from 3 to 5 nodes")
_RANGE = re.compile(rf"\b(?:from|between)\s+({_CLOCK})\s+(?:to|and|until|till)\s+({_CLOCK})", re.IGNORECASE)
_DASHED = re.compile(rf"{_CLOCK}\s*[-–]\s*{_CLOCK}", re.IGNORECASE)


def one_way(older: str, newer: str) -> tuple[str, str]:
    """``older`` and ``newer`` with each short form that the other text spells out replaced by its
    long form, and each time range in words that the other writes with a dash written so; texts
    with none come back unchanged."""
    return _spelt_out(older, newer), _spelt_out(newer, older)


def _spelt_out(text: str, other: str) -> str:
    """``text`` with each acronym or numeronym that ``other`` spells out (and does not say itself)
    replaced by the words of ``other`` that spell it, and each time range in words ("from 9:00 to
    10:00") that ``other`` writes with a dash written so (not "moved from 9:00 to 10:00" beside no range)."""
    dashed = {tuple(re.split(r"\s*[-–]\s*", found.group(0))) for found in _DASHED.finditer(other)}
    text = _RANGE.sub(lambda m: "-".join(m.groups()) if m.groups() in dashed else m.group(0), text)
    for short in set(_ACRONYM.findall(text)) - set(_ACRONYM.findall(other)):
        long = _expansion(short, _runs(text), _runs(other))
        if long is not None:
            text = re.sub(rf"\b{short}\b", long.replace("\\", r"\\"), text)  # a replacement, not a template
    for found in set(_NUMERONYM.finditer(text)):
        first, count, last = found.group(1).lower(), int(found.group(2)), found.group(3).lower()
        words = {w for w in _WORD.findall(other) if len(w) == count + 2 and w[0].lower() == first
                 and w[-1].lower() == last}
        if len(words) == 1:
            word = words.pop()
            text = re.sub(rf"\b{re.escape(found.group(0))}\b", lambda _: word, text)
    return text


def _runs(text: str) -> list[list[str]]:
    """The runs of capitalised words of ``text`` (a run ends at punctuation), and the first one less
    its first word, which may only open the sentence ("The AWS bill")."""
    runs: list[list[str]] = [[]]
    for raw in text.split():
        word = raw.strip(".,;:!?()\"'")
        if word[:1].isupper():
            runs[-1].append(word)
        if not word[:1].isupper() or raw != word:
            runs.append([])
    return [run for run in runs + [runs[0][1:]] if run]


def _expansion(acronym: str, runs: list[list[str]], others: list[list[str]]) -> str | None:
    """The words of a run of ``others`` whose capitals spell ``acronym`` ("Amazon Web Services" for
    "AWS", "GitHub" for "GH"), where the rest of that run is the rest of the acronym's run in
    ``runs`` ("GH Actions" / "GitHub Actions"), or None: a run spelling more is another name."""
    for run in runs:
        if acronym not in run:
            continue
        at = run.index(acronym)
        before, after = run[:at], run[at + 1:]
        for other in others:
            middle = other[len(before):len(other) - len(after)]
            if middle and other[:len(before)] == before and other[len(other) - len(after):] == after \
                    and "".join(p[0] for w in middle for p in _PART.findall(w)) == acronym:
                return " ".join(middle)
    return None
