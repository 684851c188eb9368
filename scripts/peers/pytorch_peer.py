#!/usr/bin/env python3
"""PyTorch beside h2dbench: the figures `h2dbench run --peers` sets beside its own cases.

Measures tensor.to('cuda') from pageable and from pinned memory at the given sizes (skipped,
with the reason, when CUDA is not available to torch), and the DataLoader loop the host/pipeline
cases mirror: each num_workers of --workers (h2dbench passes 0 and its loops' counts), pin_memory
False and True (True only where CUDA is: without it nothing is pinned), a sample of a 3x64x64
float32 tile and an int64 id with sample_us of CPU work each, a GPU step stood in by compute_us of
host time a batch. The loader part needs no GPU. Prints one JSON line:
{"torch": VERSION, "figures": [{"test", "bytes"|"num_workers"+"pin_memory", "value", "unit"}],
 "skipped": [REASON...]}.
"""

import argparse
import json
import sys
import time

import torch
from torch.utils.data import DataLoader, Dataset

COPY_REPEATS = 10  # timed copies a size, after one warm-up


class TileDataset(Dataset):
    """host/pipeline's default sample: a 3x64x64 float32 tile and its int64 id."""

    def __init__(self, length, sample_us):
        self.length = length
        self.sample_us = sample_us

    def __len__(self):
        return self.length

    def __getitem__(self, index):
        busy_until = time.perf_counter() + self.sample_us / 1e6
        tile = torch.full((3, 64, 64), float(index % 251), dtype=torch.float32)
        while time.perf_counter() < busy_until:  # the per-sample CPU work (decode, augment)
            pass
        return tile, torch.tensor(index, dtype=torch.int64)


def copy_figure(size, kind):
    source = torch.empty(size, dtype=torch.uint8)
    if kind == "pinned":
        source = source.pin_memory()
    source.to("cuda", non_blocking=kind == "pinned")  # warm-up: context, allocator
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(COPY_REPEATS):
        source.to("cuda", non_blocking=kind == "pinned")
    torch.cuda.synchronize()
    seconds = time.perf_counter() - start
    return {"test": "to_cuda_" + kind, "bytes": size,
            "value": size * COPY_REPEATS / seconds / 1e9, "unit": "GB/s"}


def copy_figures(sizes, skipped):
    """Each size and kind on its own: one that fails (out of memory) is skipped with its reason,
    and the others, the DataLoader figures among them, still count."""
    figures = []
    for size in sizes:
        for kind in ("pageable", "pinned"):
            try:
                figures.append(copy_figure(size, kind))
            except (RuntimeError, MemoryError) as error:
                lines = str(error).strip().splitlines()
                reason = lines[0] if lines else type(error).__name__
                skipped.append("to_cuda_%s at %d bytes: %s" % (kind, size, reason))
    return figures


def loader_figures(args, cuda):
    figures = []
    # Without CUDA there is nothing to pin for: a pin_memory=True loader would run unpinned and its
    # figure would claim what did not happen, so only pin_memory=False is measured then.
    for workers in args.workers:
        for pin_memory in (False, True) if cuda else (False,):
            dataset = TileDataset(args.batch * (args.batches + 1), args.sample_us)
            loader = DataLoader(dataset, batch_size=args.batch, num_workers=workers,
                                pin_memory=pin_memory)
            batches = iter(loader)
            next(batches)  # warm-up: workers started, first batch collated
            start = time.perf_counter()
            samples = 0
            for tiles, ids in batches:
                if cuda:
                    tiles.to("cuda", non_blocking=pin_memory)
                    ids.to("cuda", non_blocking=pin_memory)
                busy_until = time.perf_counter() + args.compute_us / 1e6
                while time.perf_counter() < busy_until:  # the step, as host time
                    pass
                samples += len(ids)
            seconds = time.perf_counter() - start
            figures.append({"test": "dataloader", "num_workers": workers,
                            "pin_memory": pin_memory, "value": samples / seconds,
                            "unit": "samples/s"})
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="", help="copy sizes in bytes, comma separated")
    parser.add_argument("--workers", default="0,4",
                        help="DataLoader num_workers to measure, comma separated")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--sample-us", type=int, default=50)
    parser.add_argument("--compute-us", type=int, default=300)
    parser.add_argument("--batches", type=int, default=60)
    args = parser.parse_args()
    try:
        sizes = [int(size) for size in args.sizes.split(",") if size]
    except ValueError:
        parser.error(f"--sizes '{args.sizes}': bytes, comma separated")
    try:
        args.workers = [int(count) for count in args.workers.split(",") if count]
    except ValueError:
        parser.error(f"--workers '{args.workers}': counts, comma separated")
    if not args.workers or min(args.workers) < 0:
        parser.error("--workers needs counts of 0 or more")
    if args.batch < 1 or args.batches < 1 or args.sample_us < 0 or args.compute_us < 0:
        parser.error("--batch and --batches must be positive, --sample-us and --compute-us not negative")

    cuda = torch.cuda.is_available()
    skipped = []
    figures = []
    if not cuda:
        skipped.append("tensor.to('cuda') not measured: torch.cuda.is_available() is False")
        skipped.append("DataLoader(pin_memory=True) not measured: without CUDA nothing is pinned")
    elif sizes:
        figures += copy_figures(sizes, skipped)
    figures += loader_figures(args, cuda)
    print(json.dumps({"torch": torch.__version__, "figures": figures, "skipped": skipped}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
