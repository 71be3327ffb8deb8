"""A signed URL's signature is a credential (issue 25 §1.8): the value of a URL query's signature parameter
(Azure's ``sig=``, Google Cloud Storage's ``X-Goog-Signature=``, Amazon S3's ``X-Amz-Signature=``, CloudFront's
``Signature=`` and its ``CloudFront-Signature`` cookie), one row of the key format table, is refused, and
redaction replaces the signature alone, keeping the URL around it; a URL without one, or with a placeholder,
is stored."""

from __future__ import annotations

import base64
import random

import pytest

from memvault.storage.secrets import find_secrets, redact

RNG = random.Random(25)
HEX = RNG.randbytes(32).hex()
RSA_HEX = RNG.randbytes(256).hex()
B64 = base64.b64encode(RNG.randbytes(32)).decode()
CLOUDFRONT = base64.b64encode(RNG.randbytes(128)).decode().replace("+", "-").replace("=", "_").replace("/", "~")
AZURE = B64.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")

SIGNED = [
    (f"https://storage.googleapis.com/b/o.png?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=sa%40p.iam"
     f".gserviceaccount.com%2F20240101%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20240101T000000Z"
     f"&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature={RSA_HEX}", RSA_HEX),
    (f"https://d111111abcdef8.cloudfront.net/a.jpg?Expires=1700000000&Signature={CLOUDFRONT}"
     "&Key-Pair-Id=K2JCJMDEHXQW5F",
     CLOUDFRONT),
    (f"https://b.s3.amazonaws.com/a.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE"
     f"%2F20130524"
     f"%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
     f"&X-Amz-Signature={HEX}", HEX),
    (f"https://acct.blob.core.windows.net/c/b.txt?sv=2021-06-08&se=2024-01-01&sr=b&sp=r&sig={AZURE}", AZURE),
    (f"download it from https://acct.blob.core.windows.net/c/b.txt?sig={AZURE}&se=2024-01-01 today", AZURE),
    (f"use ?sv=2021-06-08&sig={AZURE} as the query", AZURE), (f"x.sas = 'se=2024-01-01&sp=r&sig={AZURE}'", AZURE),
    (f"Cookie: CloudFront-Policy=eyJTdGF0ZW1lbnQiOlt9; CloudFront-Signature={CLOUDFRONT}; CloudFront-Key-Pair-Id=K2J",
     CLOUDFRONT),
    (f"https://oss.example.aliyuncs.com/o?OSSAccessKeyId=LTAIabc&Expires=1141889120&Signature={B64}", B64),
]


@pytest.mark.parametrize(("text", "signature"), SIGNED)
def test_a_signed_urls_signature_is_refused_and_only_it_is_redacted(text: str, signature: str) -> None:
    assert [kind for kind, _ in find_secrets(text)[0]] == ["signed URL signature"]
    redacted, kinds = redact(text)
    assert kinds == ("signed URL signature",) and signature not in redacted
    assert redacted == text.replace(signature, "[signed URL signature]")


@pytest.mark.parametrize("text", [
    "https://storage.googleapis.com/b/o.png?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=<signature>",
    "https://d111.cloudfront.net/a.jpg?Expires=1700000000&Signature=YOUR_SIGNATURE_HERE&Key-Pair-Id=<key-pair-id>",
    "https://example.com/search?q=signature&page=2&sort=relevance",
    "https://github.com/org/repo/commit/3f786850e387550fdab836ed7e6dc881de23001b?signature=short",
    "the Signature= parameter holds the HMAC; X-Goog-Signature is hex; Azure calls it sig=",
    "the email signature is 3f786850e387550fdab836ed7e6dc881de23001b",
    "https://acct.blob.core.windows.net/c/b.txt?sv=2022-11-02&sig=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
])
def test_a_url_without_a_signature_or_with_a_placeholder_is_stored(text: str) -> None:
    assert find_secrets(text) == [[]]
