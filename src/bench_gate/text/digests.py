"""SHA-256 digests as evidence records them: 64 lowercase hexadecimal digits.

The syntax is ``validators.hashes.sha256``'s; on top of it the digits must be lowercase, as
``hashlib``'s ``hexdigest()`` and every producer of these formats write them, so that a digest
compares equal to the file's actual hash as text. ``sha256:<hex>`` is the URI form some
records use (AEF pair records, corpus hashes).
"""

from __future__ import annotations

from typing import Any


def is_sha256_hex(value: Any) -> bool:
    """``value`` is 64 lowercase hex digits."""
    if not isinstance(value, str) or value != value.lower():
        return False
    from validators.hashes import sha256

    return bool(sha256(value))


def is_sha256_uri(value: Any) -> bool:
    """``value`` is ``sha256:`` followed by 64 lowercase hex digits."""
    return isinstance(value, str) and value.startswith("sha256:") and is_sha256_hex(value[7:])
