"""``azulcam serve``'s refusals: each a one-line error and exit 1, before anything is served."""

from __future__ import annotations


import pytest

from support.cli import assert_one_line_error, run


@pytest.mark.parametrize("argv, message", [
    (["serve"], "serve needs --demo, or --source"),
    (["serve", "--demo", "--source", "0"], "serve needs --demo, or --source"),
    (["serve", "--source", "/no/such/video.mp4"], "no camera, stream, video or folder"),
    (["serve", "--demo", "--token", "short"], "--token must be at least 8"),
    (["serve", "--demo", "--host", "0.0.0.0"], "--host 0.0.0.0 lets other machines in: give --token"),
    (["serve", "--source", "/no/such/video.mp4", "--profile", "/no/such/profile.json"], "cannot read profile"),
])
def test_serve_refuses_what_it_cannot_do(argv, message, capsys):
    code, _, err = run(argv, capsys)
    assert code == 1 and message in assert_one_line_error(err)


def test_serve_names_a_damaged_history_and_keeps_it(tmp_path, capsys):
    (tmp_path / "history.sqlite").write_bytes(b"not a database" * 100)
    code, _, err = run(["serve", "--demo", "--data", str(tmp_path)], capsys)
    assert code == 1 and str(tmp_path / "history.sqlite") in assert_one_line_error(err)
    assert (tmp_path / "history.sqlite").read_bytes().startswith(b"not a database")


def test_serve_refuses_a_port_in_use_before_saying_it_serves(tmp_path, capsys):
    import socket

    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        code, out, err = run(["serve", "--demo", "--port", str(port), "--data", str(tmp_path)], capsys)  # not the user's data
    assert code == 1 and out == "" and f"cannot serve on 127.0.0.1:{port}" in assert_one_line_error(err)
    assert "http://" not in err  # no success line first
    with socket.socket() as held:  # and in the user's language
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        code, out, err = run(["serve", "--demo", "--port", str(port), "--data", str(tmp_path), "--lang", "fr"], capsys)
    assert code == 1 and out == "" and f"impossible de servir sur 127.0.0.1:{port} : " in assert_one_line_error(err)
    assert err.rstrip().endswith("(un autre programme l'occupe ? essayez --port)")


def test_serve_names_what_the_user_gave_before_a_port_another_program_holds(tmp_path, capsys):
    """The README's demo may hold the port: a wrong source or a damaged history is still named as such."""
    import socket

    (tmp_path / "history.sqlite").write_bytes(b"not a database" * 100)
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = str(held.getsockname()[1])
        code, _, err = run(["serve", "--source", "/no/such/video.mp4", "--port", port], capsys)
        assert code == 1 and "no camera, stream, video or folder" in assert_one_line_error(err)
        code, _, err = run(["serve", "--demo", "--data", str(tmp_path), "--port", port], capsys)
        assert code == 1 and str(tmp_path / "history.sqlite") in assert_one_line_error(err)
