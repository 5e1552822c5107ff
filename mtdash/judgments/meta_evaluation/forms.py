"""The forms that queue a meta-evaluation: the settings (permutations, seed,
grouping, tie calibration, Kendall variant), for one test set on its
metric-evaluation page, or for several chosen test sets with weights."""

from __future__ import annotations

from django import forms

from mtdash.judgments.meta_evaluation.inputs import judged_criteria
from mtdash.judgments.meta_evaluation.jobs import (
    MetaRequest,
    RequestProblem,
    checked_request,
    judged_test_sets_of,
)
from mtdash.judgments.meta_evaluation.options import (
    DEFAULTS,
    GROUPINGS,
    KENDALL_VARIANTS,
    MAX_PERMUTATIONS,
    chosen_settings,
)
from scoring import ScoringError

SETTING_FIELDS = (
    "permutations",
    "seed",
    "group_by",
    "tie_calibration",
    "kendall_variant",
)


class SettingsForm(forms.Form):
    """The settings a person chooses; ``settings()`` once valid."""

    permutations = forms.IntegerField(
        min_value=1,
        max_value=MAX_PERMUTATIONS,
        initial=DEFAULTS.n_permutations,
        help_text="draws of each permutation test (WMT: 1000)",
    )
    seed = forms.IntegerField(min_value=0, max_value=2**32 - 1, initial=DEFAULTS.seed)
    group_by = forms.ChoiceField(
        choices=list(GROUPINGS.items()),
        initial=DEFAULTS.group_by,
        label="Segment grouping",
        help_text="of segment acc_eq and Kendall",
    )
    tie_calibration = forms.BooleanField(
        required=False,
        initial=DEFAULTS.tie_calibration,
        label="Calibrate ties",
        help_text="each metric's tie threshold ε (Deutsch et al. 2023)",
    )
    kendall_variant = forms.ChoiceField(
        choices=list(KENDALL_VARIANTS.items()),
        initial=DEFAULTS.kendall_variant,
        label="Kendall variant",
    )

    def clean(self):
        cleaned = super().clean()
        if not self.errors:
            try:
                cleaned["settings"] = chosen_settings(
                    **{name: cleaned[name] for name in SETTING_FIELDS}
                )
            except ScoringError as error:
                raise forms.ValidationError(str(error)) from None
        return cleaned


class OneTestSetForm(SettingsForm):
    """One test set alone, on one of its judged criteria."""

    criterion = forms.ChoiceField(choices=())

    def __init__(self, *args, test_set, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.test_set, self.user = test_set, user
        self.fields["criterion"].choices = [
            (name, name) for name in judged_criteria(test_set)
        ]

    def clean(self):
        cleaned = super().clean()
        if "settings" in cleaned and "criterion" in cleaned:
            try:
                cleaned["request"] = checked_request(
                    self.user,
                    [self.test_set.pk],
                    None,
                    cleaned["criterion"],
                    cleaned["settings"],
                )
            except RequestProblem as problem:
                raise forms.ValidationError(problem.message) from None
        return cleaned

    def request(self) -> MetaRequest:
        return self.cleaned_data["request"]


class AcrossForm(SettingsForm):
    """Several judged test sets of the user's teams, each with a weight
    (``weight_<id>``, default 1), and a criterion every one has."""

    test_sets = forms.MultipleChoiceField(
        choices=(), widget=forms.CheckboxSelectMultiple
    )
    criterion = forms.ChoiceField(choices=())

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        self.choices = list(judged_test_sets_of(user).select_related("team"))
        self.criteria = {ts.pk: judged_criteria(ts) for ts in self.choices}
        self.fields["test_sets"].choices = [(ts.pk, ts.name) for ts in self.choices]
        names = sorted({name for names in self.criteria.values() for name in names})
        self.fields["criterion"].choices = [(name, name) for name in names]
        for test_set in self.choices:
            self.fields[f"weight_{test_set.pk}"] = forms.FloatField(
                required=False,
                min_value=0.0,
                initial=1.0,
                label=f"weight of {test_set.name}",
            )

    def rows(self):
        """(test set, its judged criteria, its weight field) for the
        template's table of choices."""
        for test_set in self.choices:
            yield test_set, self.criteria[test_set.pk], self[f"weight_{test_set.pk}"]

    def clean(self):
        cleaned = super().clean()
        if "settings" not in cleaned or "test_sets" not in cleaned:
            return cleaned
        if "criterion" not in cleaned:
            return cleaned
        chosen = [int(pk) for pk in cleaned["test_sets"]]
        order = {ts.pk: i for i, ts in enumerate(self.choices)}
        chosen.sort(key=order.__getitem__)
        weights = []
        for pk in chosen:
            weight = cleaned.get(f"weight_{pk}")
            weights.append(1.0 if weight is None else weight)
        try:
            cleaned["request"] = checked_request(
                self.user, chosen, weights, cleaned["criterion"], cleaned["settings"]
            )
        except RequestProblem as problem:
            field = problem.field if problem.field in self.fields else None
            if problem.field == "weights":
                field = None
            self.add_error(field, problem.message)
        return cleaned

    def request(self) -> MetaRequest:
        return self.cleaned_data["request"]
