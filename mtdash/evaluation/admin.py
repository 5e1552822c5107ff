from django.contrib import admin

from mtdash.evaluation.models import ScoringJob, System, SystemOutput, TestSet


@admin.register(TestSet)
class TestSetAdmin(admin.ModelAdmin):
    list_display = ["name", "team", "source_language", "target_language", "created_at"]


@admin.register(System)
class SystemAdmin(admin.ModelAdmin):
    list_display = ["name", "team"]


@admin.register(SystemOutput)
class SystemOutputAdmin(admin.ModelAdmin):
    list_display = ["system", "test_set", "created_at"]


@admin.register(ScoringJob)
class ScoringJobAdmin(admin.ModelAdmin):
    list_display = ["id", "output", "status", "progress", "created_at"]
    list_filter = ["status"]
