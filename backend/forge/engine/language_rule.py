"""The language rule of the engine requests whose texts a person reads (VERIFY's rationales, the mapping
review's explanations, the compliance audit's reasons, a described source domain): written in the
language of the material they judge, which is the session's language, never defaulting to English.

Invariants:
    - One sentence, appended after a request's own instructions (so an instruction constant stays as
      its stage wrote it); `of` names the material in the request's input whose language rules.
    - Ids, numbers and enum values stay as given: only free text follows the rule.
"""

from __future__ import annotations


def language_rule(of: str = "the problem") -> str:
    return (
        f"\nLanguage: write every free text a person reads (rationales, explanations, reasons, descriptions) in "
        f"the language of {of}, even when it is not English; ids, numbers and enum values stay as given."
    )
