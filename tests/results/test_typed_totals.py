"""Totals typed to confirm or dispute a result are whole numbers written with the ASCII digits
(issue 12: strict digits): other scripts' digits, fractions, exponents and booleans are refused
by the confirmation forms and by the result sheet (the API passes JSON values straight to it)."""
import pytest

from scoring.errors import ServiceError
from scoring.results.sheet import parse_totals
from scoring.web.forms.results import ConfirmForm, DisputeForm


@pytest.mark.parametrize("typed, expected", [
    ([950, -150], [950, -150]), (["950", "-150"], [950, -150]), ({"NS": " 800 ", "EW": "0"}, [800, 0]),
])
def test_ascii_whole_numbers_are_read(typed, expected):
    assert parse_totals(typed, 2) == expected


@pytest.mark.parametrize("typed", [
    ["٩٥٠", "١٥٠"], ["９５０", "150"], [800.5, 0], [8e2, 0], ["1e3", "0"], [True, 0], ["8 00", "0"], ["", "0"],
    [10**7, 0], "950,150", [950], [950, 150, 0], {"NS": 1}, None,
])
def test_anything_else_is_refused_on_totals(typed):
    with pytest.raises(ServiceError) as refused:
        parse_totals(typed, 2)
    assert refused.value.field == "totals"


@pytest.mark.parametrize("form_class, prefix", [(ConfirmForm, ""), (DisputeForm, "dispute-")])
def test_the_forms_take_ascii_digits_only(form_class, prefix):
    kwargs = {"labels": ["NS", "EW"], **({"blind": True} if form_class is ConfirmForm else {})}
    good = form_class({f"{prefix}total_0": "-150", f"{prefix}total_1": "950"}, **kwargs)
    assert good.is_valid(), good.errors
    assert good.totals() == [-150, 950]
    for bad in ("٩٥٠", "９５０", "95.0", "1e3"):
        form = form_class({f"{prefix}total_0": bad, f"{prefix}total_1": "950"}, **kwargs)
        assert not form.is_valid() and "total_0" in form.errors, bad
