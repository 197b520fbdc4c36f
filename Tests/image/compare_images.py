#!/usr/bin/env python3
"""Two builds of the Raspberry Pi image compared byte for byte (make
image-repro, docs/raspberry-pi.md "Reproducible").

  compare_images.py A.img B.img

Prints "identical" and exits 0 when the bytes are the same. Otherwise, for
each partition that differs: how many 4 KiB blocks; on an ext4 partition
the files that own them (debugfs icheck and ncheck) and how many belong to
no file (the file system's own metadata); on the FAT partition the files
whose contents differ (mtools). Exits 1.
"""
import hashlib
import json
import os
import subprocess
import sys
import tempfile

BLOCK = 4096


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def partitions(path):
    t = json.loads(subprocess.run(["sfdisk", "-J", path], check=True, capture_output=True, text=True).stdout)
    sector = t["partitiontable"].get("sectorsize", 512)
    return [(p["start"] * sector, p["size"] * sector) for p in t["partitiontable"]["partitions"]]


def differing_blocks(a, b, offset, size):
    """Block numbers (within the partition) whose bytes differ."""
    out = []
    with open(a, "rb") as fa, open(b, "rb") as fb:
        fa.seek(offset)
        fb.seek(offset)
        done = 0
        while done < size:
            n = min(1 << 20, size - done)
            x, y = fa.read(n), fb.read(n)
            if x != y:
                for k in range(0, n, BLOCK):
                    if x[k:k + BLOCK] != y[k:k + BLOCK]:
                        out.append((done + k) // BLOCK)
            done += n
    return out


def extract(path, offset, size, dest):
    with open(path, "rb") as f, open(dest, "wb") as o:
        f.seek(offset)
        left = size
        while left:
            chunk = f.read(min(1 << 20, left))
            o.write(chunk)
            left -= len(chunk)


def debugfs(image, request):
    return subprocess.run(["debugfs", "-R", request, image], capture_output=True, text=True).stdout


def ext4_owners(image, blocks):
    """{path: block count} for the blocks, "(no file)" for metadata."""
    bs = int(next(line.split()[-1] for line in debugfs(image, "stats -h").splitlines() if line.startswith("Block size")))
    fs_blocks = sorted({b * BLOCK // bs for b in blocks})
    owners, inodes = {}, {}
    for i in range(0, len(fs_blocks), 500):
        for line in debugfs(image, "icheck " + " ".join(map(str, fs_blocks[i:i + 500]))).splitlines()[1:]:
            blk, ino = line.split(None, 1)
            inodes[blk] = ino.strip()
    names = {}
    numbers = sorted({i for i in inodes.values() if i.isdigit()}, key=int)
    for i in range(0, len(numbers), 500):
        for line in debugfs(image, "ncheck " + " ".join(numbers[i:i + 500])).splitlines()[1:]:
            parts = line.split(None, 1)
            if len(parts) == 2:
                names.setdefault(parts[0], parts[1])
    for ino in inodes.values():
        name = names.get(ino, f"inode {ino}") if ino.isdigit() else "(no file: the file system's metadata)"
        owners[name] = owners.get(name, 0) + 1
    return owners


def fat_files(a, b, tmp):
    """The FAT partitions' files whose bytes differ (mcopy to two trees)."""
    trees = []
    for n, image in enumerate((a, b)):
        d = os.path.join(tmp, f"fat{n}")
        os.makedirs(d)
        subprocess.run(["mcopy", "-s", "-m", "-n", "-i", image, "::*", d], check=True, capture_output=True)
        trees.append(d)
    r = subprocess.run(["diff", "-rq", trees[0], trees[1]], capture_output=True, text=True)
    return [line.replace(tmp + "/", "") for line in r.stdout.splitlines()]


def main():
    a, b = sys.argv[1:3]
    ha, hb = sha256(a), sha256(b)
    if ha == hb and os.path.getsize(a) == os.path.getsize(b):
        print(f"identical: sha256 {ha}")
        return 0
    print(f"differ: {a} sha256 {ha}, {b} sha256 {hb}")
    pa, pb = partitions(a), partitions(b)
    if pa != pb:
        print(f"partition tables differ: {pa} / {pb}")
        return 1
    first = pa[0][0]
    head = differing_blocks(a, b, 0, first)
    if head:
        print(f"before the first partition (MBR, gap): {len(head)} blocks differ")
    with tempfile.TemporaryDirectory() as tmp:
        for n, (off, size) in enumerate(pa, 1):
            blocks = differing_blocks(a, b, off, size)
            if not blocks:
                print(f"partition {n}: identical")
                continue
            print(f"partition {n}: {len(blocks)} of {size // BLOCK} blocks differ")
            pa_img, pb_img = os.path.join(tmp, "a.part"), os.path.join(tmp, "b.part")
            extract(a, off, size, pa_img)
            extract(b, off, size, pb_img)
            if n == 1:
                for line in fat_files(pa_img, pb_img, tmp) or ["no file's bytes differ: the FAT's own tables or directory entries do"]:
                    print(f"  {line}")
            else:
                for name, count in sorted(ext4_owners(pa_img, blocks).items(), key=lambda kv: -kv[1]):
                    print(f"  {count:6d} blocks  {name}")
            os.unlink(pa_img)
            os.unlink(pb_img)
    return 1


if __name__ == "__main__":
    sys.exit(main())
