"""`python -m forge.cli`: the same entry as the `forge` command."""

from forge.cli.main import main

if __name__ == "__main__":
    raise SystemExit(main())
