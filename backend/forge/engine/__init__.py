"""The creative engine's pipelines (seed 000): model work fanned out through the StructuredModel port."""
