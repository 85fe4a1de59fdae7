"""Tests of Tools/evaluate_late_join.py (run: python3 -m pytest Tools/test_evaluate_late_join.py)."""
import evaluate_late_join as lj

RECONSTRUCTION = """horizon at 60.000 s (4487 frames read, 0 not ADASIS, 0 undecodable)
position: path 40, offset 160 m, 7.8 m/s, age 0 ms
path 40 (main)
     100 m  SEGMENT 30 km/h (explicit), class 5
     236 m  STUB → 26, turn 90°, probability 3 %
     245 m  SEGMENT 30 km/h (explicit), class 4
     700 m  SEGMENT 50 km/h (implicit), class 4
path 8: not placed (no STUB or POSITION yet)
       0 m  SEGMENT 40 km/h (explicit), class 3
path 26: from path 40 at 236 m, probability 3 %
       0 m  SEGMENT 30 km/h (explicit), class 5
"""


def test_main_path_items_lie_between_the_vehicle_and_500_m_ahead_and_unplaced_paths_do_not_count():
    main, every = lj.items(RECONSTRUCTION)
    assert main == {(236, "STUB → 26"), (245, "SEGMENT 30 km/h (explicit)")}
    assert (26, 0, "SEGMENT 30 km/h (explicit)") in every
    assert not any(path == 8 for path, _, _ in every)
    assert len(every) == 5


def test_a_reconstruction_without_position_has_no_main_path_items():
    main, every = lj.items("path 9 (main)\n       0 m  SEGMENT 30 km/h (explicit), class 5\n")
    assert main == set() and len(every) == 1


def test_a_log_that_is_not_candump_is_a_clear_error(tmp_path, capsys):
    log = tmp_path / "bad.log"
    log.write_text("hello\n")
    assert lj.main(["--adasis", "/bin/false", str(log)]) == 2
    assert "not a candump -L line" in capsys.readouterr().err
    assert lj.main(["--delays", "soon", str(log)]) == 2
    assert lj.main(["--adasis", "/bin/false", str(tmp_path / "absent.log")]) == 2
