"""The library example of README.md runs as written and plays a whole game (R2.1, R9.4)."""
import contextlib
import io
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_readme_library_example_plays_a_game_to_its_winners():
    block = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(block, "README.md", "exec"), namespace)
    state = namespace["state"]
    assert state.status == "finished"
    assert len(state.totals) == 4 and state.winners
    assert min(state.totals) == state.totals[state.winners[0]]
