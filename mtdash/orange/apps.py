from django.apps import AppConfig


class OrangeConfig(AppConfig):
    name = "mtdash.orange"
    verbose_name = "ORANGE"

    def ready(self) -> None:
        from mtdash.common import registry
        from mtdash.orange import signals  # noqa: F401  (connects the receivers)
        from mtdash.orange.models import NBestList

        # A test set's deletion page counts its n-best lists (mtdash.common.registry).
        registry.register_deletion_count(
            registry.DeletionCount(
                "n-best list",
                of_test_set=lambda test_set: NBestList.objects.filter(
                    test_set=test_set
                ).count(),
            )
        )
