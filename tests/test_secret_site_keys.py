"""reCAPTCHA's site key is published in every page that shows the widget: named a site key it is stored and left
alone by redaction, while its secret key, and a key-shaped value under another name, are still refused (issue 25
§1.8, kind 4)."""

from __future__ import annotations

import pytest

from memvault.storage.secrets import find_secrets, redact

SITE = "6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI"
SECRET = "6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe"

STORED = [
    f"reCAPTCHA site key: {SITE}", f"site key = {SITE}", f"the site key is {SITE}", f"sitekey: {SITE}",
    f'<div class="g-recaptcha" data-sitekey="{SITE}"></div>', f"RECAPTCHA_SITE_KEY={SITE}",
    f"hCaptcha site-key: {SITE}", f"our recaptcha site key for prod: {SITE}",
]


@pytest.mark.parametrize("text", STORED)
def test_a_site_key_is_stored_and_left_alone(text: str) -> None:
    assert find_secrets(text) == [[]]
    assert redact(text) == (text, ())


REFUSED = [
    f"recaptcha secret key: {SECRET}", f"RECAPTCHA_SECRET_KEY={SECRET}", f"reCAPTCHA site key and secret: {SECRET}",
    f"website key: {SECRET}", f"the key is {SECRET}", f"site key: {SITE}\nsecret key: {SECRET}",
]


@pytest.mark.parametrize("text", REFUSED)
def test_a_secret_key_beside_or_unlike_a_site_key_is_still_refused(text: str) -> None:
    assert find_secrets(text)[0]
    redacted, kinds = redact(text)
    assert SECRET not in redacted and kinds
