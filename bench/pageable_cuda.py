#!/usr/bin/env python3
"""bench/pageable_cuda.py - CUDA's own host <-> device copies through PyTorch, the anchor
for bench/pageable_bench.c (bench/pageable_gpu.sh runs both in one go).

usage: python3 bench/pageable_cuda.py [--min BYTES] [--max BYTES] [--rounds N] [--data FILE]

Per size (powers of two, --min 1 MiB to --max 1 GiB), GB/s (1e9 bytes/s), the median of
--rounds (5) copies, each timed with torch.cuda.synchronize() around it:
  pageable     torch.empty(n, uint8) on the CPU (ordinary malloc memory, touched) copied
               into a CUDA tensor (gpu.copy_(cpu)) and back (cpu.copy_(gpu))
  pinned       the same from a pin_memory() tensor (cudaHostAlloc)
  registered   the pageable tensor after cudaHostRegister (CUDA's registered memory),
               when torch.cuda.cudart() offers it
--data FILE: "bytes  h2d_pageable h2d_pinned h2d_registered  d2h_pageable d2h_pinned
d2h_registered" per line (0 where not measured).
Without torch or without a CUDA device it prints one line saying so and exits 0.
"""
import sys
import time


def parse_size(s):
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    s = s.strip()
    if s and s[-1].upper() in mult:
        return int(float(s[:-1]) * mult[s[-1].upper()])
    return int(s)


def main(argv):
    lo, hi, rounds, data = 1 << 20, 1 << 30, 5, None
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("--min", "--max", "--rounds", "--data") and i + 1 < len(argv):
            v = argv[i + 1]
            if a == "--min":
                lo = parse_size(v)
            elif a == "--max":
                hi = parse_size(v)
            elif a == "--rounds":
                rounds = max(1, int(v))
            else:
                data = v
            i += 2
        else:
            print(__doc__)
            return 2
    try:
        import torch
    except Exception as e:  # noqa: BLE001 - any import failure means no anchor
        print("cuda (torch): torch is not installed here (%s): no CUDA anchor" % e)
        return 0
    if not torch.cuda.is_available():
        print("cuda (torch %s): no CUDA device: no CUDA anchor" % torch.__version__)
        return 0
    dev = torch.device("cuda:0")
    cudart = None
    try:
        cudart = torch.cuda.cudart()
        if not hasattr(cudart, "cudaHostRegister"):
            cudart = None
    except Exception:  # noqa: BLE001
        cudart = None
    print("cuda (torch %s, CUDA %s): %s; GB/s, medians of %d" %
          (torch.__version__, torch.version.cuda, torch.cuda.get_device_name(dev), rounds))
    print("%-8s %-5s %10s %10s %10s" % ("size", "dir", "pageable", "pinned", "registered"))

    def timed(fn):
        ts = []
        fn()  # warm up
        torch.cuda.synchronize(dev)
        for _ in range(rounds):
            torch.cuda.synchronize(dev)
            t0 = time.perf_counter()
            fn()
            torch.cuda.synchronize(dev)
            ts.append(time.perf_counter() - t0)
        ts.sort()
        return ts[len(ts) // 2]

    def human(n):
        if n >= 1 << 30 and n % (1 << 30) == 0:
            return "%d GiB" % (n >> 30)
        if n >= 1 << 20:
            return "%d MiB" % (n >> 20)
        return "%d KiB" % (n >> 10)

    rows = []
    n = lo
    while n <= hi:
        gpu = torch.empty(n, dtype=torch.uint8, device=dev)
        cpu = torch.empty(n, dtype=torch.uint8)  # pageable
        cpu.fill_(1)
        pin = torch.empty(n, dtype=torch.uint8).pin_memory()
        pin.fill_(2)
        g = {}
        g["h2d_pageable"] = n / timed(lambda: gpu.copy_(cpu)) / 1e9
        g["d2h_pageable"] = n / timed(lambda: cpu.copy_(gpu)) / 1e9
        g["h2d_pinned"] = n / timed(lambda: gpu.copy_(pin, non_blocking=True)) / 1e9
        g["d2h_pinned"] = n / timed(lambda: pin.copy_(gpu, non_blocking=True)) / 1e9
        g["h2d_registered"] = g["d2h_registered"] = 0.0
        if cudart is not None:
            reg = torch.empty(n, dtype=torch.uint8)
            reg.fill_(3)
            rc = cudart.cudaHostRegister(reg.data_ptr(), n, 0)
            if int(rc) == 0 or str(rc).endswith("cudaSuccess"):
                g["h2d_registered"] = n / timed(lambda: gpu.copy_(reg, non_blocking=True)) / 1e9
                g["d2h_registered"] = n / timed(lambda: reg.copy_(gpu, non_blocking=True)) / 1e9
                cudart.cudaHostUnregister(reg.data_ptr())
            del reg
        for d in ("h2d", "d2h"):
            print("%-8s %-5s %10.2f %10.2f %10.2f" % (human(n), "write" if d == "h2d" else "read",
                                                      g[d + "_pageable"], g[d + "_pinned"], g[d + "_registered"]))
        sys.stdout.flush()
        rows.append((n, g))
        del gpu, cpu, pin
        n *= 2
    if data:
        with open(data, "w") as f:
            f.write("# pageable_cuda: torch %s, %s\n" % (torch.__version__, torch.cuda.get_device_name(dev)))
            f.write("# bytes  h2d_pageable h2d_pinned h2d_registered  d2h_pageable d2h_pinned d2h_registered\n")
            for n, g in rows:
                f.write("%d  %.4f %.4f %.4f  %.4f %.4f %.4f\n" % (n, g["h2d_pageable"], g["h2d_pinned"],
                                                                 g["h2d_registered"], g["d2h_pageable"],
                                                                 g["d2h_pinned"], g["d2h_registered"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
