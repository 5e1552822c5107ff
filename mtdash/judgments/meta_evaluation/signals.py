"""Deleting a test set deletes the meta-evaluations that use it (alone or
pooled with others): their results read its scores and judgments. A
``pre_delete`` receiver, so it runs for a test set deleted on its own, with
its team, or in a queryset (Django sends the signal for each row when a
receiver listens)."""

from __future__ import annotations

from django.db.models.signals import pre_delete
from django.dispatch import receiver

from mtdash.evaluation.models import TestSet
from mtdash.judgments.models import MetaEvaluation


@receiver(pre_delete, sender=TestSet)
def delete_meta_evaluations(sender, instance: TestSet, **kwargs) -> None:
    MetaEvaluation.objects.filter(test_sets=instance).delete()
