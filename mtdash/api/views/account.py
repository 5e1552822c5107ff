"""The account page where a person creates, sees (prefix only) and revokes
their API tokens."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from mtdash.api.models import ApiToken


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        required=False,
        help_text="What the token is for, e.g. “nightly evaluation script”.",
    )


@login_required
@require_http_methods(["GET", "POST"])
def tokens(request):
    """The list; a POST creates a token and shows its key on this answer only."""
    form = TokenForm(request.POST if request.method == "POST" else None)
    new_key = None
    if request.method == "POST" and form.is_valid():
        _, new_key = ApiToken.issue(request.user, form.cleaned_data["name"].strip())
        form = TokenForm()
    context = {
        "form": form,
        "tokens": ApiToken.objects.filter(user=request.user),
        "new_key": new_key,
    }
    response = render(request, "account/tokens.html", context)
    response["Cache-Control"] = "no-store"  # the key must not stay in a cache
    return response


@login_required
@require_http_methods(["GET", "POST"])
def token_revoke(request, pk: int):
    """GET asks for confirmation; POST revokes (only the user's own tokens)."""
    token = get_object_or_404(ApiToken.objects.filter(user=request.user), pk=pk)
    if request.method == "POST":
        if token.revoke():
            messages.success(request, f"Token {token.prefix}… revoked.")
        return redirect("api_tokens")
    return render(request, "account/token_revoke.html", {"token": token})
