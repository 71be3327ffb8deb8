"""Numbers that open money or an identity rather than an account: a payment card's number
(:class:`PaymentCardDetector`, with the security code written after it) and a US Social Security number after
the words naming it (:class:`SocialSecurityNumberDetector`). Candidates are found by RE2 in linear time; each is
checked by python-stdnum (``stdnum.luhn``, ``stdnum.us.ssn``), which memvault does not reimplement.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from .secret_re2 import Detector, compile_linear

CARD_LABEL = "payment card number"
CODE_LABEL = "card security code"
SSN_LABEL = "Social Security number"

# Issuer identification numbers (ISO/IEC 7812-1) and the lengths each network issues, as the networks publish
# them (summarised in en.wikipedia.org/wiki/Payment_card_number, "Issuer identification number"): Visa (13-digit
# Visa cards are no longer issued and left out: too many other 13-digit numbers), Mastercard, American Express,
# Discover, Diners Club, JCB, UnionPay, Maestro, Mir. A row: first and last prefix of one length, card lengths.
_ISSUERS: tuple[tuple[int, int, frozenset[int]], ...] = (
    (4, 4, frozenset({16, 19})),                      # Visa
    (51, 55, frozenset({16})), (2221, 2720, frozenset({16})),  # Mastercard
    (34, 34, frozenset({15})), (37, 37, frozenset({15})),      # American Express
    (6011, 6011, frozenset({16, 17, 18, 19})), (644, 649, frozenset({16, 17, 18, 19})),
    (65, 65, frozenset({16, 17, 18, 19})),            # Discover
    (36, 36, frozenset({14, 15, 16, 17, 18, 19})), (300, 305, frozenset({14, 16, 17, 18, 19})),
    (38, 39, frozenset({16, 17, 18, 19})),            # Diners Club
    (3528, 3589, frozenset({16, 17, 18, 19})),        # JCB
    (62, 62, frozenset({16, 17, 18, 19})),            # UnionPay
    (5018, 5018, frozenset(range(13, 20))), (5020, 5020, frozenset(range(13, 20))),
    (5038, 5038, frozenset(range(13, 20))), (5893, 5893, frozenset(range(13, 20))),
    (6304, 6304, frozenset(range(13, 20))), (6759, 6759, frozenset(range(13, 20))),
    (6761, 6763, frozenset(range(13, 20))),           # Maestro
    (2200, 2204, frozenset({16, 17, 18, 19})),        # Mir
)

# Card numbers the networks' and processors' documentation publishes for tests (docs.stripe.com/testing,
# developer.paypal.com, docs.adyen.com/development-resources/test-cards): stored beside the word "test" or
# "sandbox", as a vendor's documented sample key is ("Stripe test card 4242 4242 4242 4242").
_TEST_NUMBERS = frozenset({
    "4242424242424242", "4000056655665556", "4111111111111111", "4012888888881881", "5555555555554444",
    "2223003122003222", "5200828282828210", "5105105105105100", "378282246310005", "371449635398431",
    "6011111111111117", "6011000990139424", "3056930009020004", "36227206271667", "3566002020360505",
    "6200000000000005", "4000000000000002", "4000000000009995", "4000000000000077", "4000002500003155",
})
_TEST_WORD = re.compile(r"(?i)(?<![a-z])(?:test(?:ing|s)?|sandbox|dummy|fake|sample|example)(?![a-z])")

# A card's number: 14 to 19 digits in a row, or grouped as cards print them (4-4-4-4 and up to 3 more digits; American Express'
# and Diners' 4-6-5 and 4-6-4) by single spaces or single dashes; not inside a longer number, a decimal, a version,
# a path or an international phone number ("+4915112345678"). Then perhaps, within 40 characters on its line, its
# security code after its name ("exp 12/28 cvv 123"), taken with its name.
_GROUPED = "|".join(f"\\d{{4}}{s}\\d{{4}}{s}\\d{{4}}{s}\\d{{4}}(?:{s}\\d{{1,3}})?|\\d{{4}}{s}\\d{{6}}{s}\\d{{4,5}}"
                    for s in (" ", "-"))
_CARD = (r"(?:^|[^\pL\pN+_.,/-])"
         f"(?P<card>\\d{{14,19}}|{_GROUPED})"
         r"(?:$|[^\pL\pN_.,/-]|[.,/-](?:$|[^\pN]))"
         r"(?:[^\n]{0,40}?(?P<code>(?i:cvv2?|cvc2?|csc|cid|security[ \t]+code|card[ \t]+verification(?:[ \t]+value)?)"
         r"[ \t]*(?:[:=#-]|is)?[ \t]*\d{3,4})(?:$|[^\pN]))?")

# What an ungrouped number stands for when a word before it names it, on its line and within 40 characters:
# an order's, a parcel's, a ticket's ... number (the last such word, if it comes after any word for a card).
_OTHER_NUMBER = re.compile(r"(?i)(?<![a-z])(?:orders?|invoices?|tracking|shipments?|parcels?|packages?|ref(?:erence)?"
                           r"|id|ids|ticket|case|confirmation|booking|reservation|transaction|txn|imei|iccid|isbn"
                           r"|serial|phone|tel|mobile|fax|account|acct|customer|user|message|msg|trace|request"
                           r"|build|job|run|commit|block|snowflake|timestamp|epoch|nonce|seed)(?![a-z])")
_CARD_WORD = re.compile(r"(?i)(?<![a-z])(?:cards?|cc|visa|mastercard|amex|american[ \t]+express|discover|diners"
                        r"|jcb|unionpay|maestro|credit|debit|pan)(?![a-z])")
_MORE_DIGITS = re.compile(r"[0-9][ -]")  # another group of digits before a number
_GROUP_AFTER = re.compile(r"[ -][0-9]{4}")  # and another group of four after it
_NEAR = 40  # characters before a number where the word naming it may stand


def _issued(digits: str) -> bool:
    """Whether ``digits`` open with an issuer's prefix and have a length that issuer gives its cards."""
    for low, high, lengths in _ISSUERS:
        if len(digits) in lengths and low <= int(digits[:len(str(low))]) <= high:
            return True
    return False


def card_number(written: str, before: str) -> bool:
    """Whether ``written`` (digits, perhaps grouped by spaces or dashes) is a payment card's number: an issuer's
    prefix and length (``_ISSUERS``) and a valid Luhn check digit (ISO/IEC 7812-1, ``stdnum.luhn``); written in
    one run, not named as another number by the last word before it (``before``: its line's text before it, read
    from its last ``_NEAR`` characters: "order 4111111111111111"); not a documented test number beside a word
    saying so (``_TEST_NUMBERS``)."""
    from stdnum import luhn

    digits = written.replace(" ", "").replace("-", "")
    if not _issued(digits) or not luhn.is_valid(digits):
        return False
    near = before[-_NEAR:]
    if digits in _TEST_NUMBERS and _TEST_WORD.search(near + " " + written):
        return False
    if written.isdigit():
        other = [m.end() for m in _OTHER_NUMBER.finditer(near)]
        card = [m.end() for m in _CARD_WORD.finditer(near)]
        if other and (not card or card[-1] < other[-1]):
            return False
    return True


class PaymentCardDetector(Detector):
    """A payment card's number (``card_number``: grouped as printed or in one run, a known issuer's prefix and
    length, a valid Luhn check digit), found without any word naming it, and its security code written after it
    on its line ("cvv 123", named as such: the code alone, after no card, is three digits of anything)."""

    secret_type = CARD_LABEL
    denylist = [compile_linear(_CARD)]

    def values(self, match: Any) -> Iterator[tuple[str | None, str]]:
        """``(label, value)`` of the card's number, and of its security code's name and digits, when the number is
        a card's."""
        card, text, start, end = match.group(1), match.string, match.start(1), match.end(1)
        if _MORE_DIGITS.fullmatch(text[max(0, start - 2):start]) or _GROUP_AFTER.match(text, end):
            return  # one group of a longer grouped number: an IBAN's ("DE89 3704 0044 0532 0130 00"), a list's
        line_start = text.rfind("\n", 0, start) + 1
        before = text[max(line_start, start - 200):start]
        # a short last group may be the security code written after the card ("4111 1111 1111 1111 123")
        last = card.replace("-", " ").rsplit(" ", 1)[-1]
        shorter = card[:-len(last) - 1] if card.count(" ") + card.count("-") == 4 and len(last) < 4 else ""
        card = next((written for written in (card, shorter) if written and card_number(written, before)), "")
        if not card:
            return
        yield CARD_LABEL, card
        if match.group(2):
            yield CODE_LABEL, match.group(2)


# A US Social Security number after the words naming it (SSN, social security number, "social security no.",
# "soc sec"), perhaps a verb or ":" between: 3-2-4 digits parted by dashes or spaces, or 9 in a row; after "social"
# alone ("my social is 536-22-7841") only 3-2-4 digits parted by dashes, the shape an SSN is written in.
_SSN_VERB = r"[ \t]*(?:\([^()\n]{0,20}\)[ \t]*)?(?:[:=#-]|[ \t](?:is|was|of)(?:[ \t]*:)?)?[ \t]*"
_SSN = (r"(?i)(?:^|[^\pL\pN])(?:"
        r"(?:ssn|ss#|(?:social[ \t-]+|soc\.?[ \t-]*)(?:security|sec\.?)(?:[ \t-]+(?:number|num|no\.?|#))?)s?#?"
        f"{_SSN_VERB}"
        r"(?P<ssn>\d{3}-\d{2}-\d{4}|\d{3}[ ]\d{2}[ ]\d{4}|\d{9})"
        r"|social#?" f"{_SSN_VERB}" r"(?P<dashed>\d{3}-\d{2}-\d{4}))(?:$|[^\pN-]|-(?:$|[^\pN]))")


class SocialSecurityNumberDetector(Detector):
    """A US Social Security number after a word naming it ("ssn 123-45-6789", "my social security number is
    123456789"), kept when ``stdnum.us.ssn`` says it can be one (no area 000, 666 or 900-999, no group 00, no serial
    0000, not a number published by mistake). Nine digits without such a word are anything (a phone's, an id)."""

    secret_type = SSN_LABEL
    denylist = [compile_linear(_SSN)]

    def values(self, match: Any) -> Iterator[tuple[str | None, str]]:
        """``(label, value)`` of a valid number."""
        from stdnum.us import ssn

        value = match.group("ssn") or match.group("dashed")
        if ssn.is_valid(value.replace(" ", "")):
            yield SSN_LABEL, value
