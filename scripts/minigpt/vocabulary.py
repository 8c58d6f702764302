"""The 600-token vocabulary of the grammar MiniGPT: English and Spanish verb forms and pronouns.

Every token is a whole word, so the LM head's 600 rows are 600 readable words.
Verbs are chosen so that no two forms of different verbs or languages collide
(no English "come" beside Spanish "come"), and Spanish verbs are regular ones
whose forms follow the textbook rules; the tests check both properties.
"""

from __future__ import annotations

SPECIALS = ["<pad>", "<bos>", "<eos>", ":"]

# English: a verb's cue form is its base form.
EN_PRONOUNS = ["I", "you", "he", "she", "it", "we", "they"]
EN_MARKERS = {"usually": "present", "yesterday": "past", "now": "progressive", "tomorrow": "future"}
EN_AUX = ["am", "is", "are", "will"]
EN_ENDINGS = ["here", "there", "again", "well", "slowly", "quickly", "together", "alone", "early", "late"]
# (base, third person singular, past, -ing): 43 verbs whose four forms all differ
EN_VERBS = [
    ("walk", "walks", "walked", "walking"),
    ("talk", "talks", "talked", "talking"),
    ("work", "works", "worked", "working"),
    ("play", "plays", "played", "playing"),
    ("cook", "cooks", "cooked", "cooking"),
    ("call", "calls", "called", "calling"),
    ("help", "helps", "helped", "helping"),
    ("jump", "jumps", "jumped", "jumping"),
    ("laugh", "laughs", "laughed", "laughing"),
    ("listen", "listens", "listened", "listening"),
    ("look", "looks", "looked", "looking"),
    ("open", "opens", "opened", "opening"),
    ("paint", "paints", "painted", "painting"),
    ("rest", "rests", "rested", "resting"),
    ("study", "studies", "studied", "studying"),
    ("travel", "travels", "traveled", "traveling"),
    ("wait", "waits", "waited", "waiting"),
    ("wash", "washes", "washed", "washing"),
    ("watch", "watches", "watched", "watching"),
    ("learn", "learns", "learned", "learning"),
    ("clean", "cleans", "cleaned", "cleaning"),
    ("climb", "climbs", "climbed", "climbing"),
    ("dance", "dances", "danced", "dancing"),
    ("smile", "smiles", "smiled", "smiling"),
    ("eat", "eats", "ate", "eating"),
    ("drink", "drinks", "drank", "drinking"),
    ("run", "runs", "ran", "running"),
    ("write", "writes", "wrote", "writing"),
    ("sing", "sings", "sang", "singing"),
    ("swim", "swims", "swam", "swimming"),
    ("speak", "speaks", "spoke", "speaking"),
    ("sleep", "sleeps", "slept", "sleeping"),
    ("drive", "drives", "drove", "driving"),
    ("ride", "rides", "rode", "riding"),
    ("think", "thinks", "thought", "thinking"),
    ("teach", "teaches", "taught", "teaching"),
    ("buy", "buys", "bought", "buying"),
    ("sit", "sits", "sat", "sitting"),
    ("stand", "stands", "stood", "standing"),
    ("win", "wins", "won", "winning"),
    ("go", "goes", "went", "going"),
    ("see", "sees", "saw", "seeing"),
    ("give", "gives", "gave", "giving"),
]

# Spanish: a verb's cue form is its infinitive.
ES_PRONOUNS = [
    "yo",
    "tú",
    "él",
    "ella",
    "usted",
    "nosotros",
    "nosotras",
    "vosotros",
    "vosotras",
    "ellos",
    "ellas",
    "ustedes",
]
ES_PERSON = {
    "yo": 0,
    "tú": 1,
    "él": 2,
    "ella": 2,
    "usted": 2,
    "nosotros": 3,
    "nosotras": 3,
    "vosotros": 4,
    "vosotras": 4,
    "ellos": 5,
    "ellas": 5,
    "ustedes": 5,
}
ES_MARKERS = {"normalmente": "present", "ayer": "past", "ahora": "progressive", "mañana": "future"}
ES_ESTAR = ["estoy", "estás", "está", "estamos", "estáis", "están"]
# "juntos" and "juntas" agree with the subject: masculine (or mixed) plural, feminine plural; a
# singular subject takes neither.
ES_ENDINGS = ["aquí", "allí", "bien", "mal", "despacio", "rápido", "juntos", "juntas", "temprano", "tarde"]
ES_FEMININE_PLURAL = {"nosotras", "vosotras", "ellas"}
ES_MASCULINE_PLURAL = {"nosotros", "vosotros", "ellos", "ustedes"}
# Regular verbs only: no stem changes, no spelling changes in the preterite (-car, -gar, -zar).
ES_VERBS = [
    "hablar",
    "caminar",
    "trabajar",
    "cantar",
    "bailar",
    "viajar",
    "escuchar",
    "comer",
    "beber",
    "correr",
    "aprender",
    "vender",
    "responder",
    "vivir",
    "escribir",
    "subir",
    "recibir",
    "decidir",
    "partir",
]

_ES_ENDINGS = {
    "ar": {
        "present": ["o", "as", "a", "amos", "áis", "an"],
        "past": ["é", "aste", "ó", "amos", "asteis", "aron"],
        "gerund": "ando",
    },
    "er": {
        "present": ["o", "es", "e", "emos", "éis", "en"],
        "past": ["í", "iste", "ió", "imos", "isteis", "ieron"],
        "gerund": "iendo",
    },
    "ir": {
        "present": ["o", "es", "e", "imos", "ís", "en"],
        "past": ["í", "iste", "ió", "imos", "isteis", "ieron"],
        "gerund": "iendo",
    },
}
_ES_FUTURE = ["é", "ás", "á", "emos", "éis", "án"]


def en_endings(pronoun: str) -> list[str]:
    """The sentence endings that read well after this subject: "together" needs a plural one."""
    return [e for e in EN_ENDINGS if e != "together" or pronoun in ("we", "they", "you")]


def es_endings(pronoun: str) -> list[str]:
    """The sentence endings that agree with this subject in gender and number."""
    keep = {"juntos": pronoun in ES_MASCULINE_PLURAL, "juntas": pronoun in ES_FEMININE_PLURAL}
    return [e for e in ES_ENDINGS if keep.get(e, True)]


def es_forms(infinitive: str) -> dict[str, list[str] | str]:
    """Present, preterite and future (six persons each) and the gerund of a regular verb."""
    stem, group = infinitive[:-2], infinitive[-2:]
    table = _ES_ENDINGS[group]
    return {
        "present": [stem + e for e in table["present"]],
        "past": [stem + e for e in table["past"]],
        "future": [infinitive + e for e in _ES_FUTURE],
        "gerund": stem + table["gerund"],
    }


def build() -> list[str]:
    """The vocabulary in a fixed order: specials, function words, then verb forms."""
    tokens = [
        *SPECIALS,
        *EN_PRONOUNS,
        *EN_MARKERS,
        *EN_AUX,
        *EN_ENDINGS,
        *ES_PRONOUNS,
        *ES_MARKERS,
        *ES_ESTAR,
        *ES_ENDINGS,
    ]
    for forms in EN_VERBS:
        tokens += forms
    for verb in ES_VERBS:
        forms = es_forms(verb)
        own = [verb, *forms["present"], *forms["past"], *forms["future"], forms["gerund"]]
        tokens += list(dict.fromkeys(own))  # "hablamos" is both present and preterite: one token
    duplicates = sorted({t for t in tokens if tokens.count(t) > 1})
    if duplicates:
        raise ValueError(f"tokens shared by two words of the vocabulary: {duplicates}")
    if len(tokens) != SIZE:
        raise ValueError(f"the vocabulary has {len(tokens)} tokens, not {SIZE}")
    return tokens


SIZE = 600
VOCAB = build()
