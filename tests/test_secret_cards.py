"""Payment card numbers and US Social Security numbers (trial 59 #6): a card's number, grouped as printed or in one
run, with a known issuer's prefix and length and a valid Luhn digit, is refused and redacted with the security code
after it; an SSN only after a word naming it. Order, tracking, phone and other numbers are stored."""

from __future__ import annotations

import random

import pytest
from stdnum import luhn

from memvault.storage.errors import InvalidInput
from memvault.storage.records import NewTurn
from memvault.storage.secrets import find_secrets, redact


def _card(prefix: str, length: int, seed: int) -> str:
    """A Luhn-valid number of ``length`` digits opening with ``prefix``."""
    rng = random.Random(seed)
    body = prefix + "".join(rng.choice("0123456789") for _ in range(length - len(prefix) - 1))
    return body + luhn.calc_check_digit(body)


def _grouped(number: str, sep: str) -> str:
    if len(number) == 15:  # American Express: 4-6-5
        return sep.join((number[:4], number[4:10], number[10:]))
    if len(number) == 14:  # Diners: 4-6-4
        return sep.join((number[:4], number[4:10], number[10:]))
    return sep.join(number[i:i + 4] for i in range(0, len(number), 4))


ISSUED = [("4", 16), ("4", 19), ("51", 16), ("55", 16), ("2221", 16), ("2720", 16), ("34", 15), ("37", 15),
          ("6011", 16), ("644", 16), ("65", 19), ("36", 14), ("300", 16), ("3528", 16), ("3589", 19), ("62", 16),
          ("6759", 18), ("2200", 16)]
CARDS = [_card(prefix, length, seed) for seed, (prefix, length) in enumerate(ISSUED)]
# (grouped with spaces, dashes, or not at all; within prose of several shapes)
SHAPES = ["My credit card number is {}", "card: {}", "{}", "Visa {} exp 12/28", "paid with {}.", "cc={}",
          "the company card ({}) is in the drawer", "Karte {} gültig bis 12/28", "{} 123"]
REFUSED = [shape.format(_grouped(number, sep) if sep is not None else number)
           for i, number in enumerate(CARDS) for sep, shape in [(" ", SHAPES[i % len(SHAPES)]),
                                                              ("-", SHAPES[(i + 3) % len(SHAPES)]),
                                                              (None, SHAPES[(i + 5) % len(SHAPES)])]]


@pytest.mark.parametrize("text", REFUSED)
def test_a_payment_card_number_is_refused_and_redacted(text: str) -> None:
    assert ("payment card number", 1) in find_secrets(text)[0], text
    redacted, kinds = redact(text)
    assert "payment card number" in kinds and not any(n in redacted.replace(" ", "").replace("-", "") for n in CARDS)


@pytest.mark.parametrize(("text", "code"), [
    ("My credit card number is 4111 1111 1111 1111 exp 12/28 cvv 123", "cvv 123"),
    ("card 5555 5555 5555 4444, CVC: 9876", "CVC: 9876"), ("4012888888881881 12/27 security code 321", "security code 321"),
    ("Amex 3782 822463 10005 exp 01/29 CID 4321", "CID 4321"), ("card 4111-1111-1111-1111 cvv2=777", "cvv2=777")])
def test_the_security_code_after_a_card_is_redacted_with_it(text: str, code: str) -> None:
    redacted, kinds = redact(text)
    assert code not in redacted and "[card security code]" in redacted and "[payment card number]" in redacted


STORED = [
    # not a card: a Luhn digit that fails, no issuer's prefix or length, a test number beside "test"
    "card 4111 1111 1111 1112", "card 9111 1111 1111 1111", "card 1234 5678 9012 3456", "card 4111 1111 1111",
    "Stripe test card 4242 4242 4242 4242 for checkout tests", "use the test Visa 4111111111111111 in sandbox",
    "card ending in 1111", "the card ending 4444 expires 12/28", "cvv 123 is required at checkout",
    # numbers of other things named by a word before them, or shaped otherwise
    "order 4111111111111111 shipped", "order #4111111111111111 shipped", "invoice 5555555555554444 paid",
    "tracking 9400111899223344556677", "tracking number 1Z999AA10123456784", "FedEx 776543210987 arrives Monday",
    "Transaction id 4012888888881881 settled", "IMEI 352099001761481", "ISBN 9780306406157",
    "ISBN 978-0-306-40615-7", "call +4915112345678", "phone 415-555-0134", "call +1 415 555 0134",
    "the timestamp 1733400000000 was logged", "epoch ns 1733400000000000000", "snowflake 1180000000000000000",
    "DE89 3704 0044 0532 0130 00", "IBAN DE44 4111 1111 1111 1111 00", "1234 4111 1111 1111 1111",
    "version 4.1111111111111111", "pi is 3.14159265358979323", "the sum was 4111111111111111.50",
    "build 4111111111111111-rc1", "https://example.com/orders/4111111111111111",
    "job 5555555555554444 finished", "user 4012888888881881 signed up", "account 378282246310005 closed",
    # SSN-shaped digits without a word naming one, or invalid
    "ssn 000-12-3456", "ssn 666-12-3456", "SSN 123-00-4567", "call 555-12-3456 tomorrow", "ticket 123-45-6789",
    "the SSN field is required", "zip 12345-6789",
    # "social" alone names an SSN only before 3-2-4 digits parted by dashes
    "my social life is busy", "social 536 22 7841", "social 536227841", "social hour 2024-05-1234",
]


@pytest.mark.parametrize("text", STORED)
def test_order_tracking_phone_and_other_numbers_are_stored(text: str) -> None:
    assert find_secrets(text) == [[]] and redact(text) == (text, ()), text


SSNS = ["ssn 123-45-6789", "SSN: 536-22-8790", "My SSN is 536 22 8790", "social security number: 536228790",
        "Social Security No. 536-22-8790", "her social security number is 536-22-8790.", "SSN#: 536-22-8790",
        "ssn=536228790", "my social is 536-22-7841", "My social: 536-22-7841", "SSN# 536-22-7841",
        "soc sec 536-22-7841", "soc. sec. no 536227841", "Soc Sec #: 536 22 7841"]


@pytest.mark.parametrize("text", SSNS)
def test_a_social_security_number_after_its_name_is_refused(text: str) -> None:
    assert ("Social Security number", 1) in find_secrets(text)[0], text
    assert "[Social Security number]" in redact(text)[0]


@pytest.mark.parametrize(("text", "kind"), [("My credit card number is 4111 1111 1111 1111 exp 12/28 cvv 123",
                                             "payment card number"), ("ssn 123-45-6789", "Social Security number")])
def test_remember_refuses_a_card_or_ssn_and_a_turn_keeps_it_redacted(store, text: str, kind: str) -> None:
    with pytest.raises(InvalidInput, match=rf"\({kind}"):
        store.remember(tenant="t", scope="s", content=text)
    store.remember(tenant="t", scope="s", content="order 4111111111111111 shipped on Monday")
    store.episodes.append(tenant="t", scope="s", session_id="s-1", turns=[NewTurn(role="user", text=text)])
    kept = store.episodes.turns(tenant="t", session_id="s-1")[-1].text
    assert f"[{kind}]" in kept and "1111 1111" not in kept and "6789" not in kept and "cvv 123" not in kept
