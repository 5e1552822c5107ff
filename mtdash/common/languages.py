"""Language codes users choose from: ISO 639-1, plus the few ISO 639-3 codes
WMT and other shared tasks use for languages without a two-letter code.

A test set's languages are picked from this list (a select), never typed:
``fr`` and ``French`` and ``fre`` would otherwise be three languages on the
leaderboard. Codes are the primary subtags that
:func:`scoring.language_defaults.language_code` reads.
"""

from __future__ import annotations

# ISO 639-1: code -> English name (as the standard's reference names them,
# shortened where the name lists variants).
ISO_639_1 = {
    "aa": "Afar", "ab": "Abkhazian", "ae": "Avestan", "af": "Afrikaans",
    "ak": "Akan", "am": "Amharic", "an": "Aragonese", "ar": "Arabic",
    "as": "Assamese", "av": "Avaric", "ay": "Aymara", "az": "Azerbaijani",
    "ba": "Bashkir", "be": "Belarusian", "bg": "Bulgarian", "bi": "Bislama",
    "bm": "Bambara", "bn": "Bengali", "bo": "Tibetan", "br": "Breton",
    "bs": "Bosnian", "ca": "Catalan", "ce": "Chechen", "ch": "Chamorro",
    "co": "Corsican", "cr": "Cree", "cs": "Czech", "cu": "Church Slavic",
    "cv": "Chuvash", "cy": "Welsh", "da": "Danish", "de": "German",
    "dv": "Divehi", "dz": "Dzongkha", "ee": "Ewe", "el": "Greek",
    "en": "English", "eo": "Esperanto", "es": "Spanish", "et": "Estonian",
    "eu": "Basque", "fa": "Persian", "ff": "Fulah", "fi": "Finnish",
    "fj": "Fijian", "fo": "Faroese", "fr": "French", "fy": "Western Frisian",
    "ga": "Irish", "gd": "Scottish Gaelic", "gl": "Galician", "gn": "Guarani",
    "gu": "Gujarati", "gv": "Manx", "ha": "Hausa", "he": "Hebrew",
    "hi": "Hindi", "ho": "Hiri Motu", "hr": "Croatian", "ht": "Haitian Creole",
    "hu": "Hungarian", "hy": "Armenian", "hz": "Herero", "ia": "Interlingua",
    "id": "Indonesian", "ie": "Interlingue", "ig": "Igbo", "ii": "Sichuan Yi",
    "ik": "Inupiaq", "io": "Ido", "is": "Icelandic", "it": "Italian",
    "iu": "Inuktitut", "ja": "Japanese", "jv": "Javanese", "ka": "Georgian",
    "kg": "Kongo", "ki": "Kikuyu", "kj": "Kuanyama", "kk": "Kazakh",
    "kl": "Kalaallisut", "km": "Khmer", "kn": "Kannada", "ko": "Korean",
    "kr": "Kanuri", "ks": "Kashmiri", "ku": "Kurdish", "kv": "Komi",
    "kw": "Cornish", "ky": "Kyrgyz", "la": "Latin", "lb": "Luxembourgish",
    "lg": "Ganda", "li": "Limburgish", "ln": "Lingala", "lo": "Lao",
    "lt": "Lithuanian", "lu": "Luba-Katanga", "lv": "Latvian",
    "mg": "Malagasy", "mh": "Marshallese", "mi": "Maori", "mk": "Macedonian",
    "ml": "Malayalam", "mn": "Mongolian", "mr": "Marathi", "ms": "Malay",
    "mt": "Maltese", "my": "Burmese", "na": "Nauru", "nb": "Norwegian Bokmål",
    "nd": "North Ndebele", "ne": "Nepali", "ng": "Ndonga", "nl": "Dutch",
    "nn": "Norwegian Nynorsk", "no": "Norwegian", "nr": "South Ndebele",
    "nv": "Navajo", "ny": "Chichewa", "oc": "Occitan", "oj": "Ojibwa",
    "om": "Oromo", "or": "Odia", "os": "Ossetian", "pa": "Punjabi",
    "pi": "Pali", "pl": "Polish", "ps": "Pashto", "pt": "Portuguese",
    "qu": "Quechua", "rm": "Romansh", "rn": "Kirundi", "ro": "Romanian",
    "ru": "Russian", "rw": "Kinyarwanda", "sa": "Sanskrit", "sc": "Sardinian",
    "sd": "Sindhi", "se": "Northern Sami", "sg": "Sango", "si": "Sinhala",
    "sk": "Slovak", "sl": "Slovenian", "sm": "Samoan", "sn": "Shona",
    "so": "Somali", "sq": "Albanian", "sr": "Serbian", "ss": "Swati",
    "st": "Southern Sotho", "su": "Sundanese", "sv": "Swedish",
    "sw": "Swahili", "ta": "Tamil", "te": "Telugu", "tg": "Tajik",
    "th": "Thai", "ti": "Tigrinya", "tk": "Turkmen", "tl": "Tagalog",
    "tn": "Tswana", "to": "Tongan", "tr": "Turkish", "ts": "Tsonga",
    "tt": "Tatar", "tw": "Twi", "ty": "Tahitian", "ug": "Uyghur",
    "uk": "Ukrainian", "ur": "Urdu", "uz": "Uzbek", "ve": "Venda",
    "vi": "Vietnamese", "vo": "Volapük", "wa": "Walloon", "wo": "Wolof",
    "xh": "Xhosa", "yi": "Yiddish", "yo": "Yoruba", "za": "Zhuang",
    "zh": "Chinese", "zu": "Zulu",
}  # fmt: skip

# ISO 639-3 codes of languages in WMT, IWSLT and FLORES test sets that have
# no two-letter code.
ISO_639_3 = {
    "hsb": "Upper Sorbian", "dsb": "Lower Sorbian", "liv": "Livonian",
    "sah": "Yakut", "yue": "Cantonese",
    "fil": "Filipino", "ast": "Asturian", "ceb": "Cebuano", "kea": "Kabuverdianu",
    "luo": "Luo", "nso": "Northern Sotho", "umb": "Umbundu",
}  # fmt: skip

#: Every code offered: code -> English name.
LANGUAGES = {**ISO_639_1, **ISO_639_3}


def language_name(code: str) -> str:
    """The English name of ``code``, or the code itself if it is not listed."""
    return LANGUAGES.get(code, code)


def language_label(code: str) -> str:
    """``Chinese (zh)``; the bare code if it is not listed."""
    name = LANGUAGES.get(code)
    return f"{name} ({code})" if name else code


def language_choices() -> list[tuple[str, str]]:
    """``(code, "Name (code)")`` sorted by name, an empty choice first, for a
    select that makes the user choose rather than keep a pre-filled value."""
    ordered = sorted(LANGUAGES.items(), key=lambda item: item[1])
    return [("", "— choose a language —")] + [
        (code, language_label(code)) for code, _ in ordered
    ]
