"""Worked example of the NSKT tournaments REST API (docs/api.md): read the standings of a Tai Pan
tournament, then enter one hand at the first unfinished table of its latest round with an API
token. Standard library only (urllib).

    python docs/examples/api_example.py --base http://127.0.0.1:8000 --tournament nskt-demo --token KEY

The token is a referee's or organiser's (account page "API token", or ``manage.py api_token
USERNAME``); it may also come from the environment variable NSKT_API_TOKEN. Exit status 0 when
the hand was entered, 1 when the API refused it (the errors are printed).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import urllib.error
import urllib.request

#: The hand to enter: no calls, N out first, card points NS 75 / EW 25 (the engine's `score` input).
HAND = {"calls": {}, "first_out": "N", "double_victory": None, "card_points": {"NS": 75, "EW": 25}}


class ApiError(Exception):
    def __init__(self, status: int, body: dict):
        self.status, self.body = status, body
        super().__init__(f"{status}: {body}")


def call(base: str, method: str, path: str, *, token: str | None = None, body: dict | None = None) -> dict:
    """One API request to ``path`` (under ``base``, or a full URL the API gave); the decoded JSON
    answer, or :class:`ApiError` for a 4xx/5xx answer."""
    headers = {"Accept": "application/json", "Accept-Language": "en"}
    data = None
    if body is not None:
        data = json.dumps(body).encode("utf-8")
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Token {token}"
    url = path if path.startswith(("http://", "https://")) else base.rstrip("/") + path
    request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as err:
        raw = err.read().decode("utf-8", "replace")
        try:
            body = json.loads(raw)
        except ValueError:  # not the API answering (a proxy, a wrong address)
            body = {"code": "http_error", "errors": [{"field": "", "message": raw[:200] or err.reason}]}
        raise ApiError(err.code, body) from None


def print_standings(base: str, slug: str) -> None:
    """The standings: rank, team, match points and the tournament's tie-break values."""
    standings = call(base, "GET", f"/api/v1/tournaments/{slug}/standings")
    keys = [tb["key"] for tb in standings["tiebreaks"]]
    print("Rank  Team                      MP  " + "  ".join(keys))
    for row in standings["rows"]:
        values = "  ".join(str(row["tiebreaks"][k]) for k in keys)
        print(f"{row['rank']:>4}  {row['name']:<24} {row['match_points']:>3}  {values}")


def open_match(base: str, slug: str) -> dict | None:
    """The first pending or playing match of the tournament's latest round, or ``None``."""
    tournament = call(base, "GET", f"/api/v1/tournaments/{slug}")
    if not tournament["rounds"]:
        return None
    latest = tournament["rounds"][-1]
    round_ = call(base, "GET", f"/api/v1/tournaments/{slug}/rounds/{latest['number']}")
    for table in round_["tables"]:
        if table["status"] in ("pending", "playing") and not table["bye"]:
            return table
    return None


def enter_hand(base: str, token: str, match: dict, hand: dict) -> dict:
    """Enter ``hand`` with the version read; when someone changed the match in between (409
    ``stale_version``), read it again and retry once."""
    for attempt in range(2):
        try:
            return call(base, "POST", match["url"] + "/records", token=token,
                        body={"version": match["version"], "record": hand})
        except ApiError as err:
            if err.status == 409 and err.body.get("code") == "stale_version" and attempt == 0:
                match = call(base, "GET", match["url"])
                continue
            raise
    raise AssertionError("unreachable")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="http://127.0.0.1:8000", help="the site's address")
    parser.add_argument("--tournament", default="nskt-demo", help="the tournament's slug")
    parser.add_argument("--token", default=os.environ.get("NSKT_API_TOKEN"), help="an API token (or NSKT_API_TOKEN)")
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("an API token is needed to enter a hand (--token or NSKT_API_TOKEN)")

    print_standings(args.base, args.tournament)
    match = open_match(args.base, args.tournament)
    if match is None:
        print("No unfinished match in the latest round.")
        return 0
    ns, ew = (side["name"] for side in match["sides"])
    print(f"\nTable {match['number']}: {ns} - {ew}, totals {match['totals'][0]} : {match['totals'][1]}")
    try:
        result = enter_hand(args.base, args.token, match, HAND)
    except ApiError as err:
        print(f"Refused ({err.status} {err.body.get('code')}):")
        for e in err.body.get("errors", []):
            print(f"  {e['field'] or '(request)'}: {e['message']}")
        return 1
    hand = result["records"][-1]
    print(f"Hand {hand['number']} entered: {hand['scores'][0]} : {hand['scores'][1]}; "
          f"totals now {result['totals'][0]} : {result['totals'][1]} (version {result['version']}, {result['status']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
