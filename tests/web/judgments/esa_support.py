"""A small test set for ESA campaigns, written for these tests: six German
sentences in two documents, translated into English by two systems; one
translation holds an emoji (two UTF-16 units, one code point) and one an
``<script>`` tag and an ampersand, to check offsets and escaping."""

from __future__ import annotations

import json

from mtdash.evaluation.services.uploads import (
    TestSetData,
    create_system_output,
    create_test_set,
)
from mtdash.judgments.campaigns import judging as service
from mtdash.judgments.campaigns.esa import record_esa
from mtdash.judgments.campaigns.forms import CampaignForm
from mtdash.judgments.models import Assignment, Campaign

SOURCES = [
    "Der Bürgermeister eröffnete am Montag die neue Brücke.",
    "Tausende Menschen kamen zur Feier.",
    "Die Bauarbeiten hatten drei Jahre gedauert.",
    "Das Museum zeigt ab Mai Gemälde aus dem Barock.",
    "Der Eintritt ist für Kinder frei.",
    "Die Ausstellung endet im September.",
]
DOCUMENTS = ["bridge", "bridge", "bridge", "museum", "museum", "museum"]
SYSTEMS = {
    "Lingo-1": [
        "The mayor opened the new bridge on Monday.",
        "Thousands of people came to the party 🎉 yesterday.",
        "The construction had lasted three years.",
        "The museum shows paintings from the baroque from May.",
        "Admission is free for children <script>document.title='pwned'</script> & adults.",
        "The exhibition ends in September.",
    ],
    "Verba": [
        "The mayor opened on Monday the new bridge.",
        "Thousand people came to celebration.",
        "The building works lasted three year.",
        "The museum is showing baroque paintings starting in May.",
        "Entrance is free of charge for kids.",
        "The show is ending in September.",
    ],
}


def build_esa_set(team, owner, *, documents: bool = True):
    test_set = create_test_set(
        team,
        owner,
        TestSetData(
            name="esa toy",
            source_language="de",
            target_language="en",
            text_type="news",
            description="",
            sources=SOURCES,
            references={"A": [s.upper() for s in SOURCES]},
            document_ids=DOCUMENTS if documents else None,
        ),
    )
    for name, hypotheses in SYSTEMS.items():
        create_system_output(test_set, owner, name, hypotheses, queue=False)
    return test_set


def make_esa_campaign(test_set, owner, judges, **overrides) -> Campaign:
    data = {
        "name": "esa pilot",
        "kind": "esa",
        "outputs": [o.pk for o in test_set.outputs.all()],
        "segments_per_system": 6,  # every segment
        "judges": [j.pk for j in judges],
        "judges_per_item": len(judges),
        "controls_per_judge": 1,
        "seed": 5,
    }
    data.update(overrides)
    form = CampaignForm(data, test_set=test_set)
    assert form.is_valid(), form.errors
    return service.create_campaign(test_set, owner, form.settings())


def spans_field(*spans: tuple) -> str:
    """The form's ``spans`` field: (start, end, severity[, category[, side]])."""
    rows = []
    for span in spans:
        start, end, severity, *rest = span
        category = rest[0] if rest else ""
        side = rest[1] if len(rest) > 1 else "target"
        rows.append(
            {
                "side": side,
                "start": start,
                "end": end,
                "severity": severity,
                "category": category,
            }
        )
    return json.dumps(rows)


def regular(campaign, judge, **filters) -> Assignment:
    return (
        Assignment.objects.filter(campaign=campaign, judge=judge, kind="regular")
        .filter(**filters)
        .select_related("item__output__system")
        .order_by("position")
        .first()
    )


def target_of(assignment: Assignment) -> str:
    return SYSTEMS[assignment.item.output.system.name][assignment.item.index]


def answer_everything(campaign, user, answer) -> None:
    """Answer the judge's whole queue: ``answer(assignment) -> (score, spans)``."""
    while (screen := service.next_assignment(campaign, user)) is not None:
        score, spans = answer(screen)
        assert record_esa(campaign, user, screen.pk, str(score), spans)
