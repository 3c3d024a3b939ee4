"""Round formats per game (issue 24 item 4): two new formats (``wind_rounds``, ``time_limit``), and
every tournament whose format its game cannot reach moves to a reachable one. Before this, a
four-player tournament defaulted to ``target``, which its game never reaches (its tables only ended
at the time limit): it moves to ``time_limit``, which ends its tables exactly as before, so no
result changes. Backwards: ``time_limit`` and ``wind_rounds`` go back to ``target``."""
from django.db import migrations, models

#: The formats this migration adds (gone when it is reversed).
NEW_FORMATS = ("wind_rounds", "time_limit")


def reachable_formats(apps, schema_editor):
    """Each tournament whose game does not offer its ``round_format`` (the games registry's
    ``round_formats``; an unknown game is left alone) gets ``time_limit`` when the game offers it,
    else the game's default format (with its default count when it has none)."""
    from scoring.games import registry

    Tournament = apps.get_model("scoring", "Tournament")
    for tournament in Tournament.objects.only("pk", "game", "round_format", "hands_per_round"):
        try:
            adapter = registry.get(tournament.game)
        except registry.UnknownGame:
            continue
        if tournament.round_format in adapter.round_formats:
            continue
        fmt = adapter.fallback_round_format()
        count = tournament.hands_per_round or adapter.default_round_count(fmt)
        Tournament.objects.filter(pk=tournament.pk).update(round_format=fmt, hands_per_round=count)


def back_to_target(apps, schema_editor):
    apps.get_model("scoring", "Tournament").objects.filter(round_format__in=NEW_FORMATS).update(round_format="target")


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0013_checkin'),
    ]

    operations = [
        migrations.AlterField(
            model_name='tournament',
            name='hands_per_round',
            field=models.PositiveSmallIntegerField(blank=True, help_text='The count of the round format: hands (deals) per round, or wind rounds per round.', null=True, verbose_name='hands per round'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='round_format',
            field=models.CharField(choices=[('target', 'Play to the target score'), ('fixed_hands', 'Fixed number of hands'), ('wind_rounds', 'Fixed number of wind rounds'), ('time_limit', 'Until the time limit')], default='target', max_length=20, verbose_name='round format'),
        ),
        migrations.RunPython(reachable_formats, back_to_target),
    ]
