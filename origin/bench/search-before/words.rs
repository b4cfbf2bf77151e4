//! Words as the search index sees them, the same for what is indexed and
//! what shoppers type: lower case, split on anything that is not a letter, a
//! digit or a Bangla sign (Bangla vowel signs and the virama are marks, not
//! letters, so a generic tokenizer would cut Bangla words apart), English
//! plurals folded ("sofas" → "sofa"), and the shop's synonyms: Bangla script
//! and Banglish spellings of the furniture words (DOMAIN.md).

/// Groups of words that mean the same; a query word of a group also finds
/// the others. English first, then Banglish spellings, then Bangla.
const SYNONYMS: &[&[&str]] = &[
    &["bed", "khat", "khaat", "khatt", "khaaat", "খাট"],
    &[
        "wardrobe",
        "almari",
        "almira",
        "almirah",
        "almari",
        "almaari",
        "আলমারি",
    ],
    &["sofa", "sopha", "shofa", "sufa", "সোফা"],
    &["chair", "cheyar", "chear", "cheer", "চেয়ার", "চেয়ার"],
    &["table", "tebil", "tabil", "teble", "টেবিল"],
    &["divan", "diwan", "deewan", "ডিভান", "দিভান"],
    &["dining", "daining", "ডাইনিং"],
    &["showcase", "shokes", "showkesh", "শোকেস"],
    &["dressing", "dresing", "ড্রেসিং"],
    &["cabinet", "kabinet", "ক্যাবিনেট"],
    &["shoe", "juta", "jutar", "জুতা", "জুতার"],
    &["lamp", "bati", "batti", "বাতি"],
    &["rack", "র‍্যাক", "র্যাক"],
    &["cushion", "kushon", "কুশন"],
    &["rug", "carpet", "karpet", "কার্পেট"],
    &[
        "kids",
        "kid",
        "child",
        "children",
        "shishu",
        "শিশু",
        "শিশুদের",
    ],
    &["office", "ofis", "অফিস"],
    &["mirror", "ayna", "aina", "আয়না", "আয়না"],
];

/// Whether `c` belongs inside a word.
fn word_char(c: char) -> bool {
    c.is_alphanumeric()
        || ('\u{0980}'..='\u{09FF}').contains(&c)
        || c == '\u{200C}'
        || c == '\u{200D}'
}

/// Folds a plain English plural: "sofas" → "sofa", "tables" → "table",
/// "boxes" stays "boxe"-free ("boxes" → "box"). Short words and "ss" endings
/// are kept.
pub fn fold(word: &str) -> String {
    if !word.is_ascii() || word.len() <= 3 || word.ends_with("ss") {
        return word.to_string();
    }
    for suffix in ["ches", "shes", "xes"] {
        if let Some(stem) = word.strip_suffix(suffix) {
            return format!("{stem}{}", &suffix[..suffix.len() - 2]);
        }
    }
    word.strip_suffix('s').unwrap_or(word).to_string()
}

/// The indexed words of `text`, in order.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !word_char(c))
        .filter(|w| !w.is_empty())
        .map(|w| fold(&w.to_lowercase()))
        .collect()
}

/// `text` as one space-separated string of its words (what is indexed).
pub fn normalized(text: &str) -> String {
    words(text).join(" ")
}

/// The words a query word also stands for (itself first).
pub fn alternatives(word: &str) -> Vec<String> {
    let mut out = vec![word.to_string()];
    for group in SYNONYMS {
        if group.iter().any(|g| fold(g) == word) {
            for g in group.iter() {
                let g = fold(g);
                if !out.contains(&g) {
                    out.push(g);
                }
            }
        }
    }
    out
}

/// Typos forgiven in a word of this length, as the best engines do: none
/// under 5 letters, one from 5, two from 9.
pub fn max_typos(word: &str) -> u8 {
    match word.chars().count() {
        0..=4 => 0,
        5..=8 => 1,
        _ => 2,
    }
}

/// Edit distance with adjacent transpositions counted as one (optimal string
/// alignment), stopping early beyond `max`.
pub fn distance(a: &str, b: &str, max: usize) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > max {
        return max + 1;
    }
    let mut prev2: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(prev2[j - 2] + 1);
            }
        }
        prev2 = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}

/// Whether the query word `q` finds the indexed word `w`: the same, a typo
/// within [`max_typos`], or (for the word being typed) a prefix.
pub fn matches(q: &str, w: &str, typing: bool) -> bool {
    let typos = usize::from(max_typos(q));
    if typing && w.starts_with(q) {
        return true;
    }
    if typing && w.chars().count() > q.chars().count() {
        let prefix: String = w.chars().take(q.chars().count()).collect();
        if distance(q, &prefix, typos) <= typos {
            return true;
        }
    }
    distance(q, w, typos) <= typos
}
