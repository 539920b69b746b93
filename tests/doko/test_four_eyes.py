"""The four-eyes rule of every step that needs a second person (doko/four_eyes.py): the laws
over any record, then the cases the steps turn on."""

from hypothesis import given
from hypothesis import strategies as st

from doko.four_eyes import (
    DISQUALIFYING,
    Account,
    Deed,
    Done,
    Player,
    Step,
    disqualifying,
    person,
    settle_pair,
    two_players,
)

identities = st.one_of(st.builds(Account, st.integers(1, 6)), st.builds(Player, st.integers(1, 6)))
links = st.lists(st.tuples(identities, identities), max_size=6)
records = st.lists(st.builds(Done, st.sampled_from(Deed), identities), max_size=10)
actors = st.sets(identities, min_size=1, max_size=3)


@given(step=st.sampled_from(Step), record=records, actor=actors, same=links)
def test_a_step_is_refused_exactly_for_its_deeds_done_by_the_actor_under_any_identity(
    step, record, actor, same
):
    who = person(actor, same)
    expected = {d.deed for d in record if d.by in who and d.deed in DISQUALIFYING[step]}
    assert set(disqualifying(step=step, record=record, actor=actor, same=same)) == expected


@given(step=st.sampled_from(Step), record=records, more=records, actor=actors, same=links)
def test_more_on_the_record_never_lets_a_refused_actor_through(step, record, more, actor, same):
    before = disqualifying(step=step, record=record, actor=actor, same=same)
    after = disqualifying(step=step, record=record + more, actor=actor, same=same)
    assert set(before) <= set(after)


@given(ids=actors, same=links)
def test_a_person_is_the_same_whichever_of_his_identities_one_starts_from(ids, same):
    found = person(ids, same)
    assert ids <= found
    for identity in found:
        assert person({identity}, same) <= found
    assert person(found, same) == found


@given(one=identities, other=identities, same=links)
def test_links_go_both_ways(one, other, same):
    assert other in person({one}, [*same, (one, other)])
    assert one in person({other}, [*same, (one, other)])


def test_who_typed_a_sheet_through_his_account_does_not_confirm_it_through_his_own_seat():
    record = [Done(Deed.TYPED, Account(1)), Done(Deed.HANDED_IN, Account(1))]
    same = [(Account(1), Player(10))]
    assert disqualifying(step=Step.CONFIRM, record=record, actor={Player(10)}, same=same) == [
        Deed.TYPED,
        Deed.HANDED_IN,
    ]
    # Another player of the table, and another account, confirm.
    assert disqualifying(step=Step.CONFIRM, record=record, actor={Player(11)}, same=same) == []
    assert disqualifying(step=Step.CONFIRM, record=record, actor={Account(2)}, same=same) == []


def test_reading_the_blind_first_entry_costs_the_second_entry_and_nothing_else():
    record = [Done(Deed.TYPED, Account(1)), Done(Deed.READ, Account(2))]
    assert disqualifying(step=Step.SECOND_ENTRY, record=record, actor={Account(2)}) == [Deed.READ]
    assert disqualifying(step=Step.CONFIRM, record=record, actor={Account(2)}) == []
    assert disqualifying(step=Step.SETTLE, record=record, actor={Account(2)}) == []


def test_a_role_taken_away_still_counts_for_the_admission():
    record = [Done(Deed.HELD_ROLE, Account(3)), Done(Deed.ASKED, Account(4))]
    assert disqualifying(step=Step.ADMIT, record=record, actor={Account(3)}) == [Deed.HELD_ROLE]
    assert disqualifying(step=Step.ADMIT, record=record, actor={Account(4)}) == [Deed.ASKED]
    assert disqualifying(step=Step.ADMIT, record=record, actor={Account(5)}) == []


def test_an_account_playing_at_one_seat_with_another_seats_key_is_two_players():
    table = [Player(10), Player(11), Player(12), Player(13)]
    same = [(Account(1), Player(10))]
    assert two_players(actor={Player(12), Account(1)}, players=table, same=same) == [
        Player(10),
        Player(12),
    ]
    # His own seat's key, or an account that does not play here: one player at most.
    assert two_players(actor={Player(10), Account(1)}, players=table, same=same) == []
    assert two_players(actor={Player(12), Account(2)}, players=table, same=same) == []


@given(actor=actors, same=links)
def test_one_identity_alone_is_never_two_players_unless_linked_to_another(actor, same):
    players = [Player(n) for n in range(1, 7)]
    found = two_players(actor=actor, players=players, same=same)
    assert not found or len({i for i in person(actor, same) if isinstance(i, Player)}) > 1


def test_both_typists_settle_together_whoever_proposes():
    record = [
        Done(Deed.TYPED, Account(1)),
        Done(Deed.HANDED_IN, Account(1)),
        Done(Deed.TYPED_SECOND, Account(2)),
    ]
    assert settle_pair(proposer={Account(1)}, agreeing={Account(2)}, record=record)
    assert settle_pair(proposer={Account(2)}, agreeing={Account(1)}, record=record)
    # One typist twice, or a typist and somebody who typed nothing, is no pair.
    assert not settle_pair(proposer={Account(1)}, agreeing={Account(1)}, record=record)
    assert not settle_pair(proposer={Account(1)}, agreeing={Account(3)}, record=record)
    # The same person behind two identities is one person.
    same = [(Account(2), Player(5)), (Account(1), Player(5))]
    assert not settle_pair(proposer={Account(1)}, agreeing={Account(2)}, record=record, same=same)


def test_a_typist_who_plays_at_the_table_settles_with_nobody():
    record = [
        Done(Deed.TYPED, Account(1)),
        Done(Deed.TYPED_SECOND, Account(2)),
        Done(Deed.PLAYED, Player(7)),
    ]
    same = [(Account(2), Player(7))]
    assert not settle_pair(proposer={Account(1)}, agreeing={Account(2)}, record=record, same=same)


@given(record=records, one=actors, other=actors, same=links)
def test_settling_as_a_pair_does_not_depend_on_who_proposes(record, one, other, same):
    assert settle_pair(proposer=one, agreeing=other, record=record, same=same) == settle_pair(
        proposer=other, agreeing=one, record=record, same=same
    )
