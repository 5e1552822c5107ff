"""Forms of the manage pages: a new name, hide or show, and the typed name
that confirms deleting a test set."""

from __future__ import annotations

from django import forms

from mtdash.evaluation.models import System, TestSet


def name_taken_message(noun: str, name: str) -> str:
    return f"Your team already has a {noun} named “{name}”; choose another name."


class RenameForm(forms.Form):
    """A new name for a system or a test set, unique within its team."""

    name = forms.CharField(label="New name", max_length=200)

    def __init__(self, *args, instance: System | TestSet, noun: str, **kwargs):
        super().__init__(*args, initial={"name": instance.name}, **kwargs)
        self.instance = instance
        self.noun = noun
        self.fields["name"].help_text = f"Unique within the team {instance.team}."

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        others = (
            type(self.instance)
            .objects.filter(team_id=self.instance.team_id, name=name)
            .exclude(pk=self.instance.pk)
        )
        if others.exists():
            raise forms.ValidationError(
                name_taken_message(self.noun, name), code="name_taken"
            )
        return name


class VisibilityForm(forms.Form):
    """``hidden=1`` hides, ``hidden=0`` shows: a stated wish rather than a
    toggle, so a form sent twice leaves the same state."""

    hidden = forms.TypedChoiceField(
        choices=[("1", "hide"), ("0", "show")], coerce=lambda value: value == "1"
    )


class ConfirmNameForm(forms.Form):
    """Deleting a test set takes typing its name (GitHub's way of making
    sure the right one goes)."""

    name = forms.CharField(max_length=200)

    def __init__(self, *args, expected: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.expected = expected
        self.fields["name"].label = "Type the test set’s name to confirm"

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if name != self.expected:
            raise forms.ValidationError(
                "That is not this test set’s name; nothing was deleted.",
                code="name_mismatch",
            )
        return name
