from django.core.management import call_command

from mtdash.demo.corpus import demo_test_set
from mtdash.demo.systems import demo_systems
from mtdash.evaluation.leaderboard.build import build_leaderboard
from mtdash.evaluation.models import TestSet


def test_the_demo_leaderboard_ranks_systems_in_their_intended_order(db, client):
    call_command("load_demo", "--score-now")
    test_set = TestSet.objects.get()
    leaderboard = build_leaderboard(test_set)
    intended = [
        s.name
        for s in sorted(demo_systems(demo_test_set()), key=lambda s: s.intended_rank)
    ]
    assert test_set.segments.count() >= 40
    assert test_set.reference_sets.count() == 4
    assert len(intended) >= 6
    assert [row.system for row in leaderboard.rows] == intended
    assert client.login(username="demo", password="mtdash-demo")


def test_loading_the_demo_twice_changes_nothing(db):
    call_command("load_demo", "--score-now")
    call_command("load_demo", "--score-now")
    assert TestSet.objects.count() == 1
