"""Deleting a row deletes its files (also when a test set or job cascades)."""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_delete
from django.dispatch import receiver

from mtdash.orange.jobs.artifacts import remove_artifact
from mtdash.orange.models import NBestList, OrangeJob


@receiver(post_delete, sender=NBestList)
def remove_nbest_artifact(sender, instance: NBestList, **kwargs) -> None:
    transaction.on_commit(lambda: remove_artifact(instance.artifact))


@receiver(post_delete, sender=OrangeJob)
def remove_job_artifacts(sender, instance: OrangeJob, **kwargs) -> None:
    transaction.on_commit(lambda: remove_artifact(instance.artifact))
