"""Rename, hide, delete and fill in: a GET shows what would change (with
counts) and changes nothing; the POST of that page does it. Team members
only: anything of another team is a 404."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from mtdash.evaluation import access
from mtdash.evaluation.manage import actions as manage
from mtdash.evaluation.manage.forms import (
    ConfirmNameForm,
    RenameForm,
    VisibilityForm,
    name_taken_message,
)
from mtdash.evaluation.models import System, SystemOutput, TestSet

GET_POST = require_http_methods(["GET", "POST"])


def _posted(request) -> tuple:
    return (request.POST,) if request.method == "POST" else ()


def _output_of(user, pk: int) -> SystemOutput:
    outputs = SystemOutput.objects.filter(test_set__in=access.test_sets_of(user))
    return get_object_or_404(outputs.select_related("system", "test_set"), pk=pk)


def _system_of(user, pk: int) -> System:
    systems = System.objects.filter(team__in=access.teams_of(user))
    return get_object_or_404(systems, pk=pk)


def _origin(request, system: System) -> TestSet | None:
    """The test set page a system page was opened from (``test_set=<id>``
    in the query or form), else one where the system has an output."""
    test_sets = access.test_sets_of(request.user).filter(outputs__system=system)
    wanted = request.POST.get("test_set") or request.GET.get("test_set") or ""
    chosen = None
    if wanted.isascii() and wanted.isdigit() and len(wanted) < 10:
        chosen = test_sets.filter(pk=int(wanted)).first()
    return chosen or test_sets.first()


def _back(test_set: TestSet | None):
    return redirect(test_set if test_set is not None else "home")


def _rename(request, instance, noun: str, rename, back_to, context: dict):
    form = RenameForm(*_posted(request), instance=instance, noun=noun)
    if request.method == "POST" and form.is_valid():
        old, new = instance.name, form.cleaned_data["name"]
        try:
            rename(instance, new)
        except manage.NameTaken:  # taken between the check and the update
            form.add_error("name", name_taken_message(noun, new))
        else:
            messages.success(request, f"Renamed {noun} “{old}” to “{new}”.")
            return _back(back_to)
    context = {"form": form, "noun": noun, "instance": instance, **context}
    return render(request, "evaluation/manage_rename.html", context)


@login_required
@GET_POST
def system_rename(request, pk: int):
    system = _system_of(request.user, pk)
    origin = _origin(request, system)
    test_sets = access.test_sets_of(request.user).filter(outputs__system=system)
    context = {"test_set": origin, "n_test_sets": test_sets.count()}
    return _rename(request, system, "system", manage.rename_system, origin, context)


@login_required
@GET_POST
def test_set_rename(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    context = {"test_set": test_set}
    rename = manage.rename_test_set
    return _rename(request, test_set, "test set", rename, test_set, context)


def _wanted_hidden(request) -> bool | None:
    """``hidden=1`` (hide) or ``hidden=0`` (show) of the POST; None if neither."""
    form = VisibilityForm(request.POST)
    return form.cleaned_data["hidden"] if form.is_valid() else None


BAD_HIDDEN = "hidden must be 0 (show) or 1 (hide)"


@login_required
@GET_POST
def output_hide(request, pk: int):
    output = _output_of(request.user, pk)
    if request.method == "GET":
        context = {"kind": "output", "output": output, "test_set": output.test_set}
        return render(request, "evaluation/manage_hide.html", context)
    hidden = _wanted_hidden(request)
    if hidden is None:
        return HttpResponseBadRequest(BAD_HIDDEN)
    changed = manage.set_output_hidden(output, hidden)
    where = f"“{output.system.name}” on the leaderboard of “{output.test_set.name}”"
    state = "hidden" if hidden else "shown"
    if changed:
        messages.success(
            request, f"{where} is {state} now; its statistics are being recomputed."
        )
    else:
        messages.info(request, f"{where} was already {state}.")
    return redirect(output.test_set)


@login_required
@GET_POST
def test_set_hide(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    if request.method == "GET":
        context = {"kind": "test set", "test_set": test_set}
        return render(request, "evaluation/manage_hide.html", context)
    hidden = _wanted_hidden(request)
    if hidden is None:
        return HttpResponseBadRequest(BAD_HIDDEN)
    changed = manage.set_test_set_hidden(test_set, hidden)
    state = "left out of" if hidden else "back in"
    already = "" if changed else " (it already was)"
    messages.success(
        request, f"Test set “{test_set.name}” is {state} the test set list{already}."
    )
    return redirect(test_set)


@login_required
@GET_POST
def output_delete(request, pk: int):
    output = _output_of(request.user, pk)
    if request.method == "POST":
        summary = manage.delete_output(output)
        messages.success(
            request, f"Deleted the output of “{output.system.name}”: {summary}."
        )
        return redirect(output.test_set)
    chosen = SystemOutput.objects.filter(pk=output.pk)
    context = {
        "kind": "output",
        "output": output,
        "test_set": output.test_set,
        "summary": manage.summarise_outputs_deletion(chosen),
    }
    return render(request, "evaluation/manage_delete.html", context)


@login_required
@GET_POST
def system_delete(request, pk: int):
    system = _system_of(request.user, pk)
    origin = _origin(request, system)
    if request.method == "POST":
        summary = manage.delete_system(system)
        messages.success(request, f"Deleted system “{system.name}”: {summary}.")
        return _back(origin)
    outputs = SystemOutput.objects.filter(system=system)
    context = {
        "kind": "system",
        "system": system,
        "test_set": origin,
        "summary": manage.summarise_outputs_deletion(outputs),
        "test_sets": outputs.select_related("test_set").order_by("test_set__name"),
    }
    return render(request, "evaluation/manage_delete.html", context)


@login_required
@GET_POST
def test_set_delete(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    form = ConfirmNameForm(*_posted(request), expected=test_set.name)
    if request.method == "POST" and form.is_valid():
        summary = manage.delete_test_set(test_set)
        messages.success(request, f"Deleted test set “{test_set.name}”: {summary}.")
        return redirect("home")
    context = {
        "kind": "test set",
        "test_set": test_set,
        "form": form,
        "summary": manage.summarise_test_set_deletion(test_set),
    }
    return render(request, "evaluation/manage_delete.html", context)


@login_required
@GET_POST
def test_set_fill_missing(request, pk: int):
    test_set = access.get_test_set(request.user, pk)
    if request.method == "POST":
        jobs = manage.fill_in_missing_metrics(test_set, request.user)
        if jobs:
            n = len(jobs)
            messages.success(request, f"Queued {n} scoring job{'s' if n != 1 else ''}.")
        else:
            messages.info(request, "Nothing to fill in: no metric is missing.")
        return redirect(test_set)
    context = {"test_set": test_set, "plan": manage.fill_in_plan(test_set)}
    return render(request, "evaluation/manage_fill_missing.html", context)
