"""The campaign form (browser and API) and the rating form."""

from __future__ import annotations

from django import forms

from mtdash.evaluation.models import SystemOutput, TestSet
from mtdash.judgments.campaigns.judging import CampaignSettings, team_members
from mtdash.judgments.campaigns.sampling import CRITERION_ORDER
from mtdash.judgments.models import Campaign, Criterion

CRITERION_CHOICES = [
    ("fluency", "Fluency (1–5, translation only)"),
    ("adequacy", "Adequacy (1–5, with the reference)"),
    ("da", "Direct assessment (0–100 slider, with the reference)"),
]
assert [name for name, _ in CRITERION_CHOICES] == list(CRITERION_ORDER)


class CampaignForm(forms.Form):
    name = forms.CharField(max_length=200)
    kind = forms.ChoiceField(
        choices=[
            (Campaign.Kind.RATING, "Ratings: judges rate each item on the criteria"),
            (
                Campaign.Kind.ESA,
                "ESA (Error Span Annotation, Kocmi et al. 2024): judges mark error "
                "spans (minor or major) in the translation, then score it 0–100",
            ),
        ],
        initial=Campaign.Kind.RATING,
        widget=forms.RadioSelect,
        label="Campaign type",
        required=False,  # ratings when absent (the API's older requests)
    )
    outputs = forms.ModelMultipleChoiceField(
        queryset=SystemOutput.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        label="Systems",
    )
    criteria = forms.MultipleChoiceField(
        choices=CRITERION_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text="for ratings; an ESA campaign's criterion is esa (0–100)",
    )
    segments_per_system = forms.IntegerField(
        min_value=1, help_text="a seeded sample of segments, the same for every system"
    )
    judges = forms.ModelMultipleChoiceField(
        queryset=SystemOutput.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text="team members who will judge",
    )
    judges_per_item = forms.IntegerField(
        min_value=1, initial=2, label="Judges per item (k)"
    )
    controls_per_judge = forms.IntegerField(
        min_value=0,
        max_value=100,
        initial=5,
        help_text="hidden quality controls: this many repeated items and as many "
        "degraded translations per judge (5 or more allow the significance test)",
    )
    seed = forms.IntegerField(
        min_value=0, max_value=2**31 - 1, initial=12345, help_text="seeds the sample"
    )

    def __init__(self, *args, test_set: TestSet, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.test_set = test_set
        self.n_segments = test_set.segments.count()
        self.fields["outputs"].queryset = (
            SystemOutput.objects.filter(test_set=test_set, hidden=False)
            .select_related("system")
            .order_by("system__name")
        )
        self.fields["outputs"].label_from_instance = lambda output: output.system.name
        self.fields["judges"].queryset = team_members(test_set)
        self.fields["judges"].label_from_instance = lambda user: user.username
        self.fields["segments_per_system"].max_value = self.n_segments
        self.fields["segments_per_system"].widget.attrs["max"] = self.n_segments
        self.fields["segments_per_system"].help_text += f" (1–{self.n_segments})"
        self.fields["segments_per_system"].initial = min(10, self.n_segments)
        if not self.is_bound:
            self.initial.setdefault("judges", list(self.fields["judges"].queryset))

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if Campaign.objects.filter(test_set=self.test_set, name=name).exists():
            raise forms.ValidationError("this test set has a campaign of that name")
        return name

    def clean_kind(self) -> str:
        return self.cleaned_data.get("kind") or Campaign.Kind.RATING

    def clean_segments_per_system(self) -> int:
        value = self.cleaned_data["segments_per_system"]
        if value > self.n_segments:
            raise forms.ValidationError(f"the test set has {self.n_segments} segments")
        return value

    def clean(self):
        cleaned = super().clean()
        kind = cleaned.get("kind")
        if kind == Campaign.Kind.RATING and not cleaned.get("criteria"):
            self.add_error("criteria", "choose at least one criterion to rate")
        if kind == Campaign.Kind.ESA:
            esa = Criterion.objects.filter(test_set=self.test_set, name="esa").first()
            if esa is not None and esa.scale == Criterion.Scale.Z:
                self.add_error(
                    "kind",
                    "this test set's esa criterion holds z-scores as given in a "
                    "file; ESA scores of judges cannot join them",
                )
        judges, k = cleaned.get("judges"), cleaned.get("judges_per_item")
        if judges is not None and k is not None and k > len(judges):
            self.add_error(
                "judges_per_item",
                f"each item needs {k} different judges; {len(judges)} are chosen",
            )
        return cleaned

    def settings(self) -> CampaignSettings:
        data = self.cleaned_data
        esa = data["kind"] == Campaign.Kind.ESA
        return CampaignSettings(
            name=data["name"],
            kind=data["kind"],
            outputs=list(data["outputs"]),
            criteria=["esa"]
            if esa
            else [c for c in CRITERION_ORDER if c in data["criteria"]],
            segments_per_system=data["segments_per_system"],
            judges=list(data["judges"]),
            judges_per_item=data["judges_per_item"],
            controls_per_judge=data["controls_per_judge"],
            seed=data["seed"],
        )


class RatingForm(forms.Form):
    assignment = forms.IntegerField(widget=forms.HiddenInput)
    value = forms.FloatField()
