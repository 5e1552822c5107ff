"""The manage links of a leaderboard row
(``evaluation/manage_output_actions.html``, included by the leaderboard)."""

from django.template.loader import render_to_string
from django.urls import reverse


def test_a_rows_links_name_its_output_and_system(test_set):
    context = {"output_id": 7, "system_id": 5, "hidden": True, "test_set_id": 3}
    html = render_to_string("evaluation/manage_output_actions.html", context)
    assert f'href="{reverse("system_rename", args=[5])}?test_set=3"' in html
    assert f'href="{reverse("output_hide", args=[7])}"' in html
    assert f'href="{reverse("output_delete", args=[7])}"' in html
    assert ">Show<" in html
    without_system = {**context, "system_id": None, "hidden": False}
    html = render_to_string("evaluation/manage_output_actions.html", without_system)
    assert "/rename/" not in html and "Rename" not in html and ">Hide<" in html
