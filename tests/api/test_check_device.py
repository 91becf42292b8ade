"""godlpack.check on a CUDA device, on a machine without one: tests/support/fake_cuda.py's device, whose memory lies
in address space the host cannot read (a host read is a segmentation fault) and whose streams order a producer's
queued work. The checker reads device memory only through a device runtime, on the consumer's stream, and not at
all where it has none; its stream checks hold the standard's values and the producer's synchronization promise."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import fake_cuda
from child_env import TESTS, child_env
from godlpack.check import Outcome, run_isolated, select_checks
from godlpack.check._device import KDL_CUDA, KDL_ROCM, stream_fault, system_runtime

DEVICE_CHECKS = {"producer.stream.device-none", "producer.stream.device-minus-one",
                 "producer.stream.device-synchronizes", "consumer.stream.device"}


def child(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """python args... in a child whose segmentation fault is its own: under make memcheck, AddressSanitizer leaves
    SIGSEGV to kill it, as it does without ASan."""
    env = child_env(TESTS)
    if "ASAN_OPTIONS" in env:
        env["ASAN_OPTIONS"] += ":handle_segv=0"
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout, env=env)


def test_the_fake_device_memory_is_not_host_memory() -> None:
    """The premise of the tests below: a host read of a fake device pointer kills the process."""
    done = child("-c", "import ctypes, fake_cuda; ctypes.string_at(fake_cuda.FakeCudaArray([1.0]).address, 4)")
    assert done.returncode == -11, (done.returncode, done.stderr)


def test_the_checker_never_reads_device_memory_on_the_host(tmp_path: Path) -> None:
    """Every check on godlpack with the fake device, in the checker's worker: none dies, and the device checks
    pass, reading the device's memory through its runtime. PyTorch's correct answer to dl_device=(2, 0) on a CUDA
    machine, a capsule of device memory, was read on the host by the element reader and reported as PyTorch's
    crash."""
    out = tmp_path / "r.json"
    done = child("-m", "godlpack.check", "fake_cuda:target", "--json", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    results = {r["check"]: r for r in json.loads(out.read_text())["targets"][0]["results"]}
    assert all("died" not in r["detail"] for r in results.values())
    assert all(results[c]["outcome"] == "pass" for c in DEVICE_CHECKS), {c: results[c] for c in DEVICE_CHECKS}
    moved = results["producer.dl_device.other"]
    assert moved["outcome"] == "pass" and moved["detail"].startswith("moved the data to CUDA device 0; shape (6,)")
    assert "not read" not in moved["detail"]
    assert results["consumer.device.other"]["detail"].startswith("kept on CUDA device 0")
    assert "'stream': -1" in results["consumer.stream.device"]["detail"]


@pytest.mark.skipif(system_runtime(KDL_CUDA) is not None, reason="this machine's CUDA runtime would read the memory")
def test_device_memory_without_a_runtime_is_not_read(tmp_path: Path) -> None:
    """No runtime for the device: the element comparison is not made (and says so), the checks that need the
    device's streams are not applicable, and nothing dies."""
    out = tmp_path / "r.json"
    done = child("-m", "godlpack.check", "fake_cuda:without_runtime", "-k", "device", "--json", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    results = {r["check"]: r for r in json.loads(out.read_text())["targets"][0]["results"]}
    assert "elements not read: no runtime for CUDA device 0 here" in results["producer.dl_device.other"]["detail"]
    assert "elements not read" in results["producer.stream.device-none"]["detail"]
    assert results["producer.stream.device-synchronizes"]["outcome"] == "n/a"
    assert results["consumer.stream.device"]["outcome"] == "n/a"


@pytest.mark.parametrize("check_id", sorted(fake_cuda.BREAKS))
def test_a_broken_device_fails_exactly_its_check(check_id: str) -> None:
    """A producer that answers stream=None on another device, -1 with another shape, or a consumer's stream
    without ordering it after its queued work (the data read there is stale): each fails its own check alone."""
    report = run_isolated(fake_cuda.BREAKS[check_id], select_checks("producer", "stream.device"), timeout=120)
    failed = {r.check for r in report.results if r.outcome is Outcome.FAIL}
    assert failed == {check_id}, [(r.check, r.detail) for r in report.results]


@pytest.mark.parametrize(("device_type", "stream", "allowed"), [
    (KDL_CUDA, None, True), (KDL_CUDA, -1, True), (KDL_CUDA, 1, True), (KDL_CUDA, 2, True), (KDL_CUDA, 0x7F00, True),
    (KDL_CUDA, 0, False), (KDL_CUDA, -2, False), (KDL_CUDA, True, False), (KDL_CUDA, 1.0, False),
    (KDL_ROCM, 0, True), (KDL_ROCM, 3, True), (KDL_ROCM, 1, False), (KDL_ROCM, 2, False), (1, 1, False),
])
def test_the_stream_values_the_standard_allows(device_type: int, stream: object, allowed: bool) -> None:
    assert (stream_fault(device_type, stream) == "") is allowed
