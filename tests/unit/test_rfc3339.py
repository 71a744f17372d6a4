"""`service.clock.parse_rfc3339` (the `at` of GET .../replay): RFC 3339 §5.6 date-times with
an offset, and nothing else of ISO 8601."""
import pytest

from service.clock import parse_rfc3339

NOON = 1_796_126_400_000  # 2026-12-01T12:00:00Z in ms


@pytest.mark.parametrize("text, ms", [
    ("2026-12-01T12:00:00Z", NOON),
    ("2026-12-01t12:00:00.123456z", NOON + 123),        # lower case; a finer fraction cut
    ("2026-12-01 13:00:00+01:00", NOON),                 # §5.6's note: a space for the T
    ("2026-12-01T06:30:00.5-05:30", NOON + 500),
    ("2016-12-31T23:59:60Z", 1_483_228_800_000),         # a leap second: the next second
])
def test_an_rfc_3339_date_time_with_an_offset_is_ms_since_the_epoch(text, ms):
    assert parse_rfc3339(text) == ms


@pytest.mark.parametrize("text", [
    "2100-01-01T00:00:00.Z",        # a fraction needs a digit
    "20261201T120000Z",             # ISO 8601 basic format
    "2026-W48-2T12:00:00Z",         # a week date
    "2026-12-01T12Z", "2026-12-01T12:00Z",   # no seconds
    "2026-12-01T12:00:00",          # no offset
    "2026-12-01T12:00:00+0100",     # an offset without its colon
    "2026-02-30T12:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01T12:00:61Z",
    "\uff12\uff10\uff12\uff16-12-01T12:00:00Z",  # digits of another script
    "", None,
])
def test_anything_else_is_a_value_error(text):
    with pytest.raises(ValueError):
        parse_rfc3339(text)
