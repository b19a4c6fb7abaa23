"""Write baselines/published/*.json: the numbers the seeds publish, exactly as published.

    python3 scripts/make_published.py

Each file is one machine in the results schema (sbcbench-results/1), with provenance per result
(source document, review date, tool and toolchain as stated). Identities carry the workload,
block size and thread count, so the 2026 16 KiB single-thread figures are never ranked with the
older 8192-byte or -multi tables. Units: MB/s -> B/s x 1e6; openssl "k" -> x 1000.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "baselines" / "published"
S000 = ("seeds/000_92842c6e9e7f1807.txt", "Pine64 Star64 review, A.C. Jokela", "2026-09-09")
S001 = ("seeds/001_242476a0d56cea58.txt", "FreeBSD on a 2011 MacBook Pro review, A.C. Jokela",
        "2026-08-29")
S003 = ("seeds/003_d62a24f05ea16c01.txt", "openssl speed across seven ARM and x86 devices",
        "undated (OpenSSL 1.0.0/1.0.1 era)")
S004 = ("seeds/004_c7851f618b3dd111.txt", "openssl speed rsa/aes to choose an HTTPS server",
        "undated (OpenSSL 1.0 era)")
FLEET_NOTE = "archived October 2025 fleet sweep, rustc 1.90/1.91 (board-by-board not stated)"

# machine -> (title, soc, cores, all-core sustained clock MHz, arch)
MACHINES = {
    "nanopc-t6n": ("NanoPC-T6N", "Rockchip RK3588", 8, None, "arm64"),
    "orangepi5-max": ("Orange Pi 5 Max", "Rockchip RK3588", 8, None, "arm64"),
    "rpi-cm5": ("Raspberry Pi CM5", "BCM2712", 4, 2400, "arm64"),
    "lattepanda-iota": ("LattePanda IOTA", "Intel N150", 4, None, "x86_64"),
    "rpi5": ("Raspberry Pi 5", "BCM2712", 4, 2400, "arm64"),
    "macbookpro8-1": ("MacBookPro8,1 (FreeBSD)", "Core i5-2435M", 2, 2800, "x86_64"),
    "bananapi-cm5-pro": ("Banana Pi CM5-Pro", "RK3576", 8, None, "arm64"),
    "horizon-x3-cm": ("Horizon X3 CM", "Sunrise X3 (A53)", 4, None, "arm64"),
    "orangepi-rv2": ("Orange Pi RV2", "Ky X1 (RISC-V)", 8, None, "riscv64"),
    "star64": ("Pine64 Star64", "StarFive JH7110", 4, 1500, "riscv64"),
    "milkv-mars": ("Milk-V Mars", "StarFive JH7110", 4, 1500, "riscv64"),
}
PINNED = {"workload": "ballistics-engine", "commit": "2821bba", "tier": "pinned", "files": 43,
          "loc": 16639, "crates": 144, "build": "cargo build --release"}
HEAD = {"workload": "ballistics-engine", "commit": "b0cfcd4", "tier": "head", "files": 196,
        "loc": 155867, "build": "cargo build --release"}
# machine -> (mean s, runs or None, toolchain, source)
COMPILE_PINNED = {
    "nanopc-t6n": (52.55, None, FLEET_NOTE, S001), "orangepi5-max": (62.31, None, FLEET_NOTE, S001),
    "rpi-cm5": (71.04, None, FLEET_NOTE, S001), "lattepanda-iota": (72.21, None, FLEET_NOTE, S001),
    "rpi5": (76.65, None, FLEET_NOTE, S001),
    "macbookpro8-1": (131.00, [127.78, 131.33, 133.87], "rustc 1.98.0", S001),
    "bananapi-cm5-pro": (167.15, None, FLEET_NOTE, S001),
    "horizon-x3-cm": (378.81, None, FLEET_NOTE, S001),
    "orangepi-rv2": (650.60, None, FLEET_NOTE, S001),
    "star64": (461.28, [458.17, 463.08, 462.59], "rustc 1.98.1", S000),
    "milkv-mars": (458.00, None, "rustc 1.98.1", S000),
}
COMPILE_HEAD = {  # machine -> (mean, runs, crates, toolchain, source)
    "star64": (2931.88, [2933.59, 2927.88, 2934.15], 243, "rustc 1.98.1", S000),
    "milkv-mars": (2932.35, None, 243, "rustc 1.98.1", S000),
    "macbookpro8-1": (714.18, [711.95, 718.60, 712.00], 246, "rustc 1.98.0", S001),
}
CRYPTO_16K = {  # algorithm -> MB/s for (star64, macbookpro8-1, nanopc-t6n A76)
    "aes-128-gcm": (21.7, 1112.4, 2185.7), "aes-256-gcm": (17.9, 988.2, 1763.9),
    "aes-128-cbc": (31.4, 575.6, 1831.8), "sha256": (35.4, 251.8, 1429.4),
    "sha512": (63.5, 361.2, 376.1), "chacha20-poly1305": (51.0, 761.9, 674.4),
}
CRYPTO_OPENSSL = {"star64": "OpenSSL 3.x", "macbookpro8-1": "OpenSSL 3.5.6",
                  "nanopc-t6n": "OpenSSL 3.x (NanoPC-T6N review figures)"}
RATES = {  # machine -> {(algorithm, op): per second}
    "star64": {("rsa2048", "sign"): 66.5, ("ecdsa-p256", "sign"): 211.2},
    "nanopc-t6n": {("rsa2048", "sign"): 269.6, ("ecdsa-p256", "sign"): 16917.2},
    "macbookpro8-1": {("rsa2048", "sign"): 743.7, ("rsa2048", "verify"): 24962.0,
                      ("ecdsa-p256", "sign"): 22696.0, ("ecdsa-p256", "verify"): 7426.0},
}


def result(machine: str, metric: str, unit: str, better: str, identity: dict[str, Any],
           samples: list[float], source: tuple[str, str, str], **provenance: Any) -> dict[str, Any]:
    mean = statistics.fmean(samples)
    stdev = statistics.stdev(samples) if len(samples) > 1 else 0.0
    key = "-".join(str(v) for k, v in sorted(identity.items()) if k in
                   ("algorithm", "op", "threads", "commit", "block_bytes", "method"))
    return {
        "test": f"published::{machine}::{metric}[{key}]", "metric": metric, "unit": unit,
        "better": better, "identity": {"tool": "published", **identity}, "samples": samples,
        "summary": {"n": len(samples), "mean": mean, "median": statistics.median(samples),
                    "stdev": stdev, "cv": stdev / mean if mean else 0.0},
        "telemetry": {}, "verdict": {"status": "no-baseline", "detail": "published figure"},
        "provenance": {"source": source[0], "document": source[1], "review_date": source[2],
                       **provenance},
    }


def seeds_2026() -> dict[str, list[dict[str, Any]]]:
    files: dict[str, list[dict[str, Any]]] = {m: [] for m in MACHINES}
    for m, (mean, runs, toolchain, src) in COMPILE_PINNED.items():
        files[m].append(result(m, "build-time", "s", "lower", dict(PINNED), runs or [mean], src,
                               toolchain=toolchain, published_mean=mean))
    for m, (mean, runs, crates, toolchain, src) in COMPILE_HEAD.items():
        files[m].append(result(m, "build-time", "s", "lower", {**HEAD, "crates": crates},
                               runs or [mean], src, toolchain=toolchain, published_mean=mean))
    crypto_id = {"workload": "openssl speed -evp", "block_bytes": 16384, "threads": 1}
    for algorithm, values in CRYPTO_16K.items():
        for m, mbs in zip(("star64", "macbookpro8-1", "nanopc-t6n"), values, strict=True):
            src = S001 if m == "macbookpro8-1" else S000
            files[m].append(result(m, algorithm, "B/s", "higher",
                                   {**crypto_id, "algorithm": algorithm}, [mbs * 1e6], src,
                                   openssl=CRYPTO_OPENSSL[m], published=f"{mbs} MB/s"))
    files["macbookpro8-1"].append(result(
        "macbookpro8-1", "aes-128-cbc", "B/s", "higher",
        {**crypto_id, "algorithm": "aes-128-cbc", "aesni": "disabled"}, [296.9e6], S001,
        openssl="OpenSSL 3.5.6", published="296.9 MB/s with AES-NI disabled"))
    for m, rates in RATES.items():
        for (algorithm, op), value in rates.items():
            src = S001 if m == "macbookpro8-1" else S000
            files[m].append(result(m, algorithm, "op/s", "higher",
                                   {"workload": "openssl speed", "algorithm": algorithm,
                                    "op": op, "threads": 1}, [value], src,
                                   openssl=CRYPTO_OPENSSL[m]))
    scaling = {"star64": ("sysbench 0.4.12 cpu", [(1, 246.96), (2, 494.19), (4, 970.90)], S000),
               "macbookpro8-1": ("stress-ng --cpu matrixprod",
                                 [(1, 1378.90), (2, 2077.40), (4, 2077.78)], S001)}
    for m, (tool, points, src) in scaling.items():
        for threads, rate in points:
            files[m].append(result(m, "scaling", "op/s", "higher",
                                   {"workload": tool, "threads": threads}, [rate], src))
    return files


def environment(machine: str, title: str, soc: str, cores: int, mhz: int | None,
                arch: str) -> dict[str, Any]:
    return {"arch": arch, "cpu_model": soc, "cpus": cores, "physical_cores": cores,
            "board_model": title, "soc": soc, "sustained_mhz": mhz}


def write(machine: str, env: dict[str, Any], results: list[dict[str, Any]]) -> None:
    doc = {"schema": "sbcbench-results/1", "board": machine, "created": "published",
           "environment": env, "results": results}
    (OUT / f"{machine}.json").write_text(json.dumps(doc, indent=1) + "\n")


SEED003 = {  # device -> (arch, MHz, openssl version)
    "core-i7-2600k": ("x86-64", 3400, "1.0.1c"), "core2-u7300": ("x86-64", 1300, "1.0.1c"),
    "exynos-5250": ("armv7a (a15)", 1700, "1.0.1c"), "exynos-4210": ("armv7a (a9)", 1000, "1.0.0f"),
    "imx515": ("armv7a (a8)", 800, "1.0.1a"), "am335x": ("armv7a (a8)", 720, "1.0.0i"),
    "feroceon-88fr131": ("armv5te", 1200, "1.0.0d"),
}
# algorithm -> 8192-byte column, 1000s of bytes per second, in SEED003's device order
TABLE003 = {
    "md4": (1111896, 393198, 328471, 205906, 143746, 103068, 119367),
    "md5": (693969, 249301, 224040, 148089, 85401, 53365, 86518),
    "sha1": (721528, 222770, 147739, 71233, 49525, 35446, 38123),
    "aes-128-cbc": (127378, 95955, 65360, 22386, 16477, 10876, 11697),
    "aes-192-cbc": (106141, 81002, 55973, 18653, 13912, 9221, 9968),
    "aes-256-cbc": (90487, 69148, 48564, 16419, 12091, 7981, 8677),
    "sha256": (216766, 86791, 64334, 23427, 18148, 12022, 13040),
    "sha512": (336729, 135935, 31126, 8877, 5321, 2484, 3221),
}


def seeds_003() -> None:
    for i, (device, (arch, mhz, version)) in enumerate(SEED003.items()):
        results = [result(device, alg, "B/s", "higher",
                          {"workload": "openssl speed", "algorithm": alg, "block_bytes": 8192,
                           "threads": 1, "source": "seed-003"}, [row[i] * 1000.0], S003,
                          openssl=version, published=f"{row[i]}k")
                   for alg, row in TABLE003.items()]
        write(device, {"arch": arch, "cpu_model": device, "sustained_mhz": mhz,
                       "openssl": version}, results)


SEED004 = {  # device -> (processor, threads used, rsa sign/verify by bits, aes-cbc 8192 k)
    "centrino-laptop": ("Intel Centrino 1.86 GHz (1 core)", 1,
                        {512: (2181.3, 26300.9), 1024: (378.0, 7757.5), 2048: (55.4, 2051.8),
                         4096: (7.7, 500.5)}, {128: 88764.19, 192: 75302.75, 256: 65156.64}),
    "archer-c7-v2": ("Qualcomm Atheros QCA9558 720MHz", 1,
                     {512: (433.1, 4575.5), 1024: (75.3, 1466.3), 2048: (11.8, 446.4),
                      4096: (1.8, 123.5)}, {128: 12883.03, 192: 11197.58, 256: 9747.93}),
    "qnap-ts-220": ("Marvell 1.6GHz", 1,
                    {512: (111.6, 1523.8), 1024: (23.7, 543.1), 2048: (4.4, 169.7),
                     4096: (0.7, 49.1)}, {128: 7837.67, 192: 6723.79, 256: 5893.89}),
    "asustor-as-304t": ("Intel Evansport CE5335 2C/4T Atom 1.6 GHz", 4,
                        {512: (1476.9, 16417.5), 1024: (263.1, 5253.8), 2048: (41.6, 1515.2),
                         4096: (6.1, 424.4)}, {128: 72268.65, 192: 61422.21, 256: 54299.59}),
    "rpi2-model-b": ("900MHz quad-core ARM Cortex-A7", 4,
                     {512: (2077.0, 21800.1), 1024: (388.9, 7002.5), 2048: (58.7, 1905.1),
                      4096: (7.9, 484.2)}, {128: 58056.70, 192: 49905.66, 256: 44212.22}),
}


def seeds_004() -> None:
    for device, (cpu, threads, rsa, aes) in SEED004.items():
        base = {"workload": "openssl speed", "threads": threads, "source": "seed-004"}
        results = []
        for bits, (sign, verify) in rsa.items():
            for op, value in (("sign", sign), ("verify", verify)):
                command = "openssl speed rsa" + (" -multi 4" if threads > 1 else "")
                results.append(result(device, f"rsa{bits}", "op/s", "higher",
                                      {**base, "algorithm": f"rsa{bits}", "op": op}, [value], S004,
                                      command=command))
        for bits, kilo in aes.items():
            results.append(result(device, f"aes-{bits}-cbc", "B/s", "higher",
                                  {**base, "algorithm": f"aes-{bits}-cbc", "block_bytes": 8192},
                                  [kilo * 1000.0], S004, published=f"{kilo}k"))
        write(device, {"cpu_model": cpu, "threads_used": threads}, results)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for machine, results in seeds_2026().items():
        write(machine, environment(machine, *MACHINES[machine]), results)
    seeds_003()
    seeds_004()
    print(f"wrote {len(list(OUT.glob('*.json')))} files to {OUT}")


if __name__ == "__main__":
    main()
