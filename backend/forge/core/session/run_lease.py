"""Whether a run lease is live: the one answer to "is an agent run working on this session".

Invariants:
    - A lease of this process is live only while this process's registry holds its owner token
      (a run that ended or crashed inside the process is never "running").
    - A lease of another process is live until it expires, and only where other processes may
      exist (PostgreSQL deployments); an embedded SQLite deployment is one process, so a lease
      left by an earlier process (killed with -9) is dead at once and its session resumable.
    - Pure: the caller passes the time and the registry's owners.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from forge.core.session.record import RunLease


@dataclass(frozen=True, slots=True)
class LeasePolicy:
    instance: str
    trust_other_processes: bool


def lease_is_live(lease: RunLease | None, policy: LeasePolicy, local_owners: Collection[str], now: datetime) -> bool:
    if lease is None:
        return False
    if lease.instance == policy.instance:
        return lease.owner in local_owners
    return policy.trust_other_processes and lease.expires_at > now
