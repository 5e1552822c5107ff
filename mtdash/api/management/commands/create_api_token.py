"""``python manage.py create_api_token USERNAME [--name N]``: prints the new
key on stdout and nothing else, so a script can capture it."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from mtdash.api.models import ApiToken


class Command(BaseCommand):
    help = "Create an API token for USERNAME and print its key (shown only once)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--name", default="", help="a label, e.g. the script")

    def handle(self, *args, username: str, name: str, **options):
        User = get_user_model()
        try:
            user = User.objects.get(**{User.USERNAME_FIELD: username})
        except User.DoesNotExist:
            raise CommandError(f"no user named {username!r}") from None
        if len(name) > ApiToken._meta.get_field("name").max_length:
            raise CommandError("--name: at most 100 characters")
        _, key = ApiToken.issue(user, name)
        self.stdout.write(key)
