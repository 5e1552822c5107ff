"""Uploading a training corpus's word counts for a test set: form and view."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from mtdash.evaluation import access
from mtdash.evaluation.systems.word_counts import (
    MAX_BYTES,
    read_word_counts,
    save_word_counts,
)


class WordCountsForm(forms.Form):
    name = forms.CharField(
        max_length=200,
        required=False,
        help_text="e.g. WMT21 de-en training data; default: the file's name",
    )
    counts_file = forms.FileField(
        label="Word counts file",
        help_text=f"one word<TAB>count per line, UTF-8, at most "
        f"{MAX_BYTES // (1024 * 1024)} MB; words tokenised like the test set",
    )

    def clean(self):
        cleaned = super().clean()
        upload = cleaned.get("counts_file")
        if upload is None:
            return cleaned
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                f"{upload.name} is {upload.size / 1024 / 1024:.1f} MB; "
                f"the limit is {MAX_BYTES // (1024 * 1024)} MB"
            )
        parsed = read_word_counts(upload.read(), upload.name)
        if parsed.errors:
            raise forms.ValidationError(list(parsed.errors))
        cleaned["counts"] = parsed.counts
        cleaned["name"] = cleaned.get("name") or upload.name
        return cleaned


@login_required
@require_http_methods(["GET", "POST"])
def word_counts_new(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    bound = (request.POST, request.FILES) if request.method == "POST" else ()
    form = WordCountsForm(*bound)
    if request.method == "POST" and form.is_valid():
        stored = save_word_counts(
            test_set,
            request.user,
            form.cleaned_data["name"],
            form.cleaned_data["counts"],
        )
        messages.success(
            request,
            f"Read {len(stored.counts)} word counts; the system pages' word "
            "frequency buckets are being recomputed with them.",
        )
        return redirect("word_counts_new", pk=test_set.pk)
    context = {
        "form": form,
        "test_set": test_set,
        "uploaded": test_set.word_counts.defer("counts"),
        "outputs": test_set.outputs.select_related("system").order_by("system__name"),
    }
    return render(request, "evaluation/word_counts_new.html", context)
