"""Snapshots are a cache keyed by the domain's code: pickles folded by other domain code (any
file of domain/, not only state.py) are never read back."""
from __future__ import annotations

from pathlib import Path

from domain import fold
from service import snapshots
from service.snapshots import DOMAIN_ROOT, RedisSnapshots, code_tag, domain_sources


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
