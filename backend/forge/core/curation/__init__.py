"""Context curation (seed 002): what each model call gets to see, under a token budget, with provenance."""
