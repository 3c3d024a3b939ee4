"""``manage.py api_token USERNAME [--new | --revoke]``: print the user's API token for the REST
API (``docs/api.md``), creating one when the user has none; ``--new`` replaces it (the old key
stops working at once); ``--revoke`` deletes it."""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from scoring.participants import api_tokens


class Command(BaseCommand):
    help = "Print (creating it if needed), replace or revoke a user's API token."

    def add_arguments(self, parser):
        parser.add_argument("username")
        action = parser.add_mutually_exclusive_group()
        action.add_argument("--new", action="store_true", help="Replace the token with a new one.")
        action.add_argument("--revoke", action="store_true", help="Delete the token.")

    def handle(self, *args, **opts):
        User = get_user_model()
        user = User.objects.filter(**{User.USERNAME_FIELD: opts["username"]}).first()
        if user is None:
            raise CommandError(f"No user {opts['username']!r}.")
        if opts["revoke"]:
            revoked = api_tokens.revoke(user)
            self.stderr.write(f"Token of {opts['username']} revoked." if revoked else f"{opts['username']} had no token.")
            return
        token = api_tokens.issue(user) if opts["new"] else api_tokens.ensure(user)[0]
        self.stdout.write(token.key)
