"""The offline model's CRYSTALLIZE narrative: recommendations say what to try and when to stop, briefly."""

from forge.offline.phases.plan_crystallize import narrative, recommendation

CONDITION = (
    "Observable: utilization of staff measured hourly. Compare wait times with its baseline for at least "
    "8 weeks after the change: the claim is false if wait times do not fall by at least 10%."
)


def test_recommendation_names_the_action_and_the_stopping_result_without_restating_the_claim() -> None:
    claim = {
        "text": "Treating wait times as a queue will reduce wait times (queueing theory); where load is flat, it will not.",
        "falsifiability_condition": CONDITION,
    }

    assert (
        recommendation(claim) == "Try: Treating wait times as a queue. Stop if wait times do not fall by at least 10%."
    )


def test_recommendation_drops_the_extension_preamble_and_keeps_the_qualification() -> None:
    claim = {
        "text": "Extending 'Treating wait times…': pooling staff across units will reduce wait times further.",
        "qualification": "for hospitals above 40k visits a year",
        "falsifiability_condition": CONDITION,
    }

    assert recommendation(claim).startswith(
        "Try: Pooling staff across units (only for hospitals above 40k visits a year). Stop if wait times"
    )


def test_a_condition_without_a_false_if_clause_is_kept_whole_as_the_stop_rule() -> None:
    claim = {"text": "Batching orders will cut cost.", "falsifiability_condition": "Cost per order rises."}

    assert recommendation(claim) == "Try: Batching orders. Stop if this fails: Cost per order rises."


def test_a_claim_without_will_is_cut_at_a_word_boundary_when_long() -> None:
    claim = {"text": "word " * 100, "falsifiability_condition": ""}

    text = recommendation(claim)

    assert text.startswith("Try: Word word") and "…." in text and len(text) < 300
    assert text.endswith("No stopping condition was recorded.")


def test_the_strongest_claim_leads_the_summary_and_recommendations_follow_score_order() -> None:
    context = {
        "graph_claims": [
            {"text": "Weak idea will help.", "mean_score": 0.4, "falsifiability_condition": CONDITION},
            {"text": "Strong idea will help.", "mean_score": 0.9, "falsifiability_condition": CONDITION},
        ]
    }

    written = narrative(context)

    assert "Strong idea will help." in written["executive_summary"]
    assert [r.split(".")[0] for r in written["recommendations"]] == ["Try: Strong idea", "Try: Weak idea"]
