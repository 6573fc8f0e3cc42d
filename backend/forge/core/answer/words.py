"""The fixed words of the AnswerPack Markdown, in English, Simplified Chinese and Japanese.

Invariants:
    - One frozen `AnswerWords` per `DocumentLanguage`; `ENGLISH_ANSWER_WORDS` renders the exact bytes
      the AnswerPack had before it was translated.
    - Templates are `str.format` patterns filled by the renderer with already-escaped values.
    - The verdict markers keep their emoji (✅ ❌ ❔) in every language, so a violation stands out.
    - Terms follow the SPA's locales (论断 / 主張 for claims, 硬约束 / 厳格な制約 for hard
      constraints, 裁决 / 判定 for verdicts); the facts both show (section titles, verdicts, severities,
      origins, VERIFY statuses) read the same, checked against the locale files by
      tests/unit/core/document/test_words_match_spa_locales.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from forge.core.document.problem_language import DocumentLanguage, problem_language
from forge.core.document.words import CHINESE_DOCUMENT_WORDS, JAPANESE_DOCUMENT_WORDS, DocumentWords
from forge.core.domain_types import EvidenceType


@dataclass(frozen=True, slots=True)
class AnswerWords:
    sections: tuple[str, ...]
    verdict_pass: str
    verdict_violation: str
    verdict_unclear: str
    status_compliant: str
    status_unverified: str
    status_violation: str
    convergence_converged: str
    convergence_limits: str
    convergence_no_new: str
    convergence_failed: str
    claim_ref: str
    from_pool: str  # the pool hypotheses a claim came from, after its claim reference
    over_verify: str  # after the claim reference: the person kept a claim VERIFY failed
    evidence_with_source: str
    risk_line: str
    risk_unresolved: str
    risk_mitigation: str
    no_risk: str
    boundaries: str
    none_recorded: str
    ranking_empty: str
    ranking_header: str
    ranking_note: str
    revisions: str
    no_constraint: str
    compliance_header: str
    none: str
    source_domains: str
    operators: str
    models: str
    spend: str
    solve: str
    solve_failure: str
    constraint_added: str
    note: str
    supervisor_findings: str
    offline_label: str
    written_by: str
    no_answer: str
    no_solution: str
    no_evidence: str
    # The phrases the builder writes into the pack itself (its JSON and its Markdown).
    trace_user: str = "provided by the user"
    trace_query: str = "research query: {query}"
    trace_research: str = "research"
    validated_claim: str = "validated claim"
    state_of_the_art: str = "State of the art: {summary}"
    qualified: str = "{claim} — qualified: {qualification}"
    stop_if: str = "Stop if: {condition}"
    ruled_out: str = "Ruled out: {claim} ({reason})"
    # Labels for the enum values the pack shows (evidence relation, risk severity, gate and verify
    # status, constraint origin, Solve's note kinds); a missing value reads as itself (English).
    value_labels: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    # A solution that still breaks a hard constraint is withheld (seed 000 §6.4), and only hypotheses
    # VERIFY passed rank (§7 stage 6).
    cannot_meet_answer: str = (
        "No solution meets every hard constraint: after {revisions} revision(s), the best plan Solve reached "
        "still breaks the constraint(s) below, so it is not delivered as the answer."
    )
    cannot_meet_line: str = "“{constraint}” cannot be met: {why}. Relaxing it would allow: {allows}"
    relaxing_fallback: str = "what the withheld plan does: {answer}"
    solution_withheld: str = (
        "No solution is delivered: the best one Solve reached breaks a hard constraint (see the direct answer)."
    )
    ranking_none_verified: str = "No hypothesis passed VERIFY, so none is ranked."
    unranked_heading: str = "**Checked, not ranked** (VERIFY did not pass them or could not check them):"
    unranked_line: str = "{title} ({domain}) — VERIFY: {status}"
    # VERIFY's prior-art search found nothing related: "nothing found" is not novelty (capped).
    novelty_unverified: str = "novelty unverified"

    def label(self, value: str) -> str:
        return self.value_labels.get(value, value)


def _evidence_labels(document: DocumentWords) -> dict[str, str]:
    """The evidence relations as the Knowledge Document names them (one table for both outputs)."""
    return {t.value: document.label(t.value) for t in EvidenceType}


ENGLISH_ANSWER_WORDS = AnswerWords(
    sections=(
        "Direct answer",
        "Solution",
        "Key evidence",
        "Risks and boundaries",
        "Hypothesis ranking",
        "Constraint compliance",
        "Methodology",
    ),
    verdict_pass="✅ pass",
    verdict_violation="❌ VIOLATION",
    verdict_unclear="❔ unclear",
    status_compliant="Every hard constraint passed the audit.",
    status_unverified="No hard constraint is violated, but some could not be checked (marked unclear).",
    status_violation="**No solution meets every hard constraint** after the allowed revisions; "
    "the rows marked VIOLATION say which cannot be met.",
    convergence_converged="converged: the last audit found no high risk",
    convergence_limits="stopped at the iteration limits",
    convergence_no_new="stopped: the remaining risks gave no new constraint",
    convergence_failed="stopped: a model call failed",
    claim_ref=" (claim `{claim}`)",
    from_pool=" from pool hypotheses {ids}",
    over_verify=" (kept by the person although VERIFY failed it)",
    evidence_with_source="{link} — {relation} for “{statement}”{claim}; {trace}",
    risk_line="**{severity}**{unresolved}: {text}{mitigation}",
    risk_unresolved=" (unresolved)",
    risk_mitigation=" — mitigation: {text}",
    no_risk="No risk was recorded by the audit.",
    boundaries="**Boundaries**",
    none_recorded="None recorded.",
    ranking_empty="The hypothesis pool is empty.",
    ranking_header="| # | Hypothesis | Domain | Score | Gate | Verify |",
    ranking_note="_Only hypotheses VERIFY passed rank. Scores are the rule-layer composite (0–10) of each "
    "hypothesis's own fields; VERIFY's final score stands beside its status._",
    revisions="_Revisions made: {count}._",
    no_constraint="No hard constraint was stated.",
    compliance_header="| Constraint | Origin | Verdict | Reason |",
    none="none",
    source_domains="- Source domains: {value}",
    operators="- Operators: {value}",
    models="- Models: {value}",
    spend="- Spend: {tokens} tokens, ${cost:.4f}, {calls} model calls; {rounds} round(s)",
    solve="- Solve: {convergence}; {risks} unresolved high risk(s); {outer} outer round(s), "
    "{attempts} plan/audit attempt(s)",
    solve_failure="- Solve failure: {text}",
    constraint_added="- Constraint added from a risk: {text}",
    note="- {kind} (outer {outer}): {text}",
    supervisor_findings="**Supervisor findings**",
    offline_label="; deterministic rules over this session's record, no language model",
    written_by="_AnswerPack written by {model}{label}._",
    no_answer="No answer.",
    no_solution="No solution.",
    no_evidence="No evidence was recorded.",
)

CHINESE_ANSWER_WORDS = AnswerWords(
    sections=("直接回答", "解决方案", "关键证据", "风险与边界", "假设排名", "约束合规", "方法"),
    verdict_pass="✅ 通过",
    verdict_violation="❌ 违反",
    verdict_unclear="❔ 不明确",
    status_compliant="所有硬约束都通过了审查。",
    status_unverified="没有违反任何硬约束，但有些无法检查（标为不明确）。",
    status_violation="**在允许的修订之后，没有方案能满足所有硬约束**；标为违反的行说明了哪一条无法满足。",
    convergence_converged="已收敛：最后一次审查没有发现高风险",
    convergence_limits="已达到迭代上限而停止",
    convergence_no_new="已停止：剩余风险没有带来新的约束",
    convergence_failed="已停止：一次模型调用失败",
    claim_ref="（论断 `{claim}`）",
    from_pool="，来自假设池 {ids}",
    over_verify="（VERIFY 未通过，但由本人决定保留）",
    evidence_with_source="{link} — {relation}：“{statement}”{claim}；{trace}",
    risk_line="**{severity}**{unresolved}：{text}{mitigation}",
    risk_unresolved="（未解决）",
    risk_mitigation=" — 缓解措施：{text}",
    no_risk="审查没有记录任何风险。",
    boundaries="**边界**",
    none_recorded="没有记录。",
    ranking_empty="假设池为空。",
    ranking_header="| # | 假设 | 领域 | 评分 | 门槛 | 验证 |",
    ranking_note="_只有通过验证的假设才参与排名。评分是规则层根据每个假设自身字段计算的综合分（0–10）；状态旁是验证的最终得分。_",
    revisions="_修订次数：{count}。_",
    no_constraint="没有提出硬约束。",
    compliance_header="| 约束 | 来源 | 裁决 | 理由 |",
    none="无",
    source_domains="- 来源领域：{value}",
    operators="- 算子：{value}",
    models="- 模型：{value}",
    spend="- 花费：{tokens} 个词元，${cost:.4f}，{calls} 次模型调用；{rounds} 轮",
    solve="- 求解：{convergence}；{risks} 个高风险未解决；{outer} 个外层轮次，{attempts} 次计划/审查尝试",
    solve_failure="- 求解失败：{text}",
    constraint_added="- 由风险新增的约束：{text}",
    note="- {kind}（外层第 {outer} 轮）：{text}",
    supervisor_findings="**监督者的发现**",
    offline_label="；基于本会话记录的确定性规则，不使用语言模型",
    written_by="_AnswerPack 由 {model} 撰写{label}。_",
    no_answer="没有回答。",
    no_solution="没有解决方案。",
    no_evidence="没有记录证据。",
    trace_user="由用户提供",
    trace_query="检索查询：{query}",
    trace_research="检索",
    validated_claim="已验证的论断",
    state_of_the_art="现有技术：{summary}",
    qualified="{claim} — 限定条件：{qualification}",
    stop_if="出现以下情况即停止：{condition}",
    ruled_out="已排除：{claim}（{reason}）",
    cannot_meet_answer="没有方案能满足所有硬约束：经过 {revisions} 次修订，求解得到的最佳方案仍然违反下列约束，因此不作为答案交付。",
    cannot_meet_line="“{constraint}”无法满足：{why}。放宽它将允许：{allows}",
    relaxing_fallback="被扣下的方案的做法：{answer}",
    solution_withheld="不交付解决方案：求解得到的最佳方案违反了一条硬约束（见直接回答）。",
    ranking_none_verified="没有假设通过验证，因此没有排名。",
    novelty_unverified="新颖性未经验证",
    unranked_heading="**已检查，未排名**（验证未通过或无法检查）：",
    unranked_line="{title}（{domain}）— 验证：{status}",
    value_labels=MappingProxyType(
        {
            **_evidence_labels(CHINESE_DOCUMENT_WORDS),
            "validated_claim": "已验证的论断",
            "high": "高",
            "medium": "中",
            "low": "低",
            "passed": "通过",
            "failed": "未通过",
            "escalated": "已升级",
            "abstained": "弃权",
            "unverified": "未验证",
            "user": "用户",
            "domain": "问题本身",
            "risk_refinement": "风险细化",
            "constraint_reframe_triggered": "触发约束重构",
            "constraint_added": "新增约束",
            "constraint_duplicate": "重复约束",
            "constraint_conflict_detected": "发现约束冲突",
            "constraint_pruned": "删减约束",
        }
    ),
)

JAPANESE_ANSWER_WORDS = AnswerWords(
    sections=("直接の回答", "解決策", "主な証拠", "リスクと適用範囲", "仮説のランキング", "制約への適合", "方法"),
    verdict_pass="✅ 適合",
    verdict_violation="❌ 違反",
    verdict_unclear="❔ 不明",
    status_compliant="厳格な制約はすべて監査に合格しました。",
    status_unverified="厳格な制約への違反はありませんが、一部は確認できませんでした（不明と表示）。",
    status_violation="**許容された修正の後も、すべての厳格な制約を満たす解決策はありません**。"
    "違反と表示された行が、満たせない制約を示します。",
    convergence_converged="収束：最後の監査で高リスクは見つかりませんでした",
    convergence_limits="反復の上限で停止しました",
    convergence_no_new="停止：残りのリスクから新しい制約は得られませんでした",
    convergence_failed="停止：モデル呼び出しが失敗しました",
    claim_ref="（主張 `{claim}`）",
    from_pool="、仮説プール {ids} から",
    over_verify="（VERIFY では不合格でしたが、本人の判断で採用）",
    evidence_with_source="{link} — {relation}：「{statement}」{claim}。{trace}",
    risk_line="**{severity}**{unresolved}：{text}{mitigation}",
    risk_unresolved="（未解決）",
    risk_mitigation=" — 緩和策：{text}",
    no_risk="監査で記録されたリスクはありません。",
    boundaries="**適用範囲**",
    none_recorded="記録なし。",
    ranking_empty="仮説プールは空です。",
    ranking_header="| # | 仮説 | 分野 | スコア | ゲート | 検証 |",
    ranking_note="_検証に合格した仮説だけがランキングに入ります。スコアは、各仮説自身の項目からルール層が算出した"
    "総合点（0–10）で、状態の横は検証の最終スコアです。_",
    revisions="_修正回数：{count}。_",
    no_constraint="厳格な制約は示されていません。",
    compliance_header="| 制約 | 由来 | 判定 | 理由 |",
    none="なし",
    source_domains="- 元の分野：{value}",
    operators="- 演算子：{value}",
    models="- モデル：{value}",
    spend="- 費用：{tokens} トークン、${cost:.4f}、モデル呼び出し {calls} 回、{rounds} ラウンド",
    solve="- 解決：{convergence}。未解決の高リスク {risks} 件、外側 {outer} ラウンド、計画/監査を {attempts} 回試行",
    solve_failure="- 解決の失敗：{text}",
    constraint_added="- リスクから追加された制約：{text}",
    note="- {kind}（外側 {outer} ラウンド目）：{text}",
    supervisor_findings="**スーパーバイザーの指摘**",
    offline_label="。このセッションの記録に対する決定的なルールで、言語モデルは使っていません",
    written_by="_AnswerPack の作成：{model}{label}。_",
    no_answer="回答なし。",
    no_solution="解決策なし。",
    no_evidence="証拠は記録されていません。",
    trace_user="ユーザー提供",
    trace_query="検索クエリ：{query}",
    trace_research="調査",
    validated_claim="検証済みの主張",
    state_of_the_art="技術の現状：{summary}",
    qualified="{claim} — 限定条件：{qualification}",
    stop_if="中止条件：{condition}",
    ruled_out="除外：{claim}（{reason}）",
    cannot_meet_answer="すべての厳格な制約を満たす解決策はありません。{revisions} 回の修正の後も、最良の計画は"
    "次の制約に違反しているため、回答としては提示しません。",
    cannot_meet_line="「{constraint}」は満たせません：{why}。緩和すれば可能になること：{allows}",
    relaxing_fallback="提示しなかった計画の内容：{answer}",
    solution_withheld="解決策は提示しません。最良の解決策が厳格な制約に違反しています（直接の回答を参照）。",
    ranking_none_verified="検証に合格した仮説がないため、ランキングはありません。",
    novelty_unverified="新規性は未検証",
    unranked_heading="**確認済み、ランキング外**（検証に不合格、または確認できなかったもの）：",
    unranked_line="{title}（{domain}）— 検証：{status}",
    value_labels=MappingProxyType(
        {
            **_evidence_labels(JAPANESE_DOCUMENT_WORDS),
            "validated_claim": "検証済みの主張",
            "high": "高",
            "medium": "中",
            "low": "低",
            "passed": "合格",
            "failed": "不合格",
            "escalated": "上位判定へ",
            "abstained": "判定保留",
            "unverified": "未検証",
            "user": "ユーザー",
            "domain": "問題そのもの",
            "risk_refinement": "リスクからの具体化",
            "constraint_reframe_triggered": "制約の再構成",
            "constraint_added": "制約の追加",
            "constraint_duplicate": "重複した制約",
            "constraint_conflict_detected": "制約の衝突を検出",
            "constraint_pruned": "制約の削除",
        }
    ),
)

_WORDS = {
    DocumentLanguage.EN: ENGLISH_ANSWER_WORDS,
    DocumentLanguage.ZH: CHINESE_ANSWER_WORDS,
    DocumentLanguage.JA: JAPANESE_ANSWER_WORDS,
}


def answer_words(language: DocumentLanguage) -> AnswerWords:
    return _WORDS[language]


def answer_words_for(question: str) -> AnswerWords:
    """The AnswerPack's words in the language the question was asked in."""
    return _WORDS[problem_language(question)]
