//! Words as the search index sees them, the same for what is indexed and
//! what shoppers type: lower case, split on anything that is not a letter, a
//! digit or a Bangla sign (Bangla vowel signs and the virama are marks, not
//! letters, so a generic tokenizer would cut Bangla words apart), English
//! plurals folded ("sofas" → "sofa").
//!
//! Around that, what lets a shopper's spelling find the shop's words:
//! - [`key`], a phonetic key that folds the ways a Bangla sound is written in
//!   Latin letters ("Banglish") and in Bangla script to one string of
//!   consonants: "sofa", "sopha", "shofa" and সোফা are all `sf`; "tebil",
//!   "table" and টেবিল are `tbl`; "almari", "almirah" and আলমারি are `almr`.
//! - [`stems`], the word without a Bangla case ending or plural suffix
//!   ("khater" → "khat", "almarir" → "almari", বাচ্চাদের → বাচ্চা).
//! - [`SYNONYMS`], real synonyms only (bed/khat, wardrobe/almari): different
//!   words for one thing. Spellings of one word are the key's work.
//! - [`is_stop_word`], English, Bangla and Banglish words that carry no
//!   meaning in a furniture search ("chairs for dining").
//! - [`max_typos`] and [`distance`], typo tolerance by word length.

use std::sync::LazyLock;

/// Groups of words that mean the same thing; a query word of a group also
/// finds the others. Only different words: each is matched through its
/// phonetic [`key`] too, so one spelling (Latin or Bangla) is enough.
pub const SYNONYMS: &[&[&str]] = &[
    // পালঙ্ক is palong written in full.
    &["bed", "khat", "palong", "choki", "পালঙ্ক"],
    &["wardrobe", "almari", "closet", "cupboard"],
    &["sofa", "couch", "settee"],
    &["chair", "kedara"],
    &["table", "desk"],
    // শু is how Bangla writes the English word (শু র‍্যাক): one sound, listed.
    &["shoe", "juta", "শু", "sandal", "chappal", "স্যান্ডেল"],
    // A shelf (তাক) is a rack.
    &["rack", "shelf", "tak"],
    &["lamp", "light", "bati", "alo"],
    &["rug", "carpet"],
    &[
        "kid",
        "child",
        "children",
        "baby",
        "shishu",
        "baccha",
        "বাচ্চা",
        // Sons and daughters (ছেলেমেয়ে).
        "chelemeye",
        "ছেলেমে\u{09DF}ে",
        "nobojatok",
    ],
    &["mirror", "ayna"],
    &["teak", "segun"],
    &["wood", "wooden"],
    // "loher" is how লোহার is said; ইস্পাত is steel.
    &["metal", "loha", "loher", "ispat"],
    // কাঁচ is also written with its nasal.
    &["glass", "kach", "kanch"],
    // Rexine (leatherette) is the faux leather sofas here are covered in.
    &["leather", "chamra", "rexine", "leatherette"],
    // A word of one sound has no key to find it in the other script by.
    &["tea", "cha", "চা"],
    &["swivel", "revolving", "ghurano"],
    // A student's (ছাত্র) reading table (পড়াশোনা) is a study table.
    &["study", "pora", "porashona", "reading", "student", "chatro"],
    // A drawing room is what Bangladesh calls a living room (বসার ঘর).
    &["living", "drawing", "bosar", "boithokkhana", "বৈঠকখানা"],
    // A dining table is a "table for eating" (খাবার টেবিল).
    &["dining", "khabar"],
    &["dressing", "vanity", "makeup", "sajgoj", "saja"],
    // A mora (মোড়া) is a cane stool, a piri (পিঁড়ি) a low seat.
    &["stool", "tul", "mora", "piri"],
    // Office chairs roll on castors (চাকা).
    &["castor", "wheel", "chaka"],
    // Plates and pots (থালা বাসন) live in a crockery cabinet.
    &["crockery", "thala", "bashon", "plate", "cup", "pirich"],
    // The boss (বড় সাহেব) sits in the executive chair.
    // An MD's or a director's chair too.
    &["executive", "boss", "saheb", "sahib", "md", "director"],
    &["file", "filing"],
    &["corner", "kona"],
    // A wardrobe's door is a palla (পাল্লা) or kopat (কপাট).
    &["door", "dorja", "palla", "kopat"],
    &["side", "pash"],
    // How many a piece seats (তিন জনের সোফা: a 3 seater); one person's
    // (একজনের খাট) is a single bed, two people's a double.
    &["seater", "jon", "manush"],
    &["single", "ekjon"],
    &["double", "dujon", "duijon"],
    &["compact", "small", "choto", "mini"],
    &["large", "big", "boro", "bishal"],
    &["standard", "medium", "majhari"],
    &["fabric", "cloth", "kapor"],
    &["velvet", "mokhmol"],
    &["metal", "iron", "steel"],
    &["black", "kalo"],
    // হোয়াইট: the loanword is heard h-t, "white" a-h-t.
    &["white", "sada", "\u{09B9}\u{09CB}\u{09DF}\u{09BE}\u{0987}\u{099F}"],
    // Khoyeri (খয়েরি) and chocolate are the browns of furniture.
    &["brown", "badami", "khoyeri", "chocolate"],
    // Ash-coloured (ছাই রং): one sound, both scripts listed.
    &["grey", "gray", "dhusor", "chhai", "ছাই"],
    &["blue", "nil"],
    &["bed", "bichana"],
    // A room (ঘর) named by what is done in it: শোবার ঘর is the bedroom.
    &["room", "ghor", "kamra"],
    // The room for sleeping (ঘুমানোর ঘর).
    &["bedroom", "shobar", "ghumano"],
    // Floor coverings: a galicha (গালিচা) is a rug, a shotoronji (শতরঞ্জি) a
    // flat-woven one.
    // A madur (মাদুর) is a woven mat, a paposh (পাপোশ) a door mat.
    &["rug", "galicha", "shotoronji", "madur", "paposh"],
    &["tv", "television", "tibi", "tivi"],
    // ফার্নিচার is heard f-r-n-c-r, "furniture" f-r-n-t-r; আসবাব is the
    // native word.
    &["furniture", "ফার্নিচার", "asbab", "asbabpotro"],
    // Engineered wood is sold as board, MDF, particle board or by a maker's
    // name (Partex); ইঞ্জিনিয়ার্ড is heard a-n-j-n-r-d.
    &[
        "engineered",
        "board",
        "mdf",
        "partex",
        "particle",
        "laminated",
        "\u{0987}\u{099E}\u{09CD}\u{099C}\u{09BF}\u{09A8}\u{09BF}\u{09DF}\u{09BE}\u{09B0}\u{09CD}\u{09A1}",
    ],
    // Finishes: shiny (চকচকে) is glossy; varnish and polish are lacquer.
    &["glossy", "shiny", "chokchoke"],
    &["lacquer", "varnish", "polish"],
    &["beige", "cream"],
    // Dark (গাঢ়), walnut (আখরোট).
    &["dark", "garho"],
    &["walnut", "akhrot"],
    // A chest of drawers (দেরাজ).
    &["drawer", "deraj"],
    &["rail", "railing"],
    // A hydraulic khat lifts up on gas struts: a storage bed.
    &["storage", "hydraulic"],
    // A gadi (গদি) is a cushion, a padded seat.
    &["cushion", "gadi"],
    &["upholstered", "padded", "gadi"],
    &["pillow", "balish"],
    &["floor", "mejhe"],
    &["night", "raat"],
    &["decor", "decoration", "sajsojja"],
    // A cradle (দোলনা) or a crib: the shop's cots.
    &["cot", "crib", "dolna"],
    // A two-storey (দোতলা) khat is a bunk bed.
    &["bunk", "dotola"],
    // An office's visitor (মেহমান, অতিথি) is a guest.
    &["visitor", "guest", "mehman", "otithi"],
    &["premium", "luxury", "bilasbohul"],
];

/// Number words, Banglish and Bangla, and the digit each is written as in
/// product titles ("teen dorjar almari": a 3 door wardrobe). Matched as
/// written (or with a case ending), not by their sounds: "char" (four) is
/// also how "chair" sounds.
pub const NUMBERS: &[(&str, &str)] = &[
    ("ek", "1"),
    ("এক", "1"),
    ("dui", "2"),
    ("duita", "2"),
    ("du", "2"),
    ("duti", "2"),
    ("duto", "2"),
    ("দু", "2"),
    ("দুটি", "2"),
    ("দুটো", "2"),
    ("দুই", "2"),
    ("দুইটা", "2"),
    ("tin", "3"),
    ("teen", "3"),
    ("tinta", "3"),
    ("তিন", "3"),
    ("তিনটা", "3"),
    ("char", "4"),
    ("charta", "4"),
    ("চার", "4"),
    ("চারটা", "4"),
    ("panch", "5"),
    ("pach", "5"),
    ("paanch", "5"),
    ("পাঁচ", "5"),
    ("choy", "6"),
    ("chhoy", "6"),
    ("chhoi", "6"),
    ("chhay", "6"),
    ("ছ\u{09DF}", "6"),
    ("sat", "7"),
    ("saat", "7"),
    ("সাত", "7"),
    ("aat", "8"),
    ("aath", "8"),
    ("ath", "8"),
    ("আট", "8"),
    // English number words, in Latin letters and in Bangla script.
    ("one", "1"),
    ("ও\u{09DF}ান", "1"),
    ("two", "2"),
    ("টু", "2"),
    ("three", "3"),
    ("থ্রি", "3"),
    ("four", "4"),
    ("ফোর", "4"),
    ("five", "5"),
    ("ফাইভ", "5"),
    ("six", "6"),
    ("সিক্স", "6"),
    ("seven", "7"),
    ("সেভেন", "7"),
    ("eight", "8"),
    ("এইট", "8"),
    ("nine", "9"),
    ("নাইন", "9"),
];

/// Words that sound like another word of the shop and mean something else,
/// matched as written (or with a case ending): kath (কাঠ, wood) sounds
/// like khat (খাট, bed); chotoder (ছোটদের, the little ones') is not
/// "choto" (small) but children.
pub const AS_WRITTEN: &[(&str, &str)] = &[
    ("kath", "wood"),
    ("kaath", "wood"),
    ("কাঠ", "wood"),
    ("chotoder", "kid"),
    ("ছোটদের", "kid"),
    // তাক (shelf) sounds like teak.
    ("tak", "rack"),
    ("taak", "rack"),
    ("তাক", "rack"),
    // চায়ের (the tea's, টেবিল: a tea table) sounds like chair.
    ("chayer", "tea"),
    ("chaer", "tea"),
    ("\u{099A}\u{09BE}\u{09DF}\u{09C7}\u{09B0}", "tea"),
    // A seat (সিট) sounds like a set: "3 seat sofa" is a 3 seater.
    ("seat", "seater"),
    ("সিট", "seater"),
    // MD (managing director) sounds like "made".
    ("md", "executive"),
    // গাঢ় (dark) sounds like grey.
    ("garho", "dark"),
    ("gara", "dark"),
    // পিঁড়ি (a low seat) sounds like pora (study).
    ("piri", "stool"),
    // What the shop does not sell, by words that sound like what it does:
    // bamboo (বাঁশ: "boss"), cane (বেত: "set"), plastic ("classic"). They
    // then find nothing, and the query is relaxed to the rest ("plastic
    // chair": chairs), not to a wrong product.
    ("bash", "bamboo"),
    ("\u{09AC}\u{09BE}\u{0981}\u{09B6}", "bamboo"),
    ("bet", "cane"),
    ("বেত", "cane"),
    ("plastic", "plastic"),
];

/// What `word` stands for when written so, or so with a case ending
/// ("kather"), by [`AS_WRITTEN`].
pub fn as_written(word: &str) -> Option<&'static str> {
    written(AS_WRITTEN, word)
}

/// The digit `word` names when it is a number word, perhaps with a case
/// ending ("tiner"), by [`NUMBERS`].
pub fn number(word: &str) -> Option<&'static str> {
    written(NUMBERS, word)
}

/// What `table` says `word` or, failing that, one of its [`stems`] stands
/// for.
fn written(table: &[(&str, &'static str)], word: &str) -> Option<&'static str> {
    let find = |w: &str| table.iter().find(|(t, _)| *t == w).map(|(_, m)| *m);
    find(word).or_else(|| stems(word).iter().find_map(|s| find(s)))
}

/// Words that say nothing about the product: dropped from a query (unless it
/// has nothing else). English, Banglish, Bangla.
const STOP_WORDS: &[&str] = &[
    "a",
    "an",
    "the",
    "for",
    "of",
    "with",
    "and",
    "or",
    "in",
    "on",
    "to",
    "at",
    "by",
    "from",
    "my",
    "some",
    "jonno",
    "jonne",
    "ebong",
    "ar",
    "o",
    "er",
    "diye",
    "shoho",
    "der",
    "price",
    "dam",
    "daam",
    "দাম",
    "koto",
    "কত",
    "cheap",
    "sasta",
    "সস্তা",
    "best",
    "bhalo",
    "valo",
    "ভালো",
    "new",
    "notun",
    "নতুন",
    "online",
    "bd",
    "lagbe",
    "লাগবে",
    "chai",
    "চাই",
    "kinbo",
    "kinte",
    "কিনবো",
    "কিনতে",
    "rakhar",
    "রাখার",
    // "code: crg-350": the code is the query.
    "code",
    "কোড",
    "model",
    "design",
    "dijain",
    "dizain",
    "ডিজাইন",
    "wala",
    "ও\u{09DF}ালা",
    "ও",
    "এবং",
    "আর",
    "জন্য",
    "এর",
    "সহ",
    "\u{09A6}\u{09BF}\u{09DF}\u{09C7}",
    "den",
    "din",
    // Sylheti: "bala" is good, "ni" asks; sitting (boshe) and using
    // (chalanor) say what for, not what.
    "bala",
    "ni",
    "boshe",
    "chalanor",
    "order",
    "type",
    "item",
    "shop",
    "market",
    "stock",
    // Asking, wanting, who asks, praise, price and shops, "of the
    // house", colour as a word (Banglish, English, Bangla).
    "dekhan",
    "dekhao",
    "dekhi",
    "dekhte",
    "ache",
    "achhe",
    "ase",
    "ki",
    "kon",
    "konta",
    "konti",
    "kemon",
    "hobe",
    "pabo",
    "paowa",
    "jabe",
    "jay",
    "dao",
    "deben",
    "koren",
    "korben",
    "chacchi",
    "khujchi",
    "khuji",
    "dorkar",
    "proyojon",
    "kena",
    "kenar",
    "nibo",
    "nebo",
    "nite",
    "ei",
    "oi",
    "khana",
    "vai",
    "bhai",
    "apu",
    "sir",
    "dada",
    "plz",
    "pls",
    "please",
    "amar",
    "ami",
    "amake",
    "amader",
    "apnar",
    "apni",
    "me",
    "ekta",
    "ekti",
    "khub",
    "onek",
    "beshi",
    "sundor",
    "sundar",
    "mojbut",
    "tekshoi",
    "maner",
    "quality",
    "original",
    "modern",
    "adhunik",
    "stylish",
    "latest",
    "kom",
    "dami",
    "dame",
    "damer",
    "komdami",
    "sasroyi",
    "taka",
    "tk",
    "hajar",
    "hazar",
    "lakh",
    "moddhe",
    "modhye",
    "niche",
    "theke",
    "porjonto",
    "offer",
    "discount",
    "chhar",
    "delivery",
    "emi",
    "kisti",
    "dokan",
    "showroom",
    "bazar",
    "sathe",
    "shathe",
    "songe",
    "soho",
    "moto",
    "mto",
    "rokom",
    "dhoron",
    "jinish",
    "pis",
    "piece",
    "basa",
    "basar",
    "bari",
    "barir",
    "rong",
    "rang",
    "ronger",
    "color",
    "colour",
    "kalar",
    "want",
    "need",
    "buy",
    "looking",
    "which",
    "what",
    "is",
    "are",
    "this",
    "that",
    "good",
    "nice",
    "beautiful",
    "all",
    "any",
    "your",
    "you",
    "have",
    "can",
    "get",
    "under",
    "below",
    "above",
    "less",
    "than",
    "within",
    "upto",
    "how",
    "much",
    "cost",
    "rate",
    "available",
    "দেখান",
    "দেখাও",
    "দেখি",
    "দেখতে",
    "আছে",
    "কি",
    "কী",
    "কোন",
    "কোনটা",
    "কেমন",
    "হবে",
    "পাবো",
    "পাও\u{09DF}া",
    "যাবে",
    "যা\u{09DF}",
    "দিন",
    "দেন",
    "দাও",
    "দেবেন",
    "করেন",
    "চাচ্ছি",
    "খুঁজছি",
    "দরকার",
    "প্র\u{09DF}োজন",
    "কেনা",
    "কেনার",
    "নিবো",
    "নেব",
    "নিতে",
    "অর্ডার",
    "এই",
    "ওই",
    "ভাই",
    "আপু",
    "স্যার",
    "প্লিজ",
    "আমার",
    "আমি",
    "আমাকে",
    "আমাদের",
    "আপনার",
    "আপনি",
    "একটা",
    "একটি",
    "একটু",
    "খুব",
    "অনেক",
    "বেশি",
    "সুন্দর",
    "মজবুত",
    "টেকসই",
    "মানের",
    "আধুনিক",
    "কম",
    "দামি",
    "দামে",
    "দামের",
    "কমদামি",
    "সাশ্র\u{09DF}ী",
    "টাকা",
    "৳",
    "হাজার",
    "লাখ",
    "মধ্যে",
    "নিচে",
    "থেকে",
    "পর্যন্ত",
    "সাথে",
    "সঙ্গে",
    "মতো",
    "মত",
    "রকম",
    "ধরনের",
    "টাইপ",
    "জিনিস",
    "আইটেম",
    "পিস",
    "অফার",
    "ছা\u{09DC}",
    "ডিসকাউন্ট",
    "ডেলিভারি",
    "কিস্তি",
    "অনলাইন",
    "দোকান",
    "শোরুম",
    "বাজার",
    "বাসা",
    "বাসার",
    "বা\u{09DC}ি",
    "বা\u{09DC}ির",
    "রং",
    "রঙ",
    "রঙের",
    "কালার",
];

/// Whether `word` (as [`words`] gives it) is a stop word.
pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.contains(&word)
}

/// Whether `c` belongs inside a word.
fn word_char(c: char) -> bool {
    c.is_alphanumeric()
        || ('\u{0980}'..='\u{09FF}').contains(&c)
        || c == '\u{200C}'
        || c == '\u{200D}'
}

/// Whether `word` is written in Bangla script.
pub fn is_bangla(word: &str) -> bool {
    word.chars().any(|c| ('\u{0980}'..='\u{09FF}').contains(&c))
}

/// Folds a plain English plural: "sofas" → "sofa", "tables" → "table",
/// "benches" → "bench", "boxes" → "box", "crockeries" → "crockery". Short
/// words and "ss" endings are kept.
pub fn fold(word: &str) -> String {
    if !word.is_ascii() || word.len() <= 3 || word.ends_with("ss") {
        return word.to_string();
    }
    // "accessories", "crockeries": the y back.
    if let Some(stem) = word.strip_suffix("ies").filter(|s| s.len() >= 3) {
        return format!("{stem}y");
    }
    for suffix in ["ches", "shes", "xes"] {
        if let Some(stem) = word.strip_suffix(suffix) {
            return format!("{stem}{}", &suffix[..suffix.len() - 2]);
        }
    }
    word.strip_suffix('s').unwrap_or(word).to_string()
}

/// The indexed words of `text`, in order. Zero-width joiners are dropped
/// (র‍্যাক and র্যাক are one word).
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !word_char(c))
        .map(|w| {
            // One spelling of the letters written with a nukta, and none of
            // the zero-width joiners.
            w.replace(['\u{200C}', '\u{200D}'], "")
                .replace("\u{09A1}\u{09BC}", "\u{09DC}")
                .replace("\u{09A2}\u{09BC}", "\u{09DD}")
                .replace("\u{09AF}\u{09BC}", "\u{09DF}")
                .chars()
                .map(ascii_digit)
                .collect::<String>()
        })
        .filter(|w| !w.is_empty())
        .flat_map(|w| letters_and_digits(&w))
        .map(|w| fold(&w.to_lowercase()))
        .collect()
}

/// A Bangla digit as the ASCII one (৩ → 3); any other character as it is.
fn ascii_digit(c: char) -> char {
    match c {
        '\u{09E6}'..='\u{09EF}' => char::from(b'0' + (c as u32 - 0x09E6) as u8),
        _ => c,
    }
}

/// `word` cut where letters meet digits: a code typed without its hyphen
/// ("bdh120", "Dnt800") is the words of the code as written ("BDH-120").
fn letters_and_digits(word: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut last: Option<bool> = None;
    for c in word.chars() {
        let digit = c.is_numeric();
        match out.last_mut() {
            Some(part) if last == Some(digit) => part.push(c),
            _ => out.push(c.to_string()),
        }
        last = Some(digit);
    }
    out
}

/// The words of what a shopper typed, without stop words (all of them kept
/// when the query has nothing else).
pub fn query_words(text: &str) -> Vec<String> {
    typed_words(text).into_iter().map(|w| w.1).collect()
}

/// A number word joined to a word the shop knows, as the digit and that
/// word: "tinjon" (তিনজন, three people) is 3 jon, a 3 seater;
/// "charjoner", তিনদরজার. A word known as a whole ("ekjon": single) stays.
fn number_joined(word: &str) -> Option<(&'static str, String)> {
    // A meaning beyond the word itself and its stems: a synonym.
    let known = |w: &str| {
        let stems = stems(w);
        meanings(w).iter().any(|m| m != w && !stems.contains(m))
    };
    if number(word).is_some() || known(word) {
        return None;
    }
    NUMBERS
        .iter()
        .filter_map(|(n, digit)| Some((n, digit, word.strip_prefix(n)?)))
        .filter(|(_, _, rest)| rest.chars().count() >= 2 && known(rest))
        .max_by_key(|(n, _, _)| n.len())
        .map(|(_, digit, rest)| (*digit, rest.to_string()))
}

/// [`query_words`], each with its spelling as typed (`("Sofas", "sofa")`),
/// for saying which words a relaxed answer matched.
pub fn typed_words(text: &str) -> Vec<(String, String)> {
    let all: Vec<(String, String)> = text
        .split(|c: char| !word_char(c))
        .flat_map(|raw| {
            let shown = raw.replace(['\u{200C}', '\u{200D}'], "");
            let words: Vec<String> = words(raw)
                .into_iter()
                .flat_map(|w| match number_joined(&w) {
                    Some((digit, rest)) => vec![digit.to_string(), rest],
                    None => vec![w],
                })
                .collect();
            // A piece that is several words ("bdh120") shows each as folded.
            let one = words.len() == 1;
            words
                .into_iter()
                .map(move |w| (if one { shown.clone() } else { w.clone() }, w))
        })
        .collect();
    let kept: Vec<(String, String)> = all
        .iter()
        .filter(|w| !is_stop_word(&w.1))
        .cloned()
        .collect();
    phrases(if kept.is_empty() { all } else { kept })
}

/// Two words that together name what the shop calls otherwise, and the
/// words they stand for. A shoe almari (জুতার আলমারি) is a shoe cabinet, not
/// a wardrobe. A room named by what is done in it is that part of the shop,
/// and "room" names nothing a product is: "drawing room sofa" is a living
/// sofa ("bed room": bedroom). Each word matches by any spelling, synonym or
/// case ending ([`means`]).
pub const PHRASES: &[(&str, &str, &[&str])] = &[
    ("juta", "almari", &["shoe", "cabinet"]),
    ("file", "almari", &["file", "cabinet"]),
    ("crockery", "almari", &["crockery", "cabinet"]),
    ("office", "almari", &["office", "cabinet"]),
    // The boss's chair (বড় সাহেবের চেয়ার) is an executive chair, not a big one.
    ("boro", "saheb", &["executive"]),
    // A chair that goes up and down (উঁচু নিচু) adjusts its height.
    ("uchu", "nichu", &["adjustable"]),
    // A lamp (or a light) on a stand stands on the floor.
    ("stand", "lamp", &["floor", "lamp"]),
    // The table in front of the sofa (সোফার সামনের টেবিল) is a centre table;
    // a TV's table is what it stands on.
    ("samne", "table", &["centre", "table"]),
    ("tv", "table", &["tv"]),
    // A bed for two is a double bed; a small one a single, a big one a
    // king.
    ("bed", "two", &["double", "bed"]),
    ("small", "bed", &["single", "bed"]),
    ("large", "bed", &["king", "bed"]),
    // An almari for clothes (কাপড়ের আলমারি) is a wardrobe, one of glass
    // (কাচের) a showcase, a TV's a TV cabinet; no wardrobe is of steel, the
    // metal cabinets are.
    ("fabric", "almari", &["wardrobe"]),
    ("glass", "almari", &["showcase"]),
    ("tv", "almari", &["tv", "cabinet"]),
    ("metal", "almari", &["metal", "cabinet"]),
    // A table for work (কাজের) is an office table, for writing (লেখার) a
    // study table.
    ("kaj", "table", &["office", "table"]),
    ("lekha", "table", &["study", "table"]),
    // Space saving (জায়গা বাঁচানো).
    ("jayga", "bachano", &["space", "saver"]),
    // A table for drinking tea (চা খাওয়ার টেবিল) is a tea table, not a
    // dining one (খাওয়ার টেবিল alone).
    ("tea", "dining", &["tea"]),
    // A dim light is a night lamp.
    ("dim", "light", &["night", "lamp"]),
    ("off", "white", &["white"]),
    ("triple", "door", &["3", "door"]),
    // One person's (এক জনের) is a single.
    ("ek", "jon", &["single"]),
    // A double door wardrobe has two doors.
    ("double", "door", &["2", "door"]),
    ("living", "room", &["living"]),
    ("bed", "room", &["bedroom"]),
    ("bedroom", "room", &["bedroom"]),
    ("dining", "room", &["dining"]),
    ("kid", "room", &["kid"]),
    ("study", "room", &["study"]),
    ("office", "room", &["office"]),
];

/// Query words with two next to each other that make one of [`PHRASES`]
/// replaced by what the phrase stands for (spelled as typed: one word
/// shows both, two show one each).
fn phrases(words: Vec<(String, String)>) -> Vec<(String, String)> {
    if words.len() < 2 {
        return words;
    }
    let meanings: Vec<Vec<String>> = words.iter().map(|(_, w)| meanings(w)).collect();
    let means = |i: usize, part: &str| {
        meanings[i]
            .iter()
            .any(|m| m == part || sounds_like(m, part))
    };
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let phrase = (i + 1 < words.len())
            .then(|| {
                PHRASES
                    .iter()
                    .find(|(a, b, _)| means(i, a) && means(i + 1, b))
            })
            .flatten();
        // A number of chairs is how many a table seats ("char cheyarer
        // dining table", "6 chair dining set": a 4 or 6 seater).
        let digit = number(&words[i].1).map(str::to_string).or_else(|| {
            words[i]
                .1
                .chars()
                .all(|c| c.is_ascii_digit())
                .then(|| words[i].1.clone())
        });
        if let Some(digit) = digit.filter(|_| i + 2 < words.len() && means(i + 1, "chair")) {
            out.push((words[i].0.clone(), digit));
            out.push((words[i + 1].0.clone(), "seater".to_string()));
            i += 2;
            continue;
        }
        match phrase {
            Some((_, _, [one])) => {
                out.push((
                    format!("{} {}", words[i].0, words[i + 1].0),
                    one.to_string(),
                ));
                i += 2;
            }
            Some((_, _, [first, second])) => {
                out.push((words[i].0.clone(), first.to_string()));
                out.push((words[i + 1].0.clone(), second.to_string()));
                i += 2;
            }
            _ => {
                out.push(words[i].clone());
                i += 1;
            }
        }
    }
    out
}

/// `text` as one space-separated string of its words (what is indexed).
pub fn normalized(text: &str) -> String {
    words(text).join(" ")
}

/// What a query word may mean: itself and its synonyms ([`alternatives`]),
/// then its stems' ("khater": khat, bed, ...); a word [`as_written`]
/// means that only ("kather": wood).
pub fn meanings(word: &str) -> Vec<String> {
    if let Some(meant) = as_written(word) {
        let mut all = vec![word.to_string()];
        all.extend(alternatives(meant));
        return all;
    }
    let mut all = alternatives(word);
    for stem in stems(word) {
        all.extend(alternatives(&stem));
    }
    all
}

/// [`SYNONYMS`] as folded words, each with its [`key`], worked out once.
static SYNONYM_KEYS: LazyLock<Vec<Vec<(String, String)>>> = LazyLock::new(|| {
    SYNONYMS
        .iter()
        .map(|group| group.iter().map(|g| (fold(g), key(g))).collect())
        .collect()
});

/// The words a query word also stands for (itself first).
pub fn alternatives(word: &str) -> Vec<String> {
    let mut out = vec![word.to_string()];
    let word_keys = keys(word);
    for group in SYNONYM_KEYS.iter() {
        // A synonym is found by any spelling of it: "almirah" is "almari".
        let hit = group.iter().any(|(g, k)| {
            g == word
                || (k.chars().count() >= 2 && word_keys.contains(k) && same_word_by_key(word, k, g))
        });
        if hit {
            for (g, _) in group {
                if !out.contains(g) {
                    out.push(g.clone());
                }
            }
        }
    }
    out
}

/// Case endings and plural suffixes, longest first, in Latin letters.
const LATIN_SUFFIXES: &[&str] = &[
    "gulo", "guli", "gula", "wala", "wali", "dera", "der", "dor", "era", "er", "ra", "re", "te",
    "ke", "ta", "ti", "r", "e",
];

/// Case endings and plural suffixes in Bangla script, longest first.
const BANGLA_SUFFIXES: &[&str] = &[
    // "with": চাকাওয়ালা চেয়ার is a chair with castors.
    "\u{0993}\u{09DF}\u{09BE}\u{09B2}\u{09BE}",
    "গুলো",
    "গুলি",
    // "on", "in": বিছানায় is on the bed.
    "\u{09DF}",
    "দের",
    "\u{09DF}ের",
    "\u{09DF}\u{09C7}\u{09B0}",
    "ের",
    "েরা",
    "রা",
    "টা",
    "টি",
    "কে",
    "তে",
    "র",
];

/// What `word` may be without a case ending or plural suffix, longest stem
/// first (none when it has no such ending). A stem keeps at least three
/// letters (two Bangla letters).
pub fn stems(word: &str) -> Vec<String> {
    let (suffixes, min) = if is_bangla(word) {
        (BANGLA_SUFFIXES, 2)
    } else if word.chars().all(|c| c.is_ascii_alphabetic()) {
        (LATIN_SUFFIXES, 3)
    } else {
        return Vec::new();
    };
    let mut candidates: Vec<&str> = suffixes
        .iter()
        .filter_map(|s| word.strip_suffix(s))
        .collect();
    // "On" in Banglish: "bichanay" is on the bed.
    candidates.extend(
        word.strip_suffix('y')
            .filter(|s| s.ends_with('a') && s.len() >= 4),
    );
    // An English plural in Bangla script: "-ies" is written িজ
    // (ক্রোকারিজ, crockeries), its singular ি (ক্রোকারি); "-s" after a
    // consonant স (কিডস, kids).
    candidates.extend(
        word.strip_suffix('\u{099C}')
            .filter(|s| s.ends_with('\u{09BF}')),
    );
    candidates.extend(word.strip_suffix('\u{09B8}').filter(|s| {
        s.chars()
            .last()
            .and_then(bangla_consonant)
            .is_some_and(|k| !k.is_empty())
    }));
    let mut out: Vec<String> = Vec::new();
    for stem in candidates {
        let letters = stem
            .chars()
            .filter(|c| bangla_consonant(*c).is_some() || c.is_ascii_alphabetic())
            .count();
        if letters >= min && !out.iter().any(|o| o == stem) {
            out.push(stem.to_string());
        }
    }
    out.sort_by_key(|s| std::cmp::Reverse(s.len()));
    out
}

/// The Latin consonant class of a Bangla consonant (`Some("")` for a letter
/// read as a vowel, য় and the like).
fn bangla_consonant(c: char) -> Option<&'static str> {
    Some(match c {
        'ক' | 'খ' => "k",
        'গ' | 'ঘ' => "g",
        // The ng sound is its own: কিং is "king", not "queen".
        'ঙ' | 'ং' => "N",
        'ঞ' | 'ণ' | 'ন' => "n",
        'চ' | 'ছ' => "c",
        'জ' | 'ঝ' | 'য' => "j",
        'ট' | 'ঠ' | 'ত' | 'থ' | 'ৎ' => "t",
        'ড' | 'ঢ' | 'দ' | 'ধ' => "d",
        '\u{09DC}' | '\u{09DD}' | 'র' | 'ৰ' => "r",
        'প' => "p",
        'ফ' => "f",
        'ব' | 'ভ' => "b",
        'ম' => "m",
        'ল' => "l",
        'শ' | 'ষ' | 'স' => "s",
        'হ' => "h",
        '\u{09DF}' => "",
        _ => return None,
    })
}

/// Whether `c` is a Bangla vowel, independent or a sign.
fn bangla_vowel(c: char) -> bool {
    matches!(c, 'অ'..='ঔ') || matches!(c, 'া'..='ৌ') || c == 'ৗ'
}

/// The sounds of a Bangla-script word, before [`fold_repeats`]: a class
/// letter per consonant, `.` for a vowel between consonants (a consonant
/// followed by another without a virama has its own vowel).
fn bangla_key(word: &str) -> String {
    let chars: Vec<char> = word.chars().collect();
    let mut out = String::new();
    // A consonant followed by another (not by a sign or a virama) is
    // spoken with its inherent vowel: the two are separate sounds.
    let inherent = |out: &mut String, i: usize| {
        if chars
            .get(i + 1)
            .is_some_and(|n| bangla_consonant(*n).is_some_and(|k| !k.is_empty()))
        {
            out.push('.');
        }
    };
    for (i, &c) in chars.iter().enumerate() {
        let prev = if i > 0 { Some(chars[i - 1]) } else { None };
        if c == '\u{09BC}' {
            // Nukta: ড় and য় written in two code points.
            match prev {
                Some('ড') | Some('ঢ') => {
                    out.pop();
                    out.push('r');
                    inherent(&mut out, i);
                }
                Some('য') => {
                    out.pop();
                    out.push('.');
                }
                _ => {}
            }
            continue;
        }
        if i == 0 && bangla_vowel(c) {
            out.push('a');
            continue;
        }
        if c == 'ঋ' || c == 'ৃ' {
            out.push('r');
            continue;
        }
        if c == 'গ' && i >= 2 && chars[i - 2] == 'ঙ' && prev == Some('্') {
            // ঙ্গ is "ng", one sound as in Latin letters (সিঙ্গেল, single).
            continue;
        }
        if c == 'য' && prev == Some('্') {
            // য-ফলা (ক্যা) lengthens the vowel; it is no consonant.
            continue;
        }
        if bangla_vowel(c) {
            out.push('.');
            continue;
        }
        match bangla_consonant(c) {
            // য় and the like: a glide between vowels.
            Some("") => out.push('.'),
            Some(k) => {
                out.push_str(k);
                inherent(&mut out, i);
            }
            None => {}
        }
    }
    out
}

/// The sounds of a Latin-letter word (English or Banglish), before
/// [`fold_repeats`]: a class letter per consonant sound, `.` for a vowel.
/// The `second` reading hears a w between vowels as v ("dewan": divan), an
/// s between vowels as z ("visitor": ভিজিটর) and a th as the d Bangla
/// writes for it ("leather": লেদার).
fn latin_key(word: &str, second: bool) -> String {
    let b: Vec<u8> = word.bytes().collect();
    let vowel = |c: u8| matches!(c, b'a' | b'e' | b'i' | b'o' | b'u');
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = at(i + 1);
        let prev_vowel = i > 0 && (vowel(b[i - 1]) || matches!(b[i - 1], b'y' | b'w'));
        if i == 0 && (vowel(c) || c == b'y' || c == b'w') {
            out.push('a');
            i += 1;
            // "wa", "ya", "oi": one vowel sound.
            while i < b.len() && (vowel(b[i]) || matches!(b[i], b'y' | b'w')) {
                i += 1;
            }
            continue;
        }
        let (sound, len): (&str, usize) = match c {
            _ if vowel(c) => (".", 1),
            b'w' if second && vowel(b[i - 1]) && vowel(next) => ("b", 1),
            b's' if second && i > 0 && vowel(b[i - 1]) && vowel(next) => ("j", 1),
            // "tion" is "shon" ("workstation": ওয়ার্কস্টেশন).
            b't' if next == b'i' && at(i + 2) == b'o' && at(i + 3) == b'n' => ("s", 1),
            b'y' | b'w' => (".", 1),
            b'k' if next == b'h' => ("k", 2),
            // "igh" is one vowel ("light": লাইট; "night", "eight").
            b'g' if next == b'h' && i > 0 && b[i - 1] == b'i' => ("", 2),
            b'g' if next == b'h' => ("g", 2),
            // A final "ge" sounds j ("storage", স্টোরেজ; "beige").
            b'g' if next == b'e' && at(i + 2) == 0 => ("j", 1),
            // "chh" is the one sound ছ ("chhoto": choto).
            b'c' if next == b'h' && at(i + 2) == b'h' => ("c", 3),
            b'c' if next == b'h' => ("c", 2),
            b'c' if next == b'c' && at(i + 2) == b'h' => ("", 1),
            b'c' if next == b'c' => ("c", 2),
            b'c' if next == b'k' => ("k", 2),
            b'c' if matches!(next, b'e' | b'i' | b'y') => ("s", 1),
            b'c' => ("k", 1),
            b'j' if next == b'h' => ("j", 2),
            b't' if next == b'h' => (if second { "d" } else { "t" }, 2),
            b'd' if next == b'h' => ("d", 2),
            b'p' if next == b'h' => ("f", 2),
            b'b' if next == b'h' => ("b", 2),
            b's' if next == b'h' => ("s", 2),
            b'r' if next == b'h' => ("r", 2),
            b'n' if next == b'g' => ("N", 2),
            b'q' => ("k", 1),
            b'x' => ("ks", 1),
            b'z' => ("j", 1),
            b'v' => ("b", 1),
            // A final h after a vowel ("almirah"); "h" in "mahogany" and
            // "mahgoany" stays.
            b'h' if prev_vowel && next == 0 => ("", 1),
            _ if c.is_ascii_lowercase() => {
                // One byte is one char here.
                let s = &word[i..i + 1];
                (s, 1)
            }
            _ => ("", 1),
        };
        out.push_str(sound);
        i += len;
    }
    out
}

/// The key of raw sounds: a sound repeated with no vowel between is one
/// ("khatt", "baccha", বাচ্চা), but a sound again after a vowel is a second
/// one ("dining" is d-n-ng, not "dewan"'s d-n; শিশু is sh-sh).
fn fold_repeats(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut last: Option<char> = None;
    for c in raw.chars() {
        if c == '.' {
            last = None;
            continue;
        }
        if last != Some(c) {
            out.push(c);
        }
        last = Some(c);
    }
    out
}

/// The phonetic key of a word: its consonant sounds, Latin and Bangla
/// letters folded to one class each (k/kh/ক/খ → k, s/sh/শ/ষ/স → s, v/bh/ব/ভ
/// → b, ph/f/ফ → f, z/j/জ/য → j, ng/ং/ঙ → N), vowels dropped but for one `a` marking a
/// word that begins with a vowel, a sound doubled (no vowel between) once.
/// Words with digits have none (an empty key).
pub fn key(word: &str) -> String {
    if word.chars().any(|c| c.is_numeric()) {
        return String::new();
    }
    if is_bangla(word) {
        fold_repeats(&bangla_key(word))
    } else if word.is_ascii() {
        fold_repeats(&latin_key(word, false))
    } else {
        String::new()
    }
}

/// The keys `word` may be heard by: its [`key`], and, for a Latin word with
/// a w or an s between vowels or a th, a second reading with that w a v,
/// that s a z and that th a d: Banglish writes w both for a glide ("dewal",
/// দেয়াল) and for a v ("dewan", "diwan": divan); English writes s for a z
/// ("visitor") and th for the sound Bangla writes দ ("leather", লেদার).
pub fn keys(word: &str) -> Vec<String> {
    let first = key(word);
    let mut out = vec![first];
    if word.is_ascii()
        && (word.contains('w') || word.contains('s') || word.contains("th"))
        && !out[0].is_empty()
    {
        let second = fold_repeats(&latin_key(word, true));
        if second != out[0] {
            out.push(second);
        }
    }
    out
}

/// Whether `word` ends in a vowel sound. Latin: a, i, o, u, y, an e after a
/// vowel ("settee", "shoe") or an h after one ("almirah"); a final e after
/// a consonant is silent ("table", "case"). Bangla: a vowel or a vowel sign
/// (a final consonant's own vowel is silent: খাট is khat, সেট set).
fn ends_in_vowel(word: &str) -> bool {
    let chars: Vec<char> = word.chars().filter(|c| *c != '\u{0981}').collect();
    let Some(&last) = chars.last() else {
        return false;
    };
    if is_bangla(word) {
        return bangla_vowel(last);
    }
    let vowel = |c: char| matches!(c, 'a' | 'e' | 'i' | 'o' | 'u' | 'y');
    let before = chars.len().checked_sub(2).map(|i| chars[i]);
    match last {
        'e' | 'h' => before.is_some_and(vowel),
        c => vowel(c),
    }
}

/// Whether the indexed word `w`, heard by `k` (one of [`keys`] of the query
/// word `q`, two sounds or more), is `q` spelled otherwise. Three sounds
/// agreeing are enough. Two say less ("kyoto" is k-t like "khat"; "settee"
/// s-t like "sett"): the words must also both end in a vowel or both in a
/// consonant (`w` or, in Bangla script, a stem of it: শিশুদের as শিশু).
pub fn same_word_by_key(q: &str, k: &str, w: &str) -> bool {
    if k.chars().count() >= 3 {
        return true;
    }
    let q_vowel = ends_in_vowel(q);
    ends_in_vowel(w) == q_vowel
        || (is_bangla(w)
            && stems(w)
                .iter()
                .any(|s| key(s) == k && ends_in_vowel(s) == q_vowel))
}

/// Whether `q` sounds like the indexed word `w` ([`keys`],
/// [`same_word_by_key`]); keys of one sound say too little.
pub fn sounds_like(q: &str, w: &str) -> bool {
    let k = key(w);
    k.chars().count() >= 2 && keys(q).contains(&k) && same_word_by_key(q, &k, w)
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
        if cur.iter().min().copied().unwrap_or(0) > max {
            return max + 1;
        }
        prev2 = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}

/// The typos between the query word `q` and the indexed word `w` if within
/// `typos`: the whole word, or (for the word being typed) `w`'s beginning of
/// `q`'s length. `None` when further.
pub fn typos_between(q: &str, w: &str, typos: usize, typing: bool) -> Option<usize> {
    let (nq, nw) = (q.chars().count(), w.chars().count());
    if nw + typos < nq || (!typing && nw > nq + typos) {
        return None;
    }
    let whole = distance(q, w, typos);
    if whole <= typos {
        return Some(whole);
    }
    if typing && nw > nq {
        let prefix: String = w.chars().take(nq).collect();
        let d = distance(q, &prefix, typos);
        if d <= typos {
            return Some(d);
        }
    }
    None
}

/// Whether the query word `q` finds the indexed word `w`: the same, a
/// phonetic spelling of it, a typo within [`max_typos`], or (for the word
/// being typed) a prefix.
pub fn matches(q: &str, w: &str, typing: bool) -> bool {
    if q == w || (typing && w.starts_with(q)) {
        return true;
    }
    if sounds_like(q, w) {
        return true;
    }
    typos_between(q, w, usize::from(max_typos(q)), typing).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bangla_words_stay_whole_and_plurals_fold() {
        assert_eq!(words("Sofas & Divans"), vec!["sofa", "divan"]);
        assert_eq!(words("ড্রেসিং টেবিল"), vec!["ড্রেসিং", "টেবিল"]);
        assert_eq!(words("SDC-201"), vec!["sdc", "201"]);
        assert_eq!(words("জুতার র‍্যাক"), words("জুতার র্যাক"));
        assert_eq!(fold("glass"), "glass");
        assert_eq!(fold("benches"), "bench");
        assert_eq!(fold("bed"), "bed");
        // Bangla digits are the digits titles carry.
        assert_eq!(words("৩ দরজা"), vec!["3", "দরজা"]);
        assert_eq!(words("৪০২"), vec!["402"]);
    }

    #[test]
    fn number_words_are_digits_and_ng_is_its_own_sound() {
        assert_eq!(number("teen"), Some("3"));
        assert_eq!(number("চার"), Some("4"));
        assert_eq!(number("chair"), None);
        // কিং and "king" share a key that "queen" does not.
        assert_eq!(key("কিং"), key("king"));
        assert_ne!(key("কিং"), key("queen"));
        assert_eq!(key("ডাইনিং"), key("dining"));
    }

    #[test]
    fn one_key_for_banglish_english_and_bangla_spellings() {
        for group in [
            &["sofa", "sopha", "shofa", "sufa", "সোফা"][..],
            &["khat", "khaat", "khatt", "খাট"],
            &["almari", "almira", "almirah", "almaari", "আলমারি"],
            &[
                "chair",
                "cheyar",
                "chear",
                "চেয়ার",
                "\u{099A}\u{09C7}\u{09DF}\u{09BE}\u{09B0}",
            ],
            &["table", "tebil", "tabil", "টেবিল"],
            &["divan", "deevan", "ডিভান"],
            &["dining", "daining", "ডাইনিং"],
            &["showcase", "shokes", "শোকেস"],
            &["dressing", "dresing", "ড্রেসিং"],
            &["cabinet", "kabinet", "ক্যাবিনেট"],
            &["juta", "জুতা"],
            &["rack", "rak", "র্যাক"],
            &["cushion", "kushon", "কুশন"],
            &["carpet", "karpet", "কার্পেট"],
            &["office", "ofis", "অফিস"],
            &["ayna", "aina", "আয়না"],
            &["baccha", "bachcha", "bacha", "বাচ্চা"],
            &["segun", "shegun", "সেগুন"],
            &["mahogany", "mahgoany", "মেহগনি"],
            &["centre", "center", "সেন্টার"],
        ] {
            let k = key(group[0]);
            for w in group {
                assert_eq!(key(w), k, "{w} vs {}", group[0]);
            }
        }
        assert_ne!(key("bed"), key("bati"));
        assert_ne!(key("sofa"), key("shoe"));
        assert_ne!(key("mahgoany"), key("meghna"));
        assert_eq!(key("SDC201"), "");
    }

    #[test]
    fn case_endings_and_plural_suffixes_are_stemmed() {
        assert!(stems("khater").contains(&"khat".to_string()));
        assert!(stems("almarir").contains(&"almari".to_string()));
        assert!(stems("chairgulo").contains(&"chair".to_string()));
        assert!(stems("bacchader").contains(&"baccha".to_string()));
        assert!(stems("sofar").contains(&"sofa".to_string()));
        assert!(stems("বাচ্চাদের").contains(&"বাচ্চা".to_string()));
        assert!(stems("খাটের").contains(&"খাট".to_string()));
        assert!(stems("আলমারির").contains(&"আলমারি".to_string()));
        assert!(stems("টেবিলগুলো").contains(&"টেবিল".to_string()));
        assert!(stems("bed").is_empty(), "a stem keeps three letters");
        assert!(stems("rs200").is_empty());
    }

    #[test]
    fn synonyms_are_other_words_found_by_any_spelling() {
        assert!(alternatives("khat").contains(&"bed".to_string()));
        assert!(alternatives("khaat").contains(&"bed".to_string()));
        assert!(alternatives("almirah").contains(&"wardrobe".to_string()));
        assert!(alternatives("বাচ্চা").contains(&"kid".to_string()));
        assert!(alternatives("bachcha").contains(&"kid".to_string()));
        assert_eq!(alternatives("oak"), vec!["oak".to_string()]);
    }

    #[test]
    fn stop_words_leave_the_query_unless_it_has_nothing_else() {
        assert_eq!(query_words("chairs for dining"), vec!["chair", "dining"]);
        assert_eq!(query_words("বাচ্চাদের জন্য খাট"), vec!["বাচ্চাদের", "খাট"]);
        assert_eq!(
            query_words("bacchader jonno khat"),
            vec!["bacchader", "khat"]
        );
        assert_eq!(query_words("the"), vec!["the"]);
    }

    #[test]
    fn codes_typed_without_their_hyphen_are_the_code_s_words() {
        assert_eq!(words("bdh120"), words("BDH-120"));
        assert_eq!(words("Dnt800"), vec!["dnt", "800"]);
        assert_eq!(words("BDH–120"), vec!["bdh", "120"]);
        assert_eq!(words("3+2+1"), vec!["3", "2", "1"]);
    }

    #[test]
    fn query_words_keep_their_spelling_as_typed() {
        assert_eq!(
            typed_words("Sofas for qqxx"),
            vec![
                ("Sofas".to_string(), "sofa".to_string()),
                ("qqxx".to_string(), "qqxx".to_string())
            ]
        );
        assert_eq!(
            typed_words("bdh120"),
            vec![
                ("bdh".to_string(), "bdh".to_string()),
                ("120".to_string(), "120".to_string())
            ]
        );
    }

    #[test]
    fn bangla_ng_and_a_final_ge_sound_as_in_latin_letters() {
        assert_eq!(key("সিঙ্গেল"), key("single"));
        assert_eq!(key("স্টোরেজ"), key("storage"));
        assert_ne!(key("gear"), key("jeer"), "only a final ge");
    }

    #[test]
    fn a_w_between_vowels_is_also_read_as_v() {
        assert!(keys("dewan").contains(&key("divan")));
        assert!(keys("diwan").contains(&key("ডিভান")));
        assert_eq!(key("dewan"), keys("dewan")[0], "the first reading");
        assert_eq!(key("dewal"), key("দেয়াল"), "a glide first");
        assert_eq!(keys("wardrobe"), vec![key("wardrobe")], "not a first w");
        assert!(sounds_like("dewan", "divan"));
        assert!(matches("dewan", "divan", false));
    }

    #[test]
    fn a_sound_again_after_a_vowel_is_a_second_sound() {
        assert_ne!(key("dewan"), key("dining"), "d-n is not d-n-ng");
        assert_eq!(key("dinning"), key("dining"));
        assert_eq!(key("khatt"), key("khat"), "doubled, no vowel between");
        assert_eq!(key("shishu"), key("শিশু"));
        assert_eq!(key("bachcha"), key("বাচ্চা"));
    }

    #[test]
    fn two_sounds_must_also_end_alike() {
        assert!(sounds_like("sett", "set"));
        assert!(sounds_like("সেট", "set"));
        assert!(!sounds_like("sett", "settee"), "settee ends in a vowel");
        assert!(!sounds_like("khat", "kyoto"));
        assert!(
            !sounds_like("khate", "kyoto"),
            "a final e after a consonant is silent"
        );
        assert!(sounds_like("khat", "খাট"));
        assert!(sounds_like("juta", "জুতা"));
        assert!(
            same_word_by_key("shishu", &key("shishu"), "শিশুদের"),
            "or a stem of a Bangla word"
        );
        assert!(!alternatives("sett").contains(&"sofa".to_string()));
        assert!(!alternatives("সেট").contains(&"sofa".to_string()));
        assert!(alternatives("sofa").contains(&"settee".to_string()));
        assert!(alternatives("khaat").contains(&"bed".to_string()));
    }

    #[test]
    fn chh_is_one_sound_igh_a_vowel_and_th_also_a_d() {
        assert_eq!(key("chhoto"), key("choto"));
        assert_eq!(key("chhoto"), key("ছোট"));
        assert_eq!(key("light"), key("লাইট"));
        assert_eq!(key("night"), key("নাইট"));
        assert_ne!(key("ghor"), key("or"), "a gh that begins a word stays");
        // "leather" is লেদার by its second reading, "thin" থিন by its first.
        assert!(keys("leather").contains(&key("লেদার")));
        assert_eq!(key("leather"), key("lether"));
        assert_eq!(key("thin"), key("থিন"));
    }

    #[test]
    fn english_plurals_in_bangla_script_and_wala_are_stemmed() {
        assert!(stems("ক্রোকারিজ").contains(&"ক্রোকারি".to_string()));
        assert!(stems("কিডস").contains(&"কিড".to_string()));
        assert!(stems(&words("চাকাওয়ালা")[0]).contains(&"চাকা".to_string()));
        assert!(stems("aynawala").contains(&"ayna".to_string()));
        // "On": বিছানায়, "bichanay" (on the bed).
        assert!(stems(&words("বিছানায়")[0]).contains(&"বিছানা".to_string()));
        assert!(stems("bichanay").contains(&"bichana".to_string()));
        assert!(stems("grey").is_empty());
        assert!(stems("কেস").is_empty(), "a vowel before স: no plural");
        assert!(stems("বক্স").is_empty(), "a conjunct before স: no plural");
        assert_eq!(fold("crockeries"), "crockery");
        assert_eq!(fold("ties"), "tie", "a stem of two letters is no y word");
    }

    #[test]
    fn a_number_joined_to_a_known_word_is_the_digit_and_the_word() {
        assert_eq!(
            query_words("tinjon boshar sofa"),
            vec!["3", "jon", "boshar", "sofa"]
        );
        assert_eq!(query_words("তিনজনের সোফা"), vec!["3", "জনের", "সোফা"]);
        assert_eq!(
            query_words("ekjon khat"),
            vec!["ekjon", "khat"],
            "a word known whole stays"
        );
        assert_eq!(query_words("ekjoner khat"), vec!["ekjoner", "khat"]);
        assert_eq!(query_words("tinta"), vec!["tinta"], "a number word alone");
        assert_eq!(
            query_words("satin"),
            vec!["satin"],
            "the rest means nothing"
        );
        assert_eq!(query_words("ekta sofa"), vec!["sofa"], "ekta says a");
    }

    #[test]
    fn a_word_read_as_written_means_only_that() {
        assert_eq!(as_written("kather"), Some("wood"), "with its case ending");
        assert_eq!(as_written("khater"), None);
        assert_eq!(as_written("taker"), Some("rack"));
        assert_eq!(number("tiner"), Some("3"));
        // Heard k-d-r by its second reading, "kather" would be a "kedara".
        assert!(alternatives("kather").contains(&"chair".to_string()));
        assert!(!meanings("kather").contains(&"chair".to_string()));
        assert!(meanings("kather").contains(&"wood".to_string()));
        assert!(meanings("seat").contains(&"seater".to_string()));
        assert!(!meanings("seat").contains(&"set".to_string()));
    }

    #[test]
    fn every_listed_word_is_written_as_the_index_writes_it() {
        let listed = SYNONYMS
            .iter()
            .flat_map(|g| g.iter().copied())
            .chain(STOP_WORDS.iter().copied())
            .chain(NUMBERS.iter().map(|(w, _)| *w))
            .chain(AS_WRITTEN.iter().map(|(w, _)| *w))
            .chain(PHRASES.iter().flat_map(|(a, b, _)| [*a, *b]));
        for w in listed {
            assert_eq!(
                words(w),
                vec![fold(w)],
                "{w:?} is one word as words() gives it"
            );
        }
        for w in STOP_WORDS {
            assert!(
                !SYNONYMS.iter().any(|g| g.contains(w)) && number(w).is_none(),
                "{w:?} is a stop word and a word with a meaning"
            );
        }
    }

    #[test]
    fn a_one_sound_word_is_listed_in_both_scripts() {
        assert!(alternatives("চা").contains(&"tea".to_string()));
        assert!(alternatives("cha").contains(&"tea".to_string()));
    }

    #[test]
    fn two_words_that_name_one_thing_stand_for_it() {
        assert_eq!(query_words("jutar almari"), vec!["shoe", "cabinet"]);
        assert_eq!(query_words("shoe almirah"), vec!["shoe", "cabinet"]);
        assert_eq!(query_words("জুতার আলমারি"), vec!["shoe", "cabinet"]);
        assert_eq!(query_words("almari"), vec!["almari"], "alone a wardrobe");
        assert_eq!(query_words("drawing room sofa"), vec!["living", "sofa"]);
        assert_eq!(
            query_words("drawing room er jonno sofa"),
            vec!["living", "sofa"]
        );
        assert_eq!(query_words("living room rug"), vec!["living", "rug"]);
        assert_eq!(query_words("bed room"), vec!["bedroom"]);
        assert_eq!(query_words("kids room"), vec!["kid"]);
        assert_eq!(query_words("room"), vec!["room"]);
        assert_eq!(
            typed_words("Drawing Room sofa"),
            vec![
                ("Drawing Room".to_string(), "living".to_string()),
                ("sofa".to_string(), "sofa".to_string())
            ],
            "shown as typed"
        );
        assert_eq!(
            typed_words("jutar almari")[1],
            ("almari".to_string(), "cabinet".to_string())
        );
    }

    #[test]
    fn typos_are_forgiven_by_word_length() {
        let none = |w: &str| usize::from(max_typos(w));
        assert_eq!(
            typos_between("sfoa", "sofa", none("sfoa"), false),
            None,
            "no typo under 5 letters"
        );
        assert!(matches("wardrob", "wardrobe", false));
        assert!(
            matches("mahgoany", "mahogany", false),
            "a transposition is one"
        );
        assert!(matches("dressign", "dressing", false));
        assert!(matches("wardorbe", "wardrobe", false));
        assert!(
            !matches("wxrdxobe", "wardrobe", false),
            "two typos at 8 letters"
        );
        assert!(matches("bedsdie", "bedside", false));
        assert!(matches("wrokstaton", "workstation", false), "two from nine");
        assert!(
            matches("mah", "mahogany", true),
            "the word being typed is a prefix"
        );
        assert!(matches("mahog", "mahogany", true));
        assert!(
            matches("mahgo", "mahogany", true),
            "a typo in a typed prefix"
        );
        assert!(matches("sopha", "sofa", false), "a phonetic spelling");
        assert_eq!(distance("kitten", "sitting", 5), 3);
        assert_eq!(typos_between("shoo", "shoe", 1, false), Some(1));
    }
}
