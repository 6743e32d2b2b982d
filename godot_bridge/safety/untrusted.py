"""The untrusted-content envelope (contract C21).

Text that comes from the user's project (or from a tool that reflects it, such as
the language server's hover docs) may contain instructions aimed at the model.
Wrapping it in a tag whose name carries a random nonce lets the model tell where
that text starts and ends; the body cannot close the envelope early because it
cannot guess the nonce, and any envelope-looking tags already inside the body are
removed first so it cannot fake one either.

Shape (byte-for-byte the toolkit's, so both sides' envelopes look the same):

    <untrusted-{nonce} kind="{kind}" source="{source}">
    {body}
    </untrusted-{nonce}>

Both halves wrap the cases of tests/fixtures/toolkit/untrusted_cases.json, which say where their
bodies differ (the toolkit marks a removed tag) and why.
"""

from __future__ import annotations

import re
import secrets

# Opening or closing tag, with or without a nonce/attributes, any case, tolerant of
# whitespace after '<' or '/'. [^<>]* keeps one match inside one tag.
_TAG = re.compile(r"<\s*/?\s*untrusted[^<>]*>", re.IGNORECASE)
_NONCE = re.compile(r"[0-9a-f]{8}")
_ATTR_SAFE = re.compile(r"[A-Za-z0-9_.:/-]+")


def new_nonce() -> str:
    """Eight lowercase hex digits (the toolkit's %08x of a random 32-bit number)."""
    return secrets.token_hex(4)


def scrub_tags(body: str) -> str:
    """Remove every ``<untrusted…>`` / ``</untrusted…>`` tag from ``body``.

    Repeats until nothing changes: removing one tag can join two fragments into a
    new tag (``<untr<untrusted>usted>``), which a single pass would leave behind.
    """
    while True:
        cleaned = _TAG.sub("", body)
        if cleaned == body:
            return cleaned
        body = cleaned


def wrap(body: str, *, kind: str, source: str, nonce: str | None = None) -> str:
    """Wrap ``body`` in the envelope; ``nonce`` is for tests, normally random."""
    nonce = nonce if nonce is not None else new_nonce()
    if not _NONCE.fullmatch(nonce):
        raise ValueError(f"nonce must be 8 lowercase hex digits, got {nonce!r}")
    # kind/source are bridge constants; refusing odd characters keeps the attributes well-formed.
    for name, value in (("kind", kind), ("source", source)):
        if not _ATTR_SAFE.fullmatch(value):
            raise ValueError(f"{name} {value!r} is not a plain attribute value")
    return f'<untrusted-{nonce} kind="{kind}" source="{source}">\n{scrub_tags(body)}\n</untrusted-{nonce}>'


_ENVELOPE_NONCE = re.compile(r"(</?untrusted-)[0-9a-f]{8}")


def without_nonces(text: str) -> str:
    """``text`` with every envelope's nonce made the same, so two reads of the same content compare
    equal (consent/targets.py binds an answer to the state a read returned)."""
    return _ENVELOPE_NONCE.sub(r"\g<1>00000000", text)
