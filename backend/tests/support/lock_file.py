"""Probing the SQLite write queue's lock file (`db/cross_process_write_lock`) as another process would."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


def free_for_others(path: Path) -> bool:
    """True when a separate open file description (as another process has) can take the lock now."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True
