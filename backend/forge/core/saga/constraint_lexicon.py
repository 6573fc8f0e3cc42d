"""The words of Layer 4's offline constraint rule (`constraint_rule.py`): which resources a hard
constraint can protect, which words propose a change to them, and which words negate a proposal —
in English and Chinese. A general lexicon of the resources problems are usually bounded by (people,
money, prices, buildings, software, working hours), never the sentences of any test or benchmark.

Invariants:
    - English words are stored in their singular / base form; `fold_noun` and `verb_forms` give the
      forms a text may use.
    - A resource's `heads` name it on their own ("nurses", "budget"); its `weak_heads` name it only
      when a head word modifies them ("staff members", "booking software system").
    - `implied` verbs propose the resource's change whatever their object ("hire", "buy", "build").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class ChangeKind(str, Enum):
    """What a constraint forbids doing to a resource."""

    INCREASE = "increase"  # more of it: hire, add, raise, expand
    DECREASE = "decrease"  # less of it: cut, reduce, lay off
    BUILD = "build"  # a new one: build, construct, open a new
    CHANGE = "change"  # a different one: change, modify, replace, install


@dataclass(frozen=True, slots=True)
class Resource:
    name: str
    default: ChangeKind  # what "no <resource>" forbids when the constraint names no change
    heads: frozenset[str]
    weak_heads: frozenset[str] = frozenset()
    implied: frozenset[str] = frozenset()  # English verbs (base form) that change it by themselves
    zh: tuple[str, ...] = ()  # Chinese names of the resource
    zh_implied: tuple[str, ...] = ()  # Chinese verbs that change it by themselves (its default kind)
    zh_decrease: tuple[str, ...] = ()  # Chinese verbs that decrease it by themselves ("裁员")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


RESOURCES: tuple[Resource, ...] = (
    Resource(
        "staff",
        ChangeKind.INCREASE,
        _words(
            "staff staffing headcount nurse doctor physician clinician practitioner employee worker personnel "
            "workforce hire recruit team porter receptionist scribe technician paramedic surgeon pharmacist "
            "assistant teacher engineer operator agent clerk"
        ),
        _words("member people person position post role"),
        _words("hire recruit"),
        ("人手", "员工", "人员", "护士", "医生", "职员", "雇员", "人力", "编制", "医护", "工作人员", "人数", "员额"),
        ("招聘", "招募", "雇佣", "雇用", "聘请", "扩招", "增员", "招人"),
        ("裁员", "减员", "辞退", "解雇", "裁撤"),
    ),
    Resource(
        "budget",
        ChangeKind.INCREASE,
        _words("budget spending spend funding fund money cost capital investment expenditure expense cash outlay"),
        implied=_words("buy purchase invest spend procure"),
        zh=("预算", "经费", "资金", "投入", "开支", "费用", "成本", "投资", "支出"),
        zh_implied=("购买", "采购", "购置", "投资", "花费"),
    ),
    Resource(
        "price",
        ChangeKind.INCREASE,
        _words("price pricing fee fare tariff charge surcharge premium toll rent"),
        zh=("价格", "售价", "票价", "收费", "费率", "定价", "房价", "价钱"),
        zh_implied=("涨价", "提价", "加价"),
    ),
    Resource(
        "building",
        ChangeKind.BUILD,
        _words("building construction facility wing extension premises annex annexe ward clinic floor storey"),
        _words("room space area site unit centre center hall"),
        _words("construct erect"),
        ("建筑", "大楼", "楼房", "新楼", "楼宇", "设施", "场地", "厂房", "病房", "建筑物", "房屋", "楼"),
        ("新建", "建造", "扩建", "修建", "兴建", "盖楼", "加盖"),
    ),
    Resource(
        "software",
        ChangeKind.CHANGE,
        _words(
            "software app application code platform program programme ehr emr database website portal algorithm "
            "computer digital electronic online"
        ),
        _words("system tool feature module interface screen setting configuration alert dashboard record"),
        _words("reprogram recode"),
        ("软件", "系统", "程序", "代码", "平台", "应用", "数据库", "信息系统"),
        ("编程", "开发"),
    ),
    Resource(
        "hours",
        ChangeKind.INCREASE,
        _words("hour overtime shift workday timeline deadline schedule"),
        zh=("工时", "加班", "营业时间", "工作时间", "班次", "工期"),
        zh_implied=("加班",),
    ),
)

# English: the verbs and markers that propose each kind of change (base forms).
CHANGE_WORDS: dict[ChangeKind, frozenset[str]] = {
    ChangeKind.INCREASE: _words(
        "add hire recruit employ raise increase expand boost double triple grow augment enlarge extend lengthen "
        "hike lift top bring take put scale ramp more extra additional another new buy purchase invest spend fund"
    ),
    ChangeKind.DECREASE: _words("cut reduce lower shrink remove eliminate lay drop fewer less slash trim"),
    ChangeKind.BUILD: _words(
        "build construct erect open add extend expand new create establish set convert refurbish renovate"
    ),
    ChangeKind.CHANGE: _words(
        "change modify alter replace rewrite upgrade update install deploy introduce implement add build develop "
        "new reprogram reconfigure customise customize patch switch adopt migrate redesign"
    ),
}
QUANTIFIERS = _words("more extra additional another new fewer less")  # markers before the noun, not verbs
# Words between a change word and its object that do not end the object ("hire two more nurses").
FILLERS = _words(
    "a an the some any of our its their two three four five six seven eight nine ten dozen several few many "
    "more extra additional new another up on in off additional further dedicated full part time full-time "
    "part-time temporary agency"
)
# Nouns that only count or measure what follows "of" ("the number of nurses").
TRANSPARENT = _words("number amount level size count pool supply share ratio quota headcount capacity")
# Before a proposal in its clause, these make it not a proposal ("instead of hiring", "without new hires").
NEGATORS = _words("no not never without nor neither none zero avoid avoids avoiding cannot instead rather n't")
CLAUSE_BREAKS = frozenset(".;:!?,()") | _words("but while whereas although though so")
KEEP_WORDS = _words("keep keeps maintain retain same existing current unchanged only")
GRADABLE_SUFFIXES = ("ent", "ive", "ful", "ous", "ible", "able", "ly", "er", "est")

# Chinese
ZH_CHANGE: dict[ChangeKind, tuple[str, ...]] = {
    ChangeKind.INCREASE: (
        "增加", "增设", "增派", "加派", "多派", "多配", "扩充", "扩大", "新增", "添加", "补充", "追加", "加大",
        "提高", "上调", "提升", "延长", "增多", "额外", "更多", "再招", "翻倍", "加倍", "加",
    ),
    ChangeKind.DECREASE: ("减少", "削减", "裁减", "裁员", "缩减", "降低", "下调", "压缩"),
    ChangeKind.BUILD: ("新建", "建造", "扩建", "修建", "兴建", "建设", "新盖", "加盖", "新开", "开设", "新增"),
    ChangeKind.CHANGE: ("修改", "更换", "更改", "替换", "升级", "改造", "重写", "改动", "变更", "安装", "部署", "引入",
                        "上线", "开发", "新增"),
}  # fmt: skip
ZH_NEGATORS = ("不", "与其", "无需", "无须", "不必", "不用", "没有", "避免", "而非", "而不是", "不需要", "不再", "无", "未",
               "别", "勿", "禁止", "不得", "不能", "不可", "不要", "不准", "非")  # fmt: skip
ZH_COUNT_WORDS = ("人数", "数量", "规模", "编制", "名额", "的人数", "的数量")
ZH_KEEP = ("保持", "维持", "沿用", "现有", "不变")
# Between a Chinese change word and the resource: numbers, measure words, "more", "new", "temporary".
ZH_FILLER = "0123456789一二两三四五六七八九十百几数多更额外的名位个批些支新临时兼职专职全职若干"
# After a resource, nouns it only modifies ("员工培训": staff training, not more staff).
ZH_ATTRIBUTES = ("培训", "排班", "效率", "满意度", "积极性", "利用率", "工作量", "负担", "流程", "休息", "技能", "分工",
                 "激励", "考核", "轮班", "能力", "士气", "安排", "调配", "沟通", "协作", "待遇", "薪酬", "时间")  # fmt: skip


def fold_noun(word: str) -> str:
    """A plural folded to its singular ("nurses" → "nurse", "facilities" → "facility")."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


_IRREGULAR = {
    "built": "build", "brought": "bring", "took": "take", "taken": "take", "grew": "grow", "grown": "grow",
    "laid": "lay", "spent": "spend", "bought": "buy",
}  # fmt: skip


def verb_candidates(word: str) -> frozenset[str]:
    """The base forms `word` may be: "adding" → add, "raised" → raise, "planned" → plan, "expands" → expand."""
    forms = {word, _IRREGULAR.get(word, word)}
    for suffix in ("ing", "ed", "es", "s", "d"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            stem = word[: -len(suffix)]
            forms |= {stem, stem + "e"}
            if stem[-1] == stem[-2]:
                forms.add(stem[:-1])
    return frozenset(forms)
