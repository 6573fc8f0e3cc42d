"""The PasswordHasher port's adapter: argon2id through pwdlib (salted, memory-hard, maintained).

Invariants:
    - Hashes are pwdlib's self-describing strings (`$argon2id$v=19$m=...`), so parameters can be
      raised later and old hashes still verify.
    - `verify` never raises on a malformed stored hash: it answers False.
    - Both calls are CPU-heavy (tens to hundreds of ms by design); async callers run them in a thread.
"""

from __future__ import annotations

from pwdlib import PasswordHash
from pwdlib.exceptions import PwdlibError


class Argon2PasswordHasher:
    def __init__(self, hashing: PasswordHash | None = None) -> None:
        self._hash = hashing or PasswordHash.recommended()

    def hash(self, password: str) -> str:
        return self._hash.hash(password)

    def verify(self, password: str, password_hash: str) -> bool:
        try:
            return self._hash.verify(password, password_hash)
        except (PwdlibError, ValueError):
            return False
