from django.contrib import admin

from mtdash.orange.models import (
    NBestList,
    OrangeChunk,
    OrangeJob,
    OrangeReview,
    OrangeScore,
)


@admin.register(NBestList)
class NBestListAdmin(admin.ModelAdmin):
    list_display = ["name", "test_set", "n_sentences", "max_candidates", "created_at"]


class OrangeChunkInline(admin.TabularInline):
    model = OrangeChunk
    extra = 0
    can_delete = False
    fields = [
        "index",
        "first",
        "stop",
        "status",
        "attempts",
        "claimed_by",
        "error_message",
    ]
    readonly_fields = fields


@admin.register(OrangeJob)
class OrangeJobAdmin(admin.ModelAdmin):
    list_display = ["id", "nbest", "status", "progress", "n_chunks", "created_at"]
    list_filter = ["status"]
    inlines = [OrangeChunkInline]


@admin.register(OrangeScore)
class OrangeScoreAdmin(admin.ModelAdmin):
    list_display = [
        "metric", "job", "orange", "avg_rank", "n_sentences", "best", "equivalent",
    ]  # fmt: skip
    exclude = ["above_reference"]


@admin.register(OrangeReview)
class OrangeReviewAdmin(admin.ModelAdmin):
    list_display = ["id", "job", "metric", "size", "population", "seed", "created_at"]
    readonly_fields = ["job", "metric", "size", "population", "seed", "created_by"]
