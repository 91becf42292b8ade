"""tools/share-packages, which lets the venvs of CI's other Pythons hard-link .venv's NVIDIA wheels instead of
holding a 3 GB copy each (Makefile, test-python-setup): which distributions it shares, and that pip would find a
shared one whole."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from repository import ROOT


def install(site: Path, name: str, tag: str, files: dict[str, bytes]) -> Path:
    """A distribution as pip leaves it: its files, and a .dist-info with WHEEL and RECORD."""
    dist_info = site / f"{name}-1.0.dist-info"
    dist_info.mkdir(parents=True)
    (dist_info / "WHEEL").write_text(f"Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: {tag}\n")
    (dist_info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    for path, data in files.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        if not path.startswith(".."):
            (site / path).write_bytes(data)
    record = [*files, f"{dist_info.name}/WHEEL", f"{dist_info.name}/METADATA", f"{dist_info.name}/RECORD"]
    (dist_info / "RECORD").write_text("".join(f"{p},,\n" for p in record))
    return dist_info


def share(src: Path, dst: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "tools" / "share-packages"), str(src), str(dst)],
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def venvs(tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    src, dst = tmp_path / "from", tmp_path / "to"
    src_site, dst_site = src / "lib/python3.11/site-packages", dst / "lib/python3.14/site-packages"
    src_site.mkdir(parents=True)
    dst_site.mkdir(parents=True)
    return src, dst, src_site, dst_site


def test_version_independent_native_wheels_are_linked_whole(venvs: tuple[Path, Path, Path, Path]) -> None:
    src, dst, src_site, dst_site = venvs
    install(src_site, "nvidia_cublas", "py3-none-manylinux_2_27_x86_64",
            {"nvidia/__init__.py": b"", "nvidia/cublas/lib/libcublas.so.13": b"\x7fELF cublas"})
    install(src_site, "nvidia_nvtx", "py3-none-manylinux_2_27_x86_64",
            {"nvidia/__init__.py": b"", "nvidia/nvtx/lib/libnvtx.so": b"\x7fELF nvtx"})
    done = share(src, dst)
    assert done.returncode == 0, done
    assert "2 distributions linked" in done.stdout, done.stdout
    for path in ["nvidia/cublas/lib/libcublas.so.13", "nvidia/nvtx/lib/libnvtx.so", "nvidia/__init__.py",
                 "nvidia_cublas-1.0.dist-info/RECORD", "nvidia_nvtx-1.0.dist-info/METADATA"]:
        assert (dst_site / path).stat().st_ino == (src_site / path).stat().st_ino, path


@pytest.mark.parametrize("name, tag, files", [
    ("torch", "cp311-cp311-manylinux_2_28_x86_64", {"torch/lib/libtorch.so": b"\x7fELF"}),
    ("sympy", "py3-none-any", {"sympy/__init__.py": b""}),
    ("cmake", "py3-none-manylinux_2_17_x86_64", {"cmake/lib/libx.so": b"\x7fELF", "../../../bin/cmake": b"#!"}),
    ("abi3ext", "cp39-abi3-manylinux_2_17_x86_64", {"abi3ext/_x.abi3.so": b"\x7fELF"}),
], ids=["python-specific", "pure-python", "script-outside-site-packages", "abi3"])
def test_others_are_left_to_pip(venvs: tuple[Path, Path, Path, Path], name: str, tag: str,
                                files: dict[str, bytes]) -> None:
    src, dst, src_site, dst_site = venvs
    install(src_site, name, tag, files)
    done = share(src, dst)
    assert done.returncode == 0, done
    assert "0 distributions linked" in done.stdout, done.stdout
    assert list(dst_site.iterdir()) == []


def test_a_distribution_already_there_is_left_alone(venvs: tuple[Path, Path, Path, Path]) -> None:
    src, dst, src_site, dst_site = venvs
    install(src_site, "nvidia_nvtx", "py3-none-manylinux_2_27_x86_64", {"nvidia/nvtx/lib/libnvtx.so": b"new"})
    install(dst_site, "nvidia_nvtx", "py3-none-manylinux_2_27_x86_64", {"nvidia/nvtx/lib/libnvtx.so": b"old"})
    (dst_site / "nvidia_nvtx-1.0.dist-info").rename(dst_site / "nvidia_nvtx-0.9.dist-info")
    done = share(src, dst)
    assert "0 distributions linked" in done.stdout, done
    assert (dst_site / "nvidia/nvtx/lib/libnvtx.so").read_bytes() == b"old"


def test_a_distribution_with_a_missing_file_is_not_shared(venvs: tuple[Path, Path, Path, Path]) -> None:
    src, dst, src_site, dst_site = venvs
    dist_info = install(src_site, "nvidia_nvtx", "py3-none-manylinux_2_27_x86_64",
                        {"nvidia/nvtx/lib/libnvtx.so": b"\x7fELF", "nvidia/nvtx/include/nvtx.h": b""})
    (src_site / "nvidia/nvtx/include/nvtx.h").unlink()
    done = share(src, dst)
    assert "0 distributions linked" in done.stdout, done
    assert not (dst_site / dist_info.name).exists()
    assert not (dst_site / "nvidia").exists()
