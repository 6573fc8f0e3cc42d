"""VERIFY's former home of `forge.engine.item_answers` (now shared with the red team), kept so its
importers keep working: everything here is the engine's one implementation, re-exported."""

from forge.engine.item_answers import UNANSWERED, ItemAnswers, ItemCall, Key, ask_items

__all__ = ["UNANSWERED", "ItemAnswers", "ItemCall", "Key", "ask_items"]
