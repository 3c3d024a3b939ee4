"""``manage.py api_token USERNAME``: issue a new API token for the REST API (``docs/api.md``) and
print it once, on standard output; or list or revoke the user's tokens. Trusted and server-side:
it acts for any user. Tokens are stored as hashes (:mod:`scoring.participants.api_tokens`), so an
existing token can never be printed again.

- ``api_token USERNAME [--name NAME] [--days N]``: a new token (name ``manage.py api_token`` and
  30 days unless given; 1 to 365 days). Standard output has the token alone; its prefix and
  expiry go to standard error.
- ``--list``: the user's tokens, one a line: prefix, name, created, expires, last used.
- ``--revoke PREFIX``: delete the token starting with ``PREFIX`` (as ``--list`` shows it).
- ``--revoke-all``: delete every token of the user.
"""
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from scoring.participants import api_tokens

DEFAULT_NAME = "manage.py api_token"


def _when(value) -> str:
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M") if value else "-"


class Command(BaseCommand):
    help = "Issue a new API token for a user and print it once; or list or revoke the user's tokens."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--name", default=DEFAULT_NAME,
                            help=f"What the new token is for (default {DEFAULT_NAME!r}, at most "
                                 f"{api_tokens.NAME_LENGTH} characters).")
        parser.add_argument("--days", type=int, default=api_tokens.DEFAULT_DAYS,
                            help=f"Days the new token works (default {api_tokens.DEFAULT_DAYS}, "
                                 f"1 to {api_tokens.MAX_DAYS}).")
        action = parser.add_mutually_exclusive_group()
        action.add_argument("--list", action="store_true", help="List the user's tokens (never the tokens themselves).")
        action.add_argument("--revoke", metavar="PREFIX", help="Revoke the token starting with PREFIX (see --list).")
        action.add_argument("--revoke-all", action="store_true", help="Revoke every token of the user.")

    def handle(self, *args, **opts):
        User = get_user_model()
        username = opts["username"]
        user = User.objects.filter(**{User.USERNAME_FIELD: username}).first()
        if user is None:
            raise CommandError(f"No user {username!r}.")
        if opts["list"]:
            now = timezone.now()
            for token in api_tokens.tokens_of(user):
                state = " (expired)" if token.is_expired(now) else ""
                self.stdout.write(f"{token.token_key}  {token.name!r}  created {_when(token.created)}  "
                                  f"expires {_when(token.expiry)}{state}  last used {_when(token.last_used)}")
            return
        if opts["revoke"] is not None:
            prefix = opts["revoke"].rstrip("…").rstrip(".")
            if not api_tokens.revoke(user, prefix):
                raise CommandError(f"{username} has no token starting with {prefix!r} (see --list).")
            self.stderr.write(f"Token {prefix} of {username} revoked.")
            return
        if opts["revoke_all"]:
            self.stderr.write(f"{api_tokens.revoke_all(user)} token(s) of {username} revoked.")
            return
        try:
            issued = api_tokens.issue(user, opts["name"], opts["days"])
        except ValueError as exc:
            raise CommandError(str(exc)) from None
        except api_tokens.TooManyTokens as exc:
            raise CommandError(f"{username} already has {exc.limit} unexpired tokens: revoke one first (--list).") from None
        self.stdout.write(issued.key)
        self.stderr.write(f"Token {issued.token.token_key} ({issued.token.name}) of {username}, expires "
                          f"{_when(issued.token.expiry)}. It is shown only now.")
