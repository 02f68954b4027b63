"""Pipes, FIFOs and devices as inputs: ``items.read_upto`` reads them whole, and a Ctrl-C that
lands between opening one and reading it is acted on (a read that began after the signal used to
wait for ever on a writer that sends nothing)."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import threading

import pytest

from tenhou_tools.sources.items import read_upto

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX pipes")


def _pipe_with(data: bytes, *, close: bool = True):
    """A reading file object on a pipe whose writer sends ``data`` from a thread (and closes
    its end when ``close``); the writer's descriptor is returned when it stays open."""
    r, w = os.pipe()

    def send() -> None:
        for start in range(0, len(data), 4096):
            os.write(w, data[start:start + 4096])
        if close:
            os.close(w)

    thread = threading.Thread(target=send)
    thread.start()
    return os.fdopen(r, "rb"), thread, (None if close else w)


def test_a_pipe_is_read_up_to_the_size_asked_across_many_writes():
    data = bytes(range(256)) * 1000  # 256,000 bytes: more than one write and one read
    fh, thread, _ = _pipe_with(data)
    with fh:
        assert read_upto(fh, 100_000) == data[:100_000]
        assert read_upto(fh, 10**6) == data[100_000:]  # the rest, ended by the writer's close
        assert read_upto(fh, 10) == b""
    thread.join()


def test_a_pipe_with_some_bytes_and_a_writer_still_there_gives_what_came_when_asked_for_that_much():
    fh, thread, w = _pipe_with(b"<mjloggm", close=False)
    thread.join()
    with fh:
        assert read_upto(fh, 8) == b"<mjloggm"
    os.close(w)


def test_a_regular_file_is_read_as_before(tmp_path):
    path = tmp_path / "log.xml"
    path.write_bytes(b"x" * 5000)
    with open(path, "rb") as fh:
        assert read_upto(fh, 2048) == b"x" * 2048
        assert read_upto(fh, 10**6, regular=True) == b"x" * 2952


_CHILD = """
import sys
from tenhou_tools.sources.items import read_upto

def head(path):
    with open(path, "rb") as fh:
        return read_upto(fh, 10)

for _ in range(50):  # warm: Python specialises the calls of a function it runs often
    head(__file__)
try:
    head(sys.argv[1])
except KeyboardInterrupt:
    sys.exit(130)
sys.exit(0)
"""


def test_ctrl_c_right_after_a_fifo_opens_ends_the_read(tmp_path):
    """Forty times: a child opens a FIFO and reads it; we open its other end as soon as it
    waits in ``open`` (so the child's ``open`` returns), send SIGINT at once and never write.
    The signal lands around the moment the ``open`` returns, before or inside the read. With a
    plain ``fh.read``, 4 of 40 children of a script doing this waited for ever (the signal was
    pending, not raised); the race is timing, so one run of this test can miss it. Each child
    must end with 130."""
    script = tmp_path / "child.py"
    script.write_text(_CHILD)
    hung = []
    for attempt in range(40):
        fifo = tmp_path / f"fifo{attempt}"
        os.mkfifo(fifo)
        proc = subprocess.Popen([sys.executable, str(script), str(fifo)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True)
        fd = None
        try:
            while fd is None and proc.poll() is None:
                try:
                    fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                except OSError as exc:  # ENXIO: the child has not opened it yet
                    if exc.errno != errno.ENXIO:
                        raise
            proc.send_signal(signal.SIGINT)
            try:
                _, err = proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
                hung.append(attempt)
                continue
            assert proc.returncode == 130, err
        finally:
            if fd is not None:
                os.close(fd)
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert hung == []

