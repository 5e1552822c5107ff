"""A small annotated test set written for the error-span tests (no tests
here): the shared 3-segment fr-en test set (tests/conftest.py) with outputs
of three systems, an MQM TSV by two raters with ``<v>`` spans (target and
source side, an error without position, No-error rows), an ESA JSON lines
file with scores and spans, and a metric's spans.

Expected MQM (Freitag et al. 2021 weights; minus the mean of the raters'
weighted error sums, per segment):

========  ===================  ===================  =========  =========
system    segment 1            segment 2            segment 3  system
========  ===================  ===================  =========  =========
alpha     -(0 + 1)/2 = -0.5    0                    0          -1/6
beta      -(6 + 5)/2 = -5.5    0                    -(0.1)/2   -1.85
gamma     -(6 + 10)/2 = -8     -(25 + 5)/2 = -15    0          -23/3
========  ===================  ===================  =========  =========
"""

from __future__ import annotations

import json

from mtdash.evaluation.services.uploads import create_system_output

SOURCES = ["le chat est sur le tapis", "il pleut", "bonjour à tous"]
OUTPUTS = {
    "alpha": ["the cat is on the mat", "it is raining", "hello everyone"],
    "beta": ["the cat sits on a mat", "it rains", "hello to everybody"],
    "gamma": ["a dog is on the mat", "rain is", "hi all"],
}
HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
NO_ERROR = ("No-error", "No-error")


def mqm_row(system, segment, rater, category, severity, source=None, target=None):
    source = SOURCES[segment - 1] if source is None else source
    target = OUTPUTS[system][segment - 1] if target is None else target
    return "\t".join(
        [system, "doc1", "1", str(segment), rater, source, target, category, severity]
    )


# (system, segment, rater, category, severity, marked source, marked target)
MQM_ROWS = [
    ("alpha", 1, "r1", *NO_ERROR, None, None),
    ("alpha", 2, "r1", *NO_ERROR, None, None),
    ("alpha", 3, "r1", *NO_ERROR, None, None),
    ("alpha", 1, "r2", "Style/Awkward", "Minor", None, "the cat is on the <v>mat</v>"),
    ("alpha", 2, "r2", *NO_ERROR, None, None),
    ("alpha", 3, "r2", *NO_ERROR, None, None),
    ("beta", 1, "r1", "Accuracy/Mistranslation", "Major", None, "the cat <v>sits</v> on a mat"),
    ("beta", 1, "r1", "Fluency/Grammar", "Minor", None, "the cat sits on <v>a</v> mat"),
    ("beta", 2, "r1", *NO_ERROR, None, None),
    ("beta", 3, "r1", "Fluency/Punctuation", "Minor", None, "hello <v>to</v> everybody"),
    ("beta", 1, "r2", "Accuracy/Mistranslation", "Major", None, "the cat <v>sits</v> on a mat"),
    ("beta", 2, "r2", *NO_ERROR, None, None),
    ("beta", 3, "r2", *NO_ERROR, None, None),
    ("gamma", 1, "r1", "Accuracy/Mistranslation", "Major", None, "<v>a dog</v> is on the mat"),
    ("gamma", 1, "r1", "Accuracy/Omission", "Minor", "le <v>chat</v> est sur le tapis", None),
    ("gamma", 2, "r1", "Non-translation!", "Major", None, None),
    ("gamma", 3, "r1", *NO_ERROR, None, None),
    ("gamma", 1, "r2", "Accuracy/Mistranslation", "Critical", None, "<v>a dog</v> is on the mat"),
    ("gamma", 2, "r2", "Fluency/Grammar", "Major", None, "<v>rain is</v>"),
    ("gamma", 3, "r2", *NO_ERROR, None, None),
]  # fmt: skip
MQM_SEGMENTS = {
    ("alpha", 1): -0.5, ("alpha", 2): 0.0, ("alpha", 3): 0.0,
    ("beta", 1): -5.5, ("beta", 2): 0.0, ("beta", 3): -0.05,
    ("gamma", 1): -8.0, ("gamma", 2): -15.0, ("gamma", 3): 0.0,
}  # fmt: skip
MQM_SYSTEMS = {"alpha": -1 / 6, "beta": -1.85, "gamma": -23 / 3}
N_MQM_SPANS = 10  # error rows: every row but the No-error ones


def mqm_tsv(rows=MQM_ROWS) -> bytes:
    lines = [HEADER] + [mqm_row(*row) for row in rows]
    return ("\n".join(lines) + "\n").encode()


def span(start, end, severity="major", **extra) -> dict:
    return {"start": start, "end": end, "severity": severity, **extra}


# ESA: e1 and e2 score alpha and beta; e2's beta segment 3 has spans, no score.
ESA_LINES = [
    {"segment": 1, "system": "alpha", "annotator": "e1", "score": 95, "spans": []},
    {"segment": 2, "system": "alpha", "annotator": "e1", "score": 100, "spans": []},
    {"segment": 3, "system": "alpha", "annotator": "e1", "score": 90, "spans": []},
    {"segment": 1, "system": "beta", "annotator": "e1", "score": 60,
     "spans": [span(8, 12, category="Accuracy/Mistranslation")]},
    {"segment": 2, "system": "beta", "annotator": "e1", "score": 85,
     "spans": [span(3, 8, "minor")]},
    {"segment": 3, "system": "beta", "annotator": "e1", "score": 70,
     "spans": [span(6, 8, "minor", category="Fluency"), span(3, 8, "minor", side="source")]},
    {"segment": 1, "system": "alpha", "annotator": "e2", "score": 90, "spans": []},
    {"segment": 1, "system": "beta", "annotator": "e2", "score": 50,
     "spans": [span(8, 12), span(16, 17, "minor")]},
    {"segment": 3, "system": "beta", "annotator": "e2", "spans": [span(6, 18, "minor")]},
]  # fmt: skip
N_ESA_SPANS = 7
# Segment means over the annotators who scored, then the system's mean.
ESA_SYSTEMS = {
    "alpha": ((95 + 90) / 2 + 100 + 90) / 3,
    "beta": ((60 + 50) / 2 + 85 + 70) / 3,
}

METRIC = "xcomet-xl"
METRIC_LINES = [
    {"segment": 1, "system": "beta", "metric": METRIC, "score": 0.61,
     "spans": [span(8, 12, confidence=0.83)]},
    {"segment": 1, "system": "gamma", "metric": METRIC, "score": 0.32,
     "spans": [span(0, 5, "critical", confidence=0.91),
               span(3, 7, "minor", side="source", confidence=0.4)]},
    {"segment": 2, "system": "alpha", "metric": METRIC, "score": 0.97, "spans": []},
]  # fmt: skip


def jsonl(lines) -> bytes:
    return "".join(
        json.dumps(line, ensure_ascii=False) + "\n" for line in lines
    ).encode()


def annotated_outputs(test_set, owner) -> None:
    """Outputs of alpha, beta and gamma in the shared test set (whose
    sources are :data:`SOURCES`)."""
    assert list(test_set.segments.values_list("source", flat=True)) == SOURCES
    for system, hypotheses in OUTPUTS.items():
        create_system_output(test_set, owner, system, hypotheses, queue=False)
