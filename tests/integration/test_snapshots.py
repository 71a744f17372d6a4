"""Snapshots are a cache keyed by the domain's code: pickles folded by other domain code (any
file of domain/, not only state.py) are never read back."""
from __future__ import annotations

from pathlib import Path

from domain import fold
from service import snapshots
from service.snapshots import (DOMAIN_ROOT, MemorySnapshots, RedisSnapshots, Snapshots, code_tag,
                               domain_sources)


def test_the_code_tag_covers_every_domain_source_file():
    names = {path.relative_to(DOMAIN_ROOT).as_posix() for path in domain_sources()}
    assert {"state.py", "fold.py", "melds.py", "profile/options.py", "deal.py"} <= names
    assert names == {path.relative_to(DOMAIN_ROOT).as_posix() for path in DOMAIN_ROOT.rglob("*.py")}
    assert any(name.startswith("bots/") for name in names)
    assert snapshots.CODE_TAG == code_tag()


def test_the_code_tag_changes_when_any_domain_source_changes():
    sources = domain_sources()
    original = code_tag(sources)
    for changed in sources:
        def read(path: Path, changed=changed) -> bytes:
            body = path.read_bytes()
            return body + b"\n# edited\n" if path == changed else body
        assert code_tag(sources, read=read) != original, changed
    assert code_tag(sources) == original  # the same bytes, the same tag


def test_a_new_domain_file_changes_the_code_tag(tmp_path):
    (tmp_path / "state.py").write_text("x = 1\n")
    before = code_tag(root=tmp_path)
    (tmp_path / "positions.py").write_text("y = 2\n")
    assert code_tag(root=tmp_path) != before


def test_a_snapshot_of_other_domain_code_is_not_loaded(redis_client):
    state = fold([])
    old = RedisSnapshots(redis_client, every=1, tag="oldcode00000")
    old.save("g1", 5, state, folded=5)
    assert old.load("g1") is not None
    assert RedisSnapshots(redis_client, every=1, tag="newcode00000").load("g1") is None


def test_a_cached_state_far_behind_the_expected_version_gives_way_to_a_stored_one(
        redis_client):
    """A worker's cached state of a game the other worker played since is hundreds of events
    behind: with the version it expects (`near`), the loader starts from the newer stored
    snapshot instead, so it folds fewer than `every` events."""
    memory = MemorySnapshots()
    stored = RedisSnapshots(redis_client, every=100, tag="neartest0000")
    layers = Snapshots(memory, stored)
    memory.save("g2", 10, fold([]), folded=10)
    stored.save("g2", 200, fold([]), folded=200)
    assert layers.load("g2")[0] == 10  # no hint: the cache answers alone
    assert layers.load("g2", near=105)[0] == 10  # behind by less than the spacing
    assert layers.load("g2", near=260)[0] == 200
    assert layers.load("g2", upto=150, near=260)[0] == 10  # nothing stored at or before 150
    assert Snapshots(MemorySnapshots(), stored).load("g3", near=50) is None
