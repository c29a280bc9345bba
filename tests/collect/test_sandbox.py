"""The sandbox stops runaway programs and reports why: CPU, wall time, memory, network, file system."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import scrapesmith
from scrapesmith.collect.sandbox import SandboxLimits, run_in_sandbox


def _program(tmp_path, body: str):
    path = tmp_path / "program.py"
    path.write_text(textwrap.dedent(body))
    return path


def test_well_behaved_program_returns_stdout_and_its_outputs_land_in_the_run_dir(tmp_path):
    program = _program(tmp_path, """
        from pathlib import Path
        Path("dataset.csv").write_text("title\\nrows\\n")
        Path("notes.txt").write_text("not an output")
        print("done")
    """)
    result = run_in_sandbox(program, tmp_path, [])
    assert result.ok, result.stderr
    assert result.stdout.strip() == "done"
    assert (tmp_path / "dataset.csv").read_text() == "title\nrows\n"
    assert not (tmp_path / "notes.txt").exists()
    assert result.notes == [
        "sandbox: 1 other entries the program wrote were not kept (only its outputs are): 'notes.txt'"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dataset.csv", "program.py"]  # its folder is gone


def test_runaway_loop_is_stopped_by_the_cpu_limit(tmp_path):
    program = _program(tmp_path, "while True:\n    pass\n")
    result = run_in_sandbox(program, tmp_path, [], SandboxLimits(cpu_seconds=1, wall_seconds=20))
    assert result.reason == "cpu-limit"
    assert "CPU-time limit" in result.stderr


def test_sleeping_program_is_stopped_by_the_wall_limit(tmp_path):
    program = _program(tmp_path, "import time\ntime.sleep(30)\n")
    result = run_in_sandbox(program, tmp_path, [], SandboxLimits(wall_seconds=1.0))
    assert result.reason == "wall-limit"
    assert result.seconds < 10


def test_memory_hog_is_stopped_by_the_memory_limit(tmp_path):
    program = _program(tmp_path, "hog = bytearray(3 * 1024 ** 3)\nprint(len(hog))\n")
    result = run_in_sandbox(program, tmp_path, [], SandboxLimits(memory_mb=1024))
    assert result.reason == "memory-limit"
    assert "MemoryError" in result.stderr


def test_network_goes_only_through_the_runs_proxy_to_the_runs_hosts(tmp_path, demo_web, allow):
    program = _program(tmp_path, f"""
        import socket
        from scrapesmith.collect.runtime import Collection
        from scrapesmith.web.page import BlockedAddress
        with Collection("t", allow_hosts=["127.0.0.1"], delay=0) as run:
            page = run.fetch("{demo_web.url('/')}")
            print("allowed host reached", page.status)
            try:
                run.fetch("http://127.0.0.1:9/")
            except BlockedAddress as exc:
                print("proxy refused:", exc)
        socket.create_connection(("{demo_web.host}", {demo_web.port}), timeout=5)
    """)
    result = run_in_sandbox(program, tmp_path, allow)
    assert "allowed host reached 200" in result.stdout, result.stderr
    assert "proxy refused:" in result.stdout and "127.0.0.1:9 is not allowed for this run" in result.stdout
    assert result.reason == "violation"
    assert f"connection to ('127.0.0.1', {demo_web.port}) is not allowed" in result.stderr


def test_write_outside_the_run_dir_is_refused_even_when_caught(tmp_path):
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    outside = tmp_path / "escape.txt"
    program = _program(run_dir, f"""
        try:
            open({str(outside)!r}, "w").write("x")
        except PermissionError:
            print("caught")
    """)
    result = run_in_sandbox(program, run_dir, [])
    assert result.reason == "violation"
    assert "outside the run directory" in result.stderr
    assert not outside.exists()


def test_starting_a_process_is_refused(tmp_path):
    program = _program(tmp_path, "import subprocess\nsubprocess.run(['true'])\n")
    result = run_in_sandbox(program, tmp_path, [])
    assert result.reason == "violation"


def test_without_bubblewrap_generated_code_does_not_run_unless_asked_to(tmp_path, monkeypatch):
    from scrapesmith.collect.sandbox import SandboxUnavailable

    program = _program(tmp_path, "open('dataset.csv', 'w').write('x')\n")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))  # no bwrap to be found
    with pytest.raises(SandboxUnavailable, match="bubblewrap .* not installed.*--unsafe-no-sandbox"):
        run_in_sandbox(program, tmp_path, [])
    assert not (tmp_path / "dataset.csv").exists()
    result = run_in_sandbox(program, tmp_path, [], SandboxLimits(unsafe_no_sandbox=True))
    assert result.ok and not result.isolated and (tmp_path / "dataset.csv").exists()


def test_run_without_bubblewrap_refuses_unless_unsafe_no_sandbox_is_on_the_command_line(tmp_path):
    # README: "Without bubblewrap they do not run unless you pass `--unsafe-no-sandbox`."
    import csv
    import os
    import subprocess
    import sys

    program = _program(tmp_path, """
        from scrapesmith.collect.runtime import Collection

        with Collection("unconfined", allow_hosts=[], delay=0) as run:
            run.write([{"n": 1}, {"n": 2}])
    """)
    (tmp_path / "empty").mkdir()
    env = {**os.environ, "PATH": str(tmp_path / "empty"), "COLUMNS": "400"}  # no bwrap to be found

    def run(*flags: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "scrapesmith", "run", str(program), *flags], cwd=tmp_path,
                              env=env, capture_output=True, text=True, timeout=120, check=False)

    refused = run()
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    [line] = [line for line in refused.stderr.splitlines() if line.strip()]
    assert line.startswith("error:") and "bubblewrap" in line and "--unsafe-no-sandbox" in line
    assert not list(tmp_path.rglob("dataset.csv"))
    done = run("--unsafe-no-sandbox")
    assert done.returncode == 0, done.stderr
    [dataset] = (tmp_path / "reruns").glob("*/dataset.csv")
    with dataset.open(newline="", encoding="utf-8") as handle:
        assert [row["n"] for row in csv.DictReader(handle)] == ["1", "2"]
    assert "2 rows" in done.stderr


def test_a_memory_cgroup_left_by_a_killed_caller_is_removed_by_the_next_run(tmp_path):
    import subprocess

    from scrapesmith.collect.cgroups import MemoryCgroup, _own_memory_cgroup

    probe = MemoryCgroup.create(2**30)
    if probe is None:
        pytest.skip("this machine gives this process no memory cgroup to make")
    probe.remove()
    gone = subprocess.Popen(["true"])
    gone.wait()
    orphan = _own_memory_cgroup()[0] / f"scrapesmith-sandbox-{gone.pid}-0"  # as a SIGKILLed caller leaves it
    orphan.mkdir()
    result = run_in_sandbox(_program(tmp_path, "print('ok')\n"), tmp_path, [])
    assert result.ok, result.stderr
    assert not orphan.exists()


def test_a_disk_quota_that_cannot_be_measured_counts_as_exceeded(tmp_path):
    """Issue 43: out of descriptors, the quota's walk failed with EMFILE, was swallowed and counted 0 bytes
    while the program wrote 2.7 GB past the quota."""
    import os
    import resource

    from scrapesmith.collect.limits import DiskQuota

    (tmp_path / "folder").mkdir()
    quota = DiskQuota(tmp_path / "folder", 2**20, 100)
    assert quota.exceeded(os.getpid()) is None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    held = []
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (len(os.listdir("/proc/self/fd")) + 20, hard))
        with pytest.raises(OSError):
            while True:
                held.append(os.open(os.devnull, os.O_RDONLY))
        over = quota.exceeded(os.getpid())
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert over is not None and "could not be measured" in over


def test_what_is_left_of_a_run_is_frozen_killed_and_waited_for(tmp_path):
    """Issue 43: the parent ends the run's cgroups before it takes the outputs over — a process of the run
    that outlived its end (here a sleeper its shell left behind) is killed, and the cgroups are empty."""
    import subprocess
    import time

    from scrapesmith.collect.limits import RunCgroup
    from scrapesmith.collect.sandbox import _JOIN_CGROUPS

    cgroup = RunCgroup.create(2**30, 64)
    if cgroup is None:
        pytest.skip("this machine gives this process no cgroup to make")
    try:
        assert cgroup.end(grace=0.1) == "empty"
        shell = subprocess.run(["/bin/sh", "-c", _JOIN_CGROUPS, "sh", *map(str, cgroup.procs), "--",
                                "/bin/sh", "-c", "(sleep 120 &) ; exit 0"], check=True, timeout=30)
        assert shell.returncode == 0
        deadline = time.monotonic() + 10
        while not cgroup.pids() and time.monotonic() < deadline:
            time.sleep(0.01)
        left = cgroup.pids()
        assert left, "the sleeper never showed in the run's cgroup"
        assert cgroup.end(grace=0.1) == "killed"
        assert cgroup.pids() == [] and cgroup.worst_end == "killed"
        assert not [pid for pid in left if b"sleep" in _cmdline(pid)]
    finally:
        cgroup.remove()
    assert not any(path.exists() for path in cgroup.directories)


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # gone
        return b""


def test_a_run_is_limited_in_tasks_threads_included(tmp_path):
    from scrapesmith.collect.limits import RunCgroup

    cgroup = RunCgroup.create(2**30, 64)
    if cgroup is None or not cgroup.limits_tasks:
        pytest.skip("this machine gives this process no pids cgroup to make")
    cgroup.remove()
    program = _program(tmp_path, """
        import threading
        stop = threading.Event()
        started = 0
        try:
            for _ in range(200):
                threading.Thread(target=stop.wait, daemon=True).start()
                started += 1
        except RuntimeError:
            pass
        stop.set()
        print(started)
    """)
    result = run_in_sandbox(program, tmp_path, [], SandboxLimits(max_processes=64))
    assert result.ok, result.stderr
    assert int(result.stdout.split()[-1]) < 64


def _ending_with_the_caller(alive: int) -> subprocess.Popen:
    """A process that asks to end with the caller through ``alive`` (the read end of a pipe), prints whether the
    caller was there, then sleeps ten minutes."""
    code = (f"import time\nfrom scrapesmith.collect.guard import end_with_caller\n"
            f"print(end_with_caller({alive}), flush=True)\ntime.sleep(600)\n")
    return subprocess.Popen([sys.executable, "-c", code], pass_fds=(alive,), stdout=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(Path(scrapesmith.__file__).parents[1])})


def test_a_guard_that_ends_with_its_caller_is_killed_the_instant_the_callers_end_closes():
    """However the caller dies, the kernel closes its end of the pipe: the guard (and through it the sandbox)
    goes at once; a guard that starts after the caller went says so, and does not run the program."""
    alive, ours = os.pipe()
    guard = _ending_with_the_caller(alive)
    try:
        assert guard.stdout.readline() == b"True\n"
        os.close(ours)
        assert guard.wait(timeout=30) == -signal.SIGKILL
    finally:
        guard.kill()
        guard.wait()
        os.close(alive)
    late, gone = os.pipe()
    os.close(gone)
    guard = _ending_with_the_caller(late)
    try:
        assert guard.stdout.readline() == b"False\n"
    finally:
        guard.kill()
        guard.wait()
        os.close(late)
