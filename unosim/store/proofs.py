"""What earlier verifications proved of a dataset, kept in ``parts.verified`` for the next process: a digest
per part of everything a verification proves of it (the file's stamp, its ledger record, its job's
identity, the dataset's columns), and one of the whole dataset (see :mod:`unosim.store.integrity`)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from .atomic import write_text_atomic
from .ledger import PartInfo

#: what verification proved of each part, for the next process (see the module docstring)
VERIFIED = "parts.verified"
_VERIFIED_FORMAT = 2


def whole_proof(manifest: dict[str, Any], entries) -> str:
    digest = hashlib.blake2b(f"{manifest['seal']['sha256']}|{manifest['seal']['ledger']['sha256']}".encode(),
                             digest_size=16)
    digest.update("\n".join(f"{rel}|{st.st_size}|{st.st_mtime_ns}|{st.st_ctime_ns}|{st.st_ino}"
                             for rel, _, st in entries).encode())
    return digest.hexdigest()


def value_digest(value: Any) -> str:
    return hashlib.blake2b(json.dumps(value, sort_keys=True).encode(), digest_size=16).hexdigest()


def part_proof(rel: str, st: os.stat_result, info: PartInfo, identity: dict[str, Any], schema_id: str) -> str:
    """A digest of everything a verification proves of a part: this file (path, size, mtime, ctime,
    inode) holds the ledger's sha256 and rows, this job's identity and the dataset's columns. Found in
    ``parts.verified`` only if an earlier verification read the same file and proved just that."""
    text = (f"{rel}|{st.st_size}|{st.st_mtime_ns}|{st.st_ctime_ns}|{st.st_ino}|{info.sha256}|{info.rows}|"
            f"{identity['cell']}|{identity['job']}|{identity['first_game']}|{identity['games']}|{identity['seed']}|"
            f"{schema_id}")
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def _read_proofs(root: Path) -> tuple[dict[str, Any], str]:
    """(header, body) of ``parts.verified`` as last written (checked against its sha256), or ({}, "")."""
    path = root / VERIFIED
    try:
        if path.is_symlink():
            return {}, ""
        head, _, body = path.read_bytes().partition(b"\n")
        header = json.loads(head)
        if header.get("format") != _VERIFIED_FORMAT or hashlib.sha256(body).hexdigest() != header.get("sha256"):
            return {}, ""
        return header, body.decode("ascii")
    except (OSError, ValueError, AttributeError, UnicodeDecodeError):
        return {}, ""


def load_proofs(root: Path) -> set[str]:
    """The per-part proofs in ``parts.verified``, or none when it is missing, a link, damaged or of
    another format (then every part is read)."""
    return set(_read_proofs(root)[1].split())


def load_whole(root: Path) -> dict[str, str] | None:
    """The proof of the last complete verification of the whole dataset, and its digest, if any."""
    whole = _read_proofs(root)[0].get("whole")
    return whole if isinstance(whole, dict) else None


def save_proofs(root: Path, proofs: set[str], whole: dict[str, str] | None) -> None:
    """Keep the proofs of this verification for the next process (best effort: a read-only dataset is
    simply read again next time)."""
    body = "\n".join(sorted(proofs)).encode("ascii")
    header = json.dumps({"format": _VERIFIED_FORMAT, "sha256": hashlib.sha256(body).hexdigest(), "whole": whole})
    try:
        write_text_atomic(root / VERIFIED, header + "\n" + body.decode("ascii"))
    except OSError:
        pass
