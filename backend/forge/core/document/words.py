"""The fixed words of the Knowledge Document, in English, Simplified Chinese and Japanese.

Invariants:
    - One frozen `DocumentWords` per `DocumentLanguage`; `ENGLISH_DOCUMENT_WORDS` renders the exact
      bytes the document had before it was translated.
    - Templates are `str.format` patterns filled by the renderer with already-escaped values; a
      template never carries Markdown taken from the state.
    - Chinese and Japanese terms follow the SPA's locales (论断 / 主張 for claims, 裁决 / 判定 for
      verdicts, 硬约束 / 厳格な制約 for hard constraints); where both show the same fact (a status,
      a section title, a score's name) the words are the same, checked against the locale files by
      tests/unit/core/document/test_words_match_spa_locales.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from forge.core.document.problem_language import DocumentLanguage, problem_language


@dataclass(frozen=True, slots=True)
class DocumentWords:
    title_with_subject: str
    title_alone: str
    sections: tuple[str, ...]
    meta_session: str
    meta_generated: str
    meta_model: str
    meta_rounds: str
    selected_reframings: str
    none_selected: str
    fundamentals: str
    assumptions: str
    none_recorded: str
    assumption_confirmed: str
    assumption_rejected: str
    assumption_unreviewed: str
    not_mapped: str
    sources_line: str
    no_sources: str
    analogy_distance: str
    analogy_table_header: str
    analogy_observable: str
    analogy_failure_mode: str
    no_analogies: str
    matrix_cell: str
    matrix_found_principles: str
    matrix_found_empty: str
    contradiction_head: str
    contradiction_principles: str
    no_contradictions: str
    morphological_box: str
    morphological_header: str
    adjacent_possible: str
    claim_status: str
    claim_thesis: str
    claim_antithesis: str
    claim_falsifiable_if: str
    claim_qualification: str
    claim_field: str
    claim_scores: str
    claim_evidence: str
    no_validated: str
    graph_empty: str
    negative_item: str
    nothing_rejected: str
    no_gaps: str
    source_user: str
    source_query: str
    source_research: str
    summary_heading: str
    narrative_written_by: str
    recommendations: str
    open_questions: str
    none: str
    direct_answer_heading: str
    compliance_compliant: str
    compliance_unverified: str
    compliance_violation: str
    compliance_line: str
    # Labels for the enum values the document shows (claim status and confidence, evidence type,
    # reframing type, semantic distance), as the SPA's locales name them; a missing value reads as itself.
    value_labels: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def label(self, value: str) -> str:
        return self.value_labels.get(value, value)


ENGLISH_DOCUMENT_WORDS = DocumentWords(
    title_with_subject="Knowledge Document: {subject}",
    title_alone="Knowledge Document",
    sections=(
        "1. Problem and Framing",
        "2. Fundamentals and Assumptions",
        "3. State of the Art",
        "4. Cross-Domain Analogies",
        "5. Contradictions and Solution Space",
        "6. Validated Knowledge",
        "7. Knowledge Graph",
        "8. Negative Knowledge",
        "9. Gaps and Open Questions",
        "10. Evidence and Sources",
    ),
    meta_session="- Session: `{session}`",
    meta_generated="- Generated: {at}",
    meta_model="- Model: {model}",
    meta_rounds="- Rounds: {rounds}",
    selected_reframings="**Selected reframings**",
    none_selected="None selected.",
    fundamentals="**Fundamentals**",
    assumptions="**Assumptions**",
    none_recorded="None recorded.",
    assumption_confirmed="confirmed",
    assumption_rejected="rejected",
    assumption_unreviewed="unreviewed",
    not_mapped="Not mapped.",
    sources_line="Sources: {cites}",
    no_sources="No sources.",
    analogy_distance="{distance} domain",
    analogy_table_header="| Source | Target | Relation |",
    analogy_observable="- Observable: {text}",
    analogy_failure_mode="- Failure mode: {text}",
    no_analogies="No analogies.",
    matrix_cell=" TRIZ matrix cell: improving #{improving} {improving_name} against worsening "
    "#{worsening} {worsening_name} ({found}).",
    matrix_found_principles="its principles",
    matrix_found_empty="an empty cell",
    contradiction_head="**{a} vs {b}**: ",
    contradiction_principles=" (principles: {principles})",
    no_contradictions="No contradictions.",
    morphological_box="**Morphological box**",
    morphological_header="| Parameter | Options |",
    adjacent_possible="**Adjacent possible**",
    claim_status="- Status: {status}; confidence: {confidence}; round {round}",
    claim_thesis="Thesis",
    claim_antithesis="Antithesis",
    claim_falsifiable_if="Falsifiable if",
    claim_qualification="Qualification",
    claim_field="- {label}: {text}",
    claim_scores="- Scores: novelty {novelty:.2f}, groundedness {groundedness:.2f}, "
    "falsifiability {falsifiability:.2f}, significance {significance:.2f}",
    claim_evidence="- Evidence: {items}",
    no_validated="No validated claims.",
    graph_empty="The graph is empty.",
    negative_item="{claim} — {reason} (round {round})",
    nothing_rejected="Nothing rejected.",
    no_gaps="No gaps recorded.",
    source_user="provided by the user",
    source_query="research query: “{query}”",
    source_research="research",
    summary_heading="Summary",
    narrative_written_by="_Written by {model} from the session's recorded work._",
    recommendations="**Recommendations**",
    open_questions="**Open questions**",
    none="None.",
    direct_answer_heading="Direct Answer",
    compliance_compliant="every hard constraint passed the audit",
    compliance_unverified="no hard constraint is violated; some could not be checked",
    compliance_violation="**no solution meets every hard constraint** — the answer above says which cannot be met "
    "and what relaxing it would allow",
    compliance_line="_Constraint compliance: {status}. Written by {model}._",
)

CHINESE_DOCUMENT_WORDS = DocumentWords(
    title_with_subject="知识文档：{subject}",
    title_alone="知识文档",
    sections=(
        "1. 问题与框定",
        "2. 基本原理与假设",
        "3. 研究现状",
        "4. 跨领域类比",
        "5. 矛盾与解空间",
        "6. 已验证的知识",
        "7. 知识图谱",
        "8. 负面知识",
        "9. 空白与未决问题",
        "10. 证据与来源",
    ),
    meta_session="- 会话：`{session}`",
    meta_generated="- 生成时间：{at}",
    meta_model="- 模型：{model}",
    meta_rounds="- 轮数：{rounds}",
    selected_reframings="**选定的重构**",
    none_selected="未选定。",
    fundamentals="**基本原理**",
    assumptions="**假设**",
    none_recorded="没有记录。",
    assumption_confirmed="已确认",
    assumption_rejected="已否决",
    assumption_unreviewed="未审阅",
    not_mapped="尚未梳理。",
    sources_line="来源：{cites}",
    no_sources="没有来源。",
    analogy_distance="{distance}",
    analogy_table_header="| 来源 | 目标 | 关系 |",
    analogy_observable="- 可观测指标：{text}",
    analogy_failure_mode="- 失效模式：{text}",
    no_analogies="没有类比。",
    matrix_cell=" TRIZ 矩阵单元：改善 #{improving} {improving_name}，恶化 #{worsening} {worsening_name}（{found}）。",
    matrix_found_principles="取其原理",
    matrix_found_empty="空单元",
    contradiction_head="**{a} 与 {b}**：",
    contradiction_principles="（原理：{principles}）",
    no_contradictions="没有矛盾。",
    morphological_box="**形态矩阵**",
    morphological_header="| 参数 | 选项 |",
    adjacent_possible="**相邻可能**",
    claim_status="- 状态：{status}；置信度：{confidence}；第 {round} 轮",
    claim_thesis="正题",
    claim_antithesis="反题",
    claim_falsifiable_if="可证伪条件",
    claim_qualification="限定条件",
    claim_field="- {label}：{text}",
    claim_scores="- 评分：新颖性 {novelty:.2f}，有据性 {groundedness:.2f}，"
    "可证伪性 {falsifiability:.2f}，重要性 {significance:.2f}",
    claim_evidence="- 证据：{items}",
    no_validated="没有已验证的论断。",
    graph_empty="图谱为空。",
    negative_item="{claim} — {reason}（第 {round} 轮）",
    nothing_rejected="没有被否决的内容。",
    no_gaps="没有记录空白。",
    source_user="由用户提供",
    source_query="研究查询：“{query}”",
    source_research="研究",
    summary_heading="摘要",
    narrative_written_by="_由 {model} 根据本会话的记录撰写。_",
    recommendations="**建议**",
    open_questions="**未决问题**",
    none="无。",
    direct_answer_heading="直接回答",
    compliance_compliant="所有硬约束都通过了审查",
    compliance_unverified="没有违反任何硬约束，但有些无法检查",
    compliance_violation="**没有方案能满足所有硬约束** — 上面的回答说明了哪一条无法满足，以及放宽它将允许什么",
    compliance_line="_约束合规：{status}。由 {model} 撰写。_",
    value_labels=MappingProxyType(
        {
            "proposed": "已提出",
            "validated": "已验证",
            "rejected": "已否决",
            "qualified": "有条件成立",
            "superseded": "已被取代",
            "speculative": "推测性",
            "emerging": "初步成形",
            "grounded": "有依据",
            "supporting": "支持",
            "contradicting": "反驳",
            "contextual": "背景",
            "scope_change": "改变范围",
            "entity_question": "追问对象",
            "variable_change": "改变变量",
            "domain_change": "改变领域",
            "near": "近距离",
            "medium": "中等距离",
            "far": "远距离",
        }
    ),
)

JAPANESE_DOCUMENT_WORDS = DocumentWords(
    title_with_subject="ナレッジドキュメント：{subject}",
    title_alone="ナレッジドキュメント",
    sections=(
        "1. 問題と枠組み",
        "2. 基本原理と前提",
        "3. 現状の到達点",
        "4. 異分野アナロジー",
        "5. 矛盾と解空間",
        "6. 検証済みの知識",
        "7. ナレッジグラフ",
        "8. ネガティブな知識",
        "9. ギャップと未解決の問い",
        "10. 証拠と出典",
    ),
    meta_session="- セッション：`{session}`",
    meta_generated="- 生成日時：{at}",
    meta_model="- モデル：{model}",
    meta_rounds="- ラウンド数：{rounds}",
    selected_reframings="**選択した捉え直し**",
    none_selected="選択なし。",
    fundamentals="**基本原理**",
    assumptions="**前提**",
    none_recorded="記録なし。",
    assumption_confirmed="確認済み",
    assumption_rejected="却下",
    assumption_unreviewed="未確認",
    not_mapped="まだ整理されていません。",
    sources_line="出典：{cites}",
    no_sources="出典なし。",
    analogy_distance="{distance}",
    analogy_table_header="| 元 | 対象 | 関係 |",
    analogy_observable="- 観測できる指標：{text}",
    analogy_failure_mode="- 失敗モード：{text}",
    no_analogies="アナロジーなし。",
    matrix_cell=" TRIZ 矛盾マトリクスのセル：改善 #{improving} {improving_name}、悪化 #{worsening} "
    "{worsening_name}（{found}）。",
    matrix_found_principles="その原理を採用",
    matrix_found_empty="空のセル",
    contradiction_head="**{a} 対 {b}**：",
    contradiction_principles="（原理：{principles}）",
    no_contradictions="矛盾なし。",
    morphological_box="**形態ボックス**",
    morphological_header="| パラメータ | 選択肢 |",
    adjacent_possible="**隣接可能性**",
    claim_status="- 状態：{status}、確信度：{confidence}、第 {round} ラウンド",
    claim_thesis="テーゼ",
    claim_antithesis="アンチテーゼ",
    claim_falsifiable_if="反証条件",
    claim_qualification="限定条件",
    claim_field="- {label}：{text}",
    claim_scores="- スコア：新規性 {novelty:.2f}、根拠の強さ {groundedness:.2f}、"
    "反証可能性 {falsifiability:.2f}、重要性 {significance:.2f}",
    claim_evidence="- 証拠：{items}",
    no_validated="検証済みの主張なし。",
    graph_empty="グラフは空です。",
    negative_item="{claim} — {reason}（第 {round} ラウンド）",
    nothing_rejected="却下されたものはありません。",
    no_gaps="ギャップの記録なし。",
    source_user="ユーザー提供",
    source_query="調査クエリ：「{query}」",
    source_research="調査",
    summary_heading="要約",
    narrative_written_by="_{model} がこのセッションの記録をもとに作成しました。_",
    recommendations="**推奨事項**",
    open_questions="**未解決の問い**",
    none="なし。",
    direct_answer_heading="直接の回答",
    compliance_compliant="厳格な制約はすべて監査に合格しました",
    compliance_unverified="厳格な制約への違反はありませんが、一部は確認できませんでした",
    compliance_violation="**すべての厳格な制約を満たす解決策はありません** — 満たせない制約と、緩和すれば可能になることは上の回答にあります",
    compliance_line="_制約への適合：{status}。作成：{model}。_",
    value_labels=MappingProxyType(
        {
            "proposed": "提案中",
            "validated": "検証済み",
            "rejected": "却下",
            "qualified": "条件付き",
            "superseded": "置き換え済み",
            "speculative": "推測的",
            "emerging": "形成途上",
            "grounded": "根拠あり",
            "supporting": "支持",
            "contradicting": "反証",
            "contextual": "背景",
            "scope_change": "範囲の変更",
            "entity_question": "対象の問い直し",
            "variable_change": "変数の変更",
            "domain_change": "分野の変更",
            "near": "近い分野",
            "medium": "中程度の距離",
            "far": "遠い分野",
        }
    ),
)

_WORDS = {
    DocumentLanguage.EN: ENGLISH_DOCUMENT_WORDS,
    DocumentLanguage.ZH: CHINESE_DOCUMENT_WORDS,
    DocumentLanguage.JA: JAPANESE_DOCUMENT_WORDS,
}


def document_words(language: DocumentLanguage) -> DocumentWords:
    return _WORDS[language]


def document_words_for(problem: str) -> DocumentWords:
    """The Knowledge Document's words in the language the problem was written in."""
    return _WORDS[problem_language(problem)]
