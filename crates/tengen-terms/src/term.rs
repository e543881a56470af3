//! The names themselves: Chinese, pinyin, English, Japanese, kind, and the global order of
//! terms.md §4.4 in which a move's names are listed.

use serde::Serialize;

/// What a name describes (terms.md §3.2 and Appendix A).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Atari, capture, ladder, throw-in …
    Tactic,
    /// Contact with the opponent's stones: hane, butt, attach …
    Contact,
    /// Cuts, wedges and probes.
    Cut,
    /// A shape formed by stones, or an eye-space shape.
    Shape,
    /// A move relative to one's own stones: jump, knight's move, extension …
    Move,
    /// Opening vocabulary: approach, enclosure, pincer, big point …
    Opening,
    /// Reductions and invasions.
    Reduction,
    /// Ko.
    Ko,
    /// A named point: star point, 3-4 point …
    Position,
    /// Corner, side or centre.
    Region,
    /// A judgement from the engine: bad move, brilliant move …
    Evaluation,
    /// A true or false eye.
    Eye,
    /// A property of an empty point: forbidden point, tiger's mouth.
    Point,
    /// The status of a chain: seki.
    Status,
}

/// One name with its translations, as it appears in an answer.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Term {
    /// The canonical simplified Chinese name.
    pub zh: String,
    /// Pinyin with tone marks.
    pub pinyin: String,
    /// English.
    pub en: String,
    /// Japanese (romanised), empty where the term has none (and then left out of JSON).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub ja: String,
    /// What it describes.
    pub kind: Kind,
}

use Kind::*;

/// Every fixed name, in the global order of terms.md §4.4 (groups 1–8), then the names that
/// are only given to points, eyes, eye spaces and chains.
const TABLE: &[(&str, &str, &str, &str, Kind)] = &[
    // 1. tactic / ko
    ("倒扑", "dàopū", "snapback", "uttegaeshi", Tactic),
    ("滚打", "gǔndǎ", "squeeze", "shibori", Tactic),
    ("双打", "shuāngdǎ", "double atari", "ryō-atari", Tactic),
    ("征", "zhēng", "ladder", "shichō", Tactic),
    ("枷", "jiā", "net", "geta", Tactic),
    ("打劫", "dǎjié", "take a ko", "kō o toru", Ko),
    ("打二还一", "dǎ èr huán yī", "capture two, give one back", "", Ko),
    ("打三还一", "dǎ sān huán yī", "capture three, give one back", "", Ko),
    ("打四还一", "dǎ sì huán yī", "capture four, give one back", "", Ko),
    ("提", "tí", "capture", "tori", Tactic),
    ("扑", "pū", "throw-in", "horikomi", Tactic),
    ("打吃", "dǎchī", "atari", "atari", Tactic),
    ("粘劫", "zhānjié", "connect the ko", "kō o tsugu", Ko),
    ("找劫", "zhǎojié", "look for a ko threat", "kōdate", Ko),
    ("劫材", "jiécái", "ko threat", "kōzai", Ko),
    ("应劫", "yìngjié", "answer a ko threat", "kō o ukeru", Ko),
    ("连环劫", "liánhuánjié", "multiple ko", "", Ko),
    ("引征", "yǐnzhēng", "ladder breaker", "shichō-atari", Tactic),
    ("紧气", "jǐnqì", "fill a liberty in a race", "dame-zume", Tactic),
    ("聚", "jù", "fill the eye space", "", Tactic),
    // 2. cut / contact
    ("纽十字", "niǔshízì", "crosscut", "kiri-chigai", Cut),
    ("断", "duàn", "cut", "kiri", Cut),
    ("挖", "wā", "wedge", "warikomi", Cut),
    ("冲", "chōng", "push through", "de", Cut),
    ("跨", "kuà", "straddle", "tsukekoshi", Cut),
    ("卡", "qiǎ", "push into a knight's move", "", Cut),
    ("挤", "jǐ", "push into a diagonal", "", Cut),
    ("掖", "yè", "tuck beside a diagonal", "", Cut),
    ("刺", "cì", "peep", "nozoki", Cut),
    ("连扳", "liánbān", "double hane", "nidan-bane", Contact),
    ("反扳", "fǎnbān", "counter-hane", "hane-kaeshi", Contact),
    ("扳", "bān", "hane", "hane", Contact),
    ("尖顶", "jiāndǐng", "diagonal butt", "kosumi-tsuke", Contact),
    ("鼻顶", "bídǐng", "nose butt", "hanazuke", Contact),
    ("顶", "dǐng", "butt", "butsukari", Contact),
    ("挡", "dǎng", "block", "osae", Contact),
    ("拐", "guǎi", "turn", "magari", Contact),
    ("压", "yā", "press", "oshi", Contact),
    ("贴", "tiē", "follow behind", "", Contact),
    ("爬", "pá", "crawl", "hai", Contact),
    ("挺", "tǐng", "stand up at the head", "", Contact),
    ("退", "tuì", "draw back", "hiki", Contact),
    ("托", "tuō", "attach underneath", "shita-tsuke", Contact),
    ("搭", "dā", "side attachment", "tsuke", Contact),
    ("靠", "kào", "supported contact", "tsuke", Contact),
    ("碰", "pèng", "unsupported contact", "tsuke", Contact),
    ("点", "diǎn", "placement", "oki", Cut),
    ("渡", "dù", "bridge under", "watari", Move),
    // 3. own shape / move
    ("双虎", "shuānghǔ", "double tiger", "", Move),
    ("虎", "hǔ", "hanging connection", "kaketsugi", Move),
    ("鼓", "gǔ", "apex of the 品", "", Move),
    ("双", "shuāng", "bamboo joint", "takefu", Move),
    ("粘", "zhān", "connect after atari", "tsugi", Move),
    ("接", "jiē", "connect", "tsugi", Move),
    ("补", "bǔ", "reinforce", "teire", Move),
    ("团", "tuán", "clump", "dango", Move),
    ("曲", "qū", "bend", "magari", Move),
    ("玉柱", "yùzhù", "solid descent", "", Move),
    ("立", "lì", "descend", "sagari", Move),
    ("并", "bìng", "side-by-side", "narabi", Move),
    ("长", "cháng", "extend", "nobi", Move),
    ("尖", "jiān", "diagonal move", "kosumi", Move),
    ("连", "lián", "loose link", "", Move),
    ("关", "guān", "one-space jump to the centre", "ikken-tobi", Move),
    ("跳", "tiào", "jump", "tobi", Move),
    ("大跳", "dàtiào", "two-space jump", "nikken-tobi", Move),
    ("小飞", "xiǎofēi", "knight's move", "keima", Move),
    ("大飞", "dàfēi", "large knight's move", "ōgeima", Move),
    ("象步飞", "xiàngbùfēi", "elephant's step", "", Move),
    ("拆一", "chāiyī", "one-space extension", "ikken-biraki", Move),
    ("拆二", "chāi'èr", "two-space extension", "nikken-biraki", Move),
    ("拆三", "chāisān", "three-space extension", "sangen-biraki", Move),
    ("拆四", "chāisì", "four-space extension", "yongen-biraki", Move),
    ("拆五", "chāiwǔ", "five-space extension", "gogen-biraki", Move),
    ("拆六", "chāiliù", "six-space extension", "rokken-biraki", Move),
    ("拆", "chāi", "extension", "hiraki", Move),
    // 4. opening / reduction
    ("双飞燕", "shuāngfēiyàn", "double approach", "ryōgakari", Opening),
    ("小飞挂", "xiǎofēiguà", "low knight's approach", "kogeima-gakari", Opening),
    ("一间高挂", "yījiān gāoguà", "one-space high approach", "ikken-takagakari", Opening),
    ("大飞挂", "dàfēiguà", "large-knight approach", "ōgeima-gakari", Opening),
    ("二间高挂", "èrjiān gāoguà", "two-space high approach", "nikken-takagakari", Opening),
    ("挂", "guà", "approach", "kakari", Opening),
    ("小飞缔", "xiǎofēi dì", "small-knight enclosure", "kogeima-jimari", Opening),
    ("一间缔", "yījiān dì", "one-space enclosure", "ikken-jimari", Opening),
    ("大飞缔", "dàfēi dì", "large-knight enclosure", "ōgeima-jimari", Opening),
    ("大跳缔", "dàtiào dì", "two-space enclosure", "nikken-jimari", Opening),
    ("缔", "dì", "enclosure", "shimari", Opening),
    ("反夹", "fǎnjiā", "counter-pincer", "hasami-kaeshi", Opening),
    ("一间低夹", "yījiān dījiā", "one-space low pincer", "ikken-basami", Opening),
    ("一间高夹", "yījiān gāojiā", "one-space high pincer", "ikken-takabasami", Opening),
    ("二间低夹", "èrjiān dījiā", "two-space low pincer", "nikken-basami", Opening),
    ("二间高夹", "èrjiān gāojiā", "two-space high pincer", "nikken-takabasami", Opening),
    ("三间低夹", "sānjiān dījiā", "three-space low pincer", "sangen-basami", Opening),
    ("三间高夹", "sānjiān gāojiā", "three-space high pincer", "sangen-takabasami", Opening),
    ("夹", "jiā", "pincer", "hasami", Opening),
    ("逼", "bī", "checking extension", "tsume", Opening),
    ("肩冲", "jiānchōng", "shoulder hit", "kata-tsuki", Reduction),
    ("镇", "zhèn", "cap", "bōshi", Reduction),
    ("拦", "lán", "block without contact", "", Reduction),
    ("封", "fēng", "seal in", "fūsa", Reduction),
    ("罩", "zhào", "loose cap", "", Reduction),
    ("分投", "fēntóu", "split", "wariuchi", Opening),
    ("打入", "dǎrù", "invasion", "uchikomi", Reduction),
    ("吊", "diào", "hanging reduction", "", Reduction),
    ("浅消", "qiǎnxiāo", "shallow reduction", "keshi", Reduction),
    ("大场", "dàchǎng", "big point", "ōba", Opening),
    // 5. shape formed
    ("凝形", "níngxíng", "clump shape", "", Shape),
    ("裂形", "lièxíng", "split shape", "", Shape),
    ("愚形", "yúxíng", "empty triangle", "gukei", Shape),
    // 6. position
    ("天元", "tiānyuán", "centre point", "tengen", Position),
    ("三三", "sānsān", "3-3 point", "san-san", Position),
    ("小目", "xiǎomù", "3-4 point", "komoku", Position),
    ("高目", "gāomù", "4-5 point", "takamoku", Position),
    ("目外", "mùwài", "3-5 point", "mokuhazushi", Position),
    ("五五", "wǔwǔ", "5-5 point", "gonogo", Position),
    ("星", "xīng", "star point", "hoshi", Position),
    // 7. region
    ("角", "jiǎo", "corner", "sumi", Region),
    ("边", "biān", "side", "hen", Region),
    ("中腹", "zhōngfù", "centre", "chūō", Region),
    // 8. evaluation
    ("大恶手", "dà èshǒu", "big blunder", "", Evaluation),
    ("恶手", "èshǒu", "bad move", "akushu", Evaluation),
    ("鬼手", "guǐshǒu", "devilish move", "kishu", Evaluation),
    ("妙手", "miàoshǒu", "brilliant move", "myōshu", Evaluation),
    ("胜负手", "shèngfùshǒu", "game-deciding move", "shōbute", Evaluation),
    ("嵌手", "qiànshǒu", "trick play", "hamete", Evaluation),
    ("强手", "qiángshǒu", "forceful move", "kyōshu", Evaluation),
    ("俗手", "súshǒu", "vulgar move", "zokusuji", Evaluation),
    ("随手", "suíshǒu", "careless move", "", Evaluation),
    ("缓手", "huǎnshǒu", "slack move", "yurumi", Evaluation),
    ("疑问手", "yíwènshǒu", "questionable move", "gimonshu", Evaluation),
    ("新手", "xīnshǒu", "novelty", "shinte", Evaluation),
    ("命令手", "mìnglìngshǒu", "forcing move with one answer", "kikashi", Evaluation),
    ("先手", "xiānshǒu", "sente", "sente", Evaluation),
    ("后手", "hòushǒu", "gote", "gote", Evaluation),
    ("试应手", "shìyìngshǒu", "probe", "yōsu-miru", Evaluation),
    ("涩手", "sèshǒu", "restrained move", "shibui te", Evaluation),
    ("本手", "běnshǒu", "proper move", "honte", Evaluation),
    ("急所", "jísuǒ", "vital point", "kyūsho", Evaluation),
    // not move names: eye spaces, eyes, points, status
    ("直三", "zhísān", "straight three", "", Shape),
    ("曲三", "qūsān", "bent three", "", Shape),
    ("直四", "zhísì", "straight four", "", Shape),
    ("曲四", "qūsì", "bent four", "", Shape),
    ("方四", "fāngsì", "square four", "", Shape),
    ("丁四", "dīngsì", "pyramid four", "", Shape),
    ("刀把五", "dāobǎwǔ", "bulky five", "", Shape),
    ("梅花五", "méihuāwǔ", "crossed five", "", Shape),
    ("花六", "huāliù", "rabbity six", "", Shape),
    ("板六", "bǎnliù", "rectangular six", "", Shape),
    ("聚七", "jùqī", "clustered seven", "", Shape),
    ("真眼", "zhēnyǎn", "true eye", "honme", Eye),
    ("假眼", "jiǎyǎn", "false eye", "kakeme", Eye),
    ("禁着点", "jìnzhuódiǎn", "forbidden point", "chakushu-kinshiten", Point),
    ("虎口", "hǔkǒu", "tiger's mouth", "", Point),
    ("双活", "shuānghuó", "seki", "seki", Status),
];

/// Chinese numerals for 打N还一 (N ≥ 2).
const DIGITS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
const DIGITS_PINYIN: [&str; 10] = ["", "yī", "èr", "sān", "sì", "wǔ", "liù", "qī", "bā", "jiǔ"];

/// `n` in Chinese numerals (1 ≤ n ≤ 999), with its pinyin.
fn numeral(n: usize) -> (String, String) {
    let mut zh = String::new();
    let mut py = Vec::new();
    let (h, t, u) = (n / 100, n / 10 % 10, n % 10);
    if h > 0 {
        zh.push_str(DIGITS[h]);
        zh.push('百');
        py.push(format!("{}bǎi", DIGITS_PINYIN[h]));
    }
    if t > 0 {
        if h > 0 || t > 1 {
            zh.push_str(DIGITS[t]);
            py.push(DIGITS_PINYIN[t].to_owned());
        }
        zh.push('十');
        py.push("shí".to_owned());
    } else if h > 0 && u > 0 {
        zh.push('零');
        py.push("líng".to_owned());
    }
    if u > 0 {
        zh.push_str(DIGITS[u]);
        py.push(DIGITS_PINYIN[u].to_owned());
    }
    (zh, py.join(""))
}

impl Term {
    /// The term with this canonical Chinese name, or `None` for an unknown name.
    #[must_use]
    pub fn named(zh: &str) -> Option<Term> {
        if let Some(&(zh, pinyin, en, ja, kind)) = TABLE.iter().find(|t| t.0 == zh) {
            return Some(Term { zh: zh.into(), pinyin: pinyin.into(), en: en.into(), ja: ja.into(), kind });
        }
        let n = zh.strip_prefix('打')?.strip_suffix("还一")?;
        (2..1000).find(|&k| numeral(k).0 == n).map(Term::give_one_back)
    }

    /// 打二还一, 打三还一 …: capturing `n` ≥ 2 stones where one can be taken back at once.
    #[must_use]
    pub fn give_one_back(n: usize) -> Term {
        let (zh, py) = numeral(n);
        let en = match n {
            2 => "two".to_owned(),
            3 => "three".to_owned(),
            4 => "four".to_owned(),
            _ => n.to_string(),
        };
        Term {
            zh: format!("打{zh}还一"),
            pinyin: format!("dǎ {py} huán yī"),
            en: format!("capture {en}, give one back"),
            ja: String::new(),
            kind: Ko,
        }
    }

    /// The place of this name in the global order (terms.md §4.4): smaller comes first.
    #[must_use]
    pub fn rank(&self) -> usize {
        rank(&self.zh)
    }
}

/// The place of a name in the global order; 打N还一 for N ≥ 5 shares the place of 打四还一,
/// unknown names come last.
pub(crate) fn rank(zh: &str) -> usize {
    if let Some(i) = TABLE.iter().position(|t| t.0 == zh) {
        return i;
    }
    if zh.starts_with('打') && zh.ends_with("还一") {
        return rank("打四还一");
    }
    TABLE.len()
}

/// The term named `zh`; panics on a name missing from the table (a bug in this crate).
pub(crate) fn term(zh: &str) -> Term {
    Term::named(zh).unwrap_or_else(|| panic!("{zh} is not in the term table"))
}

/// Every fixed name of the table (for tests and documentation).
pub fn all_names() -> impl Iterator<Item = &'static str> {
    TABLE.iter().map(|t| t.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numerals() {
        assert_eq!(Term::give_one_back(2).zh, "打二还一");
        assert_eq!(Term::give_one_back(10).zh, "打十还一");
        assert_eq!(Term::give_one_back(12).zh, "打十二还一");
        assert_eq!(Term::give_one_back(25).zh, "打二十五还一");
        assert_eq!(Term::named("打十二还一").unwrap().pinyin, "dǎ shíèr huán yī");
        assert_eq!(rank("打七还一"), rank("打四还一"));
    }

    #[test]
    fn names_are_unique() {
        let mut names: Vec<_> = all_names().collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n);
    }

    #[test]
    fn order_follows_the_groups() {
        assert!(rank("双打") < rank("打吃"));
        assert!(rank("打吃") < rank("扳"));
        assert!(rank("尖顶") < rank("顶"));
        assert!(rank("长") < rank("星"));
        assert!(rank("星") < rank("角"));
        assert!(rank("中腹") < rank("大恶手"));
    }
}
