"""`forge eval`: the engine measured against the same model asked directly, on public problems."""
