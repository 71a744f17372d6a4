"""The webhook retry schedule (service.webhooks.BACKOFF_S): exponential, for up to 24 h."""
from service.webhooks import BACKOFF_S, backoff_schedule, job_id


def test_retries_double_from_one_second_cap_at_three_hours_and_stop_within_a_day():
    assert BACKOFF_S[:5] == [1, 2, 4, 8, 16]
    assert all(b == min(2 * a, 3 * 3600) for a, b in zip(BACKOFF_S, BACKOFF_S[1:]))
    assert 22 * 3600 <= sum(BACKOFF_S) <= 24 * 3600
    assert backoff_schedule(first_s=1, cap_s=4, total_s=12) == [1, 2, 4, 4]


def test_a_delivery_job_id_holds_only_what_rq_allows():
    assert job_id("msg_ab12_57_seat.awaited_2.server") == "hook-msg_ab12_57_seat-awaited_2-server"
