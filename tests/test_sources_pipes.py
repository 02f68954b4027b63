"""Pipes, FIFOs, devices and standard input as inputs: ``sources.reads`` reads them whole, and a
signal ends every wait of theirs — the read of a pipe whose writer sends nothing, the opening of a
FIFO no one writes, ``-``, ``@-`` and an ``@FILE`` that is a FIFO.

The signal is delivered deterministically: the test arms SIGUSR1 with a handler that raises, and a
helper thread sends SIGUSR1 to itself (``pthread_kill``) once the main thread has entered its wait
(a wrapped ``poll`` says when). The kernel runs the signal's C handler in the helper, so the main
thread's system call is not interrupted: Python only notes the signal as pending, the case that
used to leave a read waiting for ever (a Ctrl-C that lands just before the call begins is the
same). Only ``reads``' steps let the main thread act on it. When a read does not end so, the
helper ends the wait itself (it gives the bytes or closes the writer) after ``RESCUE_SECONDS``,
and the test fails instead of hanging; a passing test takes about one ``POLL_SECONDS`` step.
"""

from __future__ import annotations

import errno
import io
import os
import select
import signal
import sys
import threading
from collections.abc import Callable
from types import SimpleNamespace

import pytest

from tenhou_tools.errors import InputError
from tenhou_tools.sources import lists, reads
from tenhou_tools.sources.files import read_log_file
from tenhou_tools.sources.reads import open_input, read_upto

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo") or not hasattr(signal, "pthread_kill"),
                                reason="needs POSIX pipes and signals")

RESCUE_SECONDS = 60
"""How long the helper lets a wait go on before it ends it and the test fails (never reached by a
read that acts on the signal, which ends within one POLL_SECONDS step)."""


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


def test_a_pipe_is_read_to_its_end_when_no_size_is_given():
    data = bytes(range(256)) * 1000
    fh, thread, _ = _pipe_with(data)
    with fh:
        assert read_upto(fh, None) == data
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
    with open_input(path) as fh:
        assert read_upto(fh, 2048) == b"x" * 2048
        assert read_upto(fh, 10**6, regular=True) == b"x" * 2952
    with open_input(path) as fh:
        assert read_upto(fh, None) == b"x" * 5000


def test_a_file_object_without_a_descriptor_is_read_as_it_is():
    assert read_upto(io.BytesIO(b"abc"), 2) == b"ab"
    assert read_upto(io.BytesIO(b"abc"), None) == b"abc"


def test_open_input_refuses_a_folder_and_a_missing_file_as_open_does(tmp_path):
    with pytest.raises(IsADirectoryError):
        open_input(tmp_path)
    with pytest.raises(FileNotFoundError):
        open_input(tmp_path / "nope")


# --- a FIFO: open without waiting, then wait for the writer in poll ----------------------------------

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="opening a FIFO without waiting: Linux (reads.open_input)")


def _writer_when_read(fifo, opened: threading.Event | None = None) -> int:
    """Open ``fifo`` for writing once a reader has it open (without waiting ourselves)."""
    while True:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as exc:  # ENXIO: no reader yet
            if exc.errno != errno.ENXIO:
                raise
        if opened is not None:
            opened.wait(0.01)


@linux_only
def test_a_fifo_opens_at_once_and_its_read_waits_for_a_writer_and_reads_to_its_end(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with open_input(fifo) as fh:  # plain open() would wait here for a writer
        sent = threading.Event()

        def write() -> None:
            fd = _writer_when_read(fifo)
            os.write(fd, b"<mjloggm ver")
            os.write(fd, b'="2.3">')
            os.close(fd)
            sent.set()

        thread = threading.Thread(target=write)
        thread.start()
        assert read_upto(fh, None) == b'<mjloggm ver="2.3">'  # not an empty read before the writer came
        thread.join()
    assert sent.is_set()


# --- a signal ends every wait --------------------------------------------------------------------


class Signalled(Exception):
    """What the test's SIGUSR1 handler raises."""


@pytest.fixture
def signal_in_wait(monkeypatch):
    """``arm(rescue)``: the next wait of ``reads`` gets SIGUSR1 pending, sent from another thread
    once the wait has begun; ``rescue`` ends the wait if the read does not act on it. Gives the
    helper's record: ``rescued`` is True when the read had to be ended so."""
    real_poll = select.poll
    entered = threading.Event()

    class Poll:
        def __init__(self) -> None:
            self._poll = real_poll()

        def register(self, fd: int, mask: int) -> None:
            self._poll.register(fd, mask)

        def poll(self, timeout: float) -> list:
            entered.set()
            return self._poll.poll(timeout)

    monkeypatch.setattr(reads, "select", SimpleNamespace(poll=Poll, POLLIN=select.POLLIN))

    def raise_signalled(signum, frame):
        raise Signalled

    previous = signal.signal(signal.SIGUSR1, raise_signalled)
    threads: list[threading.Thread] = []
    done = threading.Event()
    record = SimpleNamespace(rescued=False, sent=False)

    def arm(rescue: Callable[[], None]) -> SimpleNamespace:
        def helper() -> None:
            if not entered.wait(RESCUE_SECONDS):
                return
            signal.pthread_kill(threading.get_ident(), signal.SIGUSR1)  # pending; not this thread's to raise
            record.sent = True
            if not done.wait(RESCUE_SECONDS):
                record.rescued = True
                rescue()

        thread = threading.Thread(target=helper, daemon=True)
        thread.start()
        threads.append(thread)
        return record

    try:
        yield arm
    finally:
        done.set()
        for thread in threads:
            thread.join()
        signal.signal(signal.SIGUSR1, previous)


def _ended_by_the_signal(record: SimpleNamespace, read: Callable[[], object]) -> None:
    with pytest.raises(Signalled):
        read()
    assert record.sent and not record.rescued


def test_a_signal_ends_the_read_of_a_pipe_whose_writer_sends_nothing(signal_in_wait):
    r, w = os.pipe()
    record = signal_in_wait(lambda: os.write(w, b"x"))
    with os.fdopen(r, "rb") as fh:
        _ended_by_the_signal(record, lambda: read_upto(fh, 10))
    os.close(w)


@linux_only
def test_a_signal_ends_the_wait_for_a_fifo_that_no_one_opens_for_writing(signal_in_wait, tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def rescue() -> None:
        os.close(_writer_when_read(fifo))  # a writer that comes and goes: the read ends, empty

    record = signal_in_wait(rescue)
    _ended_by_the_signal(record, lambda: read_log_file(fifo))


@linux_only
def test_a_signal_ends_an_at_file_list_that_is_a_fifo(signal_in_wait, tmp_path):
    fifo = tmp_path / "list"
    os.mkfifo(fifo)
    record = signal_in_wait(lambda: os.close(_writer_when_read(fifo)))
    _ended_by_the_signal(record, lambda: lists.read_list(str(fifo)))


class Writer:
    """The writing end of a pipe, closed once only."""

    def __init__(self, fd: int) -> None:
        self.fd: int | None = fd
        self._lock = threading.Lock()

    def write(self, data: bytes) -> None:
        assert self.fd is not None
        os.write(self.fd, data)

    def close(self) -> None:
        with self._lock:
            if self.fd is not None:
                os.close(self.fd)
                self.fd = None


@pytest.fixture
def stdin_pipe(monkeypatch):
    """Standard input is a pipe whose writer (a ``Writer``) sends nothing until told."""
    r, w = os.pipe()
    stdin = io.TextIOWrapper(os.fdopen(r, "rb"))
    monkeypatch.setattr(sys, "stdin", stdin)
    writer = Writer(w)
    yield writer
    writer.close()
    stdin.close()


@pytest.mark.parametrize("read", [lists.read_stdin, lambda: lists.read_list("-"),
                                  lambda: lists.read_id_list("-", label="-")],
                         ids=["dash", "at-dash", "download-dash"])
def test_a_signal_ends_the_read_of_standard_input(signal_in_wait, stdin_pipe, read):
    record = signal_in_wait(stdin_pipe.close)
    _ended_by_the_signal(record, read)


def test_standard_input_is_read_to_its_end_as_a_list(stdin_pipe):
    stdin_pipe.write(b"# a list\n a.xml \n\nb.xml\n")
    stdin_pipe.close()
    assert lists.read_list("-") == [("<stdin>:2", "a.xml"), ("<stdin>:4", "b.xml")]


# --- the one list reader --------------------------------------------------------------------------


def test_one_reader_for_every_list_entries_and_ids_alike(tmp_path):
    listing = tmp_path / "ids.txt"
    listing.write_bytes(b"# games\n 2014102312gm-00c1-0000-afb21fa5, 4p  # first\n\nb\xffc\n")
    assert lists.list_lines(str(listing)) == [
        (f"{listing}:1", "# games"), (f"{listing}:2", " 2014102312gm-00c1-0000-afb21fa5, 4p  # first"),
        (f"{listing}:3", ""), (f"{listing}:4", "b\udcffc")]
    assert lists.read_list(str(listing)) == [
        (f"{listing}:2", "2014102312gm-00c1-0000-afb21fa5, 4p  # first"), (f"{listing}:4", "b\udcffc")]
    assert lists.read_id_list(str(listing)) == [
        (f"{listing}:2", "2014102312gm-00c1-0000-afb21fa5"), (f"{listing}:4", "b\udcffc")]


def test_a_list_that_cannot_be_read_is_named_by_its_label(tmp_path):
    with pytest.raises(InputError, match=r"^@nope: no such list file$"):
        lists.read_list("nope")
    with pytest.raises(InputError, match=r"^--from-file nope: no such list file$"):
        lists.read_id_list("nope", label="--from-file nope")
    with pytest.raises(InputError, match=r"a folder, not a list file \(give the folder without @\)$"):
        lists.read_list(str(tmp_path))
