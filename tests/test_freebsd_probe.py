"""``sbcbench probe --sysroot CAPTURE --json`` on captures of real FreeBSD machines (public
outputs, see each ``.source.txt`` under ``tests/data/freebsd``): what each machine's outputs say,
read by the same code that reads a live FreeBSD machine, with the traps real outputs carry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers import cli
from pytest_sbcbench.platform.board import builtin_profiles, detect, merge
from pytest_sbcbench.platform.freebsd import parse_dmesg, parse_sysctl
from pytest_sbcbench.platform.freebsd.identity import squeeze
from pytest_sbcbench.platform.probe import probe
from pytest_sbcbench.platform.sysroot import Sysroot

DATA = Path(__file__).parent / "data" / "freebsd"
MACBOOK_2415M = DATA / "macbookpro8-1_i5-2415m_freebsd-13.1_zfs"
MACBOOK_2435M = DATA / "macbookpro8-1_i5-2435m_freebsd-13.0"
T420S = DATA / "thinkpad-t420s_i5-2520m_excerpts"
DELL = DATA / "dell-inspiron-5559_i5-6200u_opnsense-20.7"
RPI3 = DATA / "rpi3b-plus_cortex-a53_freebsd-12.2"
RPI4 = DATA / "rpi4_cortex-a72_freebsd-13.0-current"
LX2160A = DATA / "lx2160a-clearfog-cx_cortex-a72_freebsd-14.0-current"
VBOX = DATA / "virtualbox-vm_kenv"


def probed(capture: Path) -> dict[str, Any]:
    code, out = cli("probe", "--sysroot", str(capture), "--json")
    assert code == 0
    facts: dict[str, Any] = json.loads(out)
    return facts


def test_the_sandy_bridge_macbook_gives_its_model_cpus_release_and_isa() -> None:
    """MacBookPro8,1 with the i5-2415M (Sandy Bridge, 2 cores x 2 threads) on FreeBSD 13.1 with
    ZFS on root: everything its boot messages say; no clock or temperature (its capture holds
    no sysctl output, and the probe says so rather than guess)."""
    facts = probed(MACBOOK_2415M)
    assert facts["cpu_model"] == "Intel(R) Core(TM) i5-2415M CPU @ 2.30GHz"
    assert (facts["cpus"], facts["arch"], facts["machine_arch"]) == (4, "x86_64", "amd64")
    assert (facts["kernel"], facts["os"]) == ("13.1-RELEASE-p4", "FreeBSD 13.1-RELEASE-p4")
    assert {"aes", "pclmulqdq", "avx", "sse4_2", "popcnt", "xsave"} <= set(facts["features"])
    assert "avx2" not in facts["features"] and "sha_ni" not in facts["features"]
    assert facts["feature_family"] == "x86"
    assert facts["accel"]["aes"] and facts["accel"]["pmull"] and not facts["accel"]["sha256"]
    assert facts["accel_from"]["aes"] == ["aes"]
    assert facts["tsc_mhz"] == 2294.91
    assert facts["root_mount"] == "zfs:casa/ROOT/default"
    assert facts["board_model"] == "Apple SMC MacBook Pro (early 2011, 13-inch)"
    assert {(c["driver"], c["kind"]) for c in facts["kernel_crypto"]} == {("aesni0", "cpu")}
    assert facts["cur_mhz"] == [None] * 4 and facts["cpu_temp_c"] == [None] * 4
    assert facts["sources"]["sysctl"] is False and facts["sources"]["dmesg_boot"] is True
    assert "no sysctl-a.txt in the capture" in facts["missing_sources"]["sysctl"]


def test_the_macbookpro8_1_profile_matches_the_macbook_and_its_facts_hold() -> None:
    """The Apple SMC driver's description (given to SMBIOS product MacBookPro8,1 only) names the
    board; the profile's must-have features are in the boot messages, its must-not-have not."""
    profiles = merge(builtin_profiles())
    found = probe(Sysroot(MACBOOK_2415M))
    board = detect(found, profiles)
    assert board.name == "macbookpro8-1"
    features = set(probed(MACBOOK_2415M)["features"])
    assert set(board.facts["must_have"]) <= features
    assert not set(board.facts["must_not_have"]) & features
    # the other MacBookPro8,1 did not load the SMC driver: nothing in its outputs names the
    # machine, so it is not presumed to be one (its CPU is the profile's i5-2435M)
    other = probe(Sysroot(MACBOOK_2435M))
    assert other.cpu_model == "Intel(R) Core(TM) i5-2435M CPU @ 2.40GHz"
    assert detect(other, profiles).name == "generic-x86_64"


def test_the_smbios_product_comes_from_kenv() -> None:
    """``kenv`` carries the SMBIOS strings (here a VirtualBox VM's, the only public FreeBSD
    ``kenv`` output found): they are the probe's DMI product and vendor, which board profiles
    match (``match.dmi_product``: a MacBookPro8,1's would read ``MacBookPro8,1``)."""
    found = probe(Sysroot(VBOX))
    assert (found.dmi_product, found.dmi_vendor, found.board_model) == (
        "VirtualBox", "innotek GmbH", "VirtualBox")
    assert found.cpus == 1 and found.cpu_model == "unknown"  # nothing else was captured
    assert detect(found, merge(builtin_profiles())).generic


def test_the_thinkpad_gives_its_delivered_clock_and_core_temperature() -> None:
    """ThinkPad T420s (i5-2520M): its sysctl excerpt has CPU 0's clock (800 MHz delivered, top
    2500: the 2501 level is Intel's turbo marker) and temperature (coretemp), and the ACPI
    zone; its dmesg excerpt the model and the CPU count.  CPU 1's entries are not public."""
    facts = probed(T420S)
    assert facts["cpu_model"] == "Intel(R) Core(TM) i5-2520M CPU @ 2.50GHz"
    assert facts["cpus"] == 2
    assert facts["arch"] == "x86_64"  # "K8-class CPU": an amd64 kernel
    assert facts["cur_mhz"] == [800.0, None]
    assert facts["max_mhz"] == [2500.0, None]
    assert facts["cpu_temp_c"] == [49.0, None]
    assert facts["temps_c"] == {"cpu0": 49.0, "acpi-tz0": 49.1}
    assert facts["clusters"] == [{"policy": "dev.cpu", "cpus": [0], "max_mhz": 2500.0,
                                  "governor": None}]
    assert facts["features"] == [] and "partial dmesg.boot" in facts["notes"][0]


def test_a_dmesg_with_three_boots_is_read_for_the_last_one_only() -> None:
    """The Dell's dmesg.boot kept three boots (12.1-p8 twice at 4278.87 and 4281.13 MHz, then
    12.1-p9 #4 at 4096.26 MHz): the running kernel is the last one."""
    facts = probed(DELL)
    assert facts["kernel"] == "12.1-RELEASE-p9-HBSD"
    assert facts["tsc_mhz"] == 4096.26
    assert facts["cpus"] == 4 and facts["cpu_model"] == "Intel(R) Core(TM) i5-6200U CPU @ 2.30GHz"
    assert {"aes", "avx2", "rdrand", "rdseed", "sgx", "fma"} <= set(facts["features"])
    assert facts["accel"]["vector"] and "sha_ni" not in facts["features"]
    text = (DELL / "dmesg.boot").read_text()
    assert text.count("---<<BOOT>>---") == 3 and "4278.87-MHz" in text


def test_the_raspberry_pi_3_clock_and_temperature_are_only_under_hw_cpufreq() -> None:
    """bcm2835_cpufreq prints one ARM clock in Hz and the SoC temperature in thousandths of a
    degree; the Cortex-A53 of the BCM2837 has no crypto extensions; ``Trying to mount root``
    is printed between the two Instruction Set Attributes lines."""
    facts = probed(RPI3)
    assert (facts["arch"], facts["machine_arch"], facts["cpus"]) == ("aarch64", "aarch64", 4)
    assert facts["cpu_model"] == "ARM Cortex-A53 r0p4"
    assert facts["kernel"] == "12.2-RELEASE"
    assert facts["cur_mhz"] == [600.0] * 4
    assert facts["temps_c"] == {"soc": 43.47} and facts["cpu_temp_c"] == [None] * 4
    assert facts["features"] == ["asimd", "crc32", "fp"]
    assert not facts["accel"]["aes"] and not facts["accel"]["pmull"] and facts["accel"]["vector"]
    assert facts["feature_family"] == "arm"


def test_the_raspberry_pi_4_has_no_crypto_extensions() -> None:
    facts = probed(RPI4)
    assert (facts["cpu_model"], facts["cpus"], facts["kernel"]) == (
        "ARM Cortex-A72 r0p3", 4, "13.0-CURRENT")
    assert "crc32" in facts["features"] and "aes" not in facts["features"]


def test_the_lx2160a_cpu_lines_interleaved_with_other_devices_are_all_read() -> None:
    """16 Cortex-A72 cores; ``pass0: 600.000MB/s transfers Instruction Set Attributes 1`` and
    ``Root mount waiting for:CPU 14: ...`` share lines with other devices' messages."""
    facts = probed(LX2160A)
    assert (facts["cpus"], facts["cpu_model"], facts["kernel"]) == (
        16, "ARM Cortex-A72 r0p3", "14.0-CURRENT")
    assert {"aes", "pmull", "sha1", "sha2", "crc32", "asimd", "fp"} <= set(facts["features"])
    assert facts["accel"]["aes"] and facts["accel"]["sha256"] and not facts["accel"]["sha512"]
    assert facts["max_mhz"] == [2000.0] * 16  # "cpuN: Nominal frequency 2000Mhz"
    assert {c["driver"] for c in facts["kernel_crypto"]} == {"armv8crypto0"}
    boot = parse_dmesg((LX2160A / "dmesg.boot").read_text())
    assert sorted(boot.cpu_models) == list(range(16))
    assert boot.arm_id["Instruction Set Attributes 1"] == ()


def test_the_plain_probe_prints_the_freebsd_facts() -> None:
    code, out = cli("probe", "--sysroot", str(T420S))
    assert code == 0
    assert "i5-2520M" in out
    lines = {line.split("  ")[0]: line.split("  ")[-1].strip() for line in out.splitlines()}
    assert lines["cur mhz"] == "800, n/a" and lines["temps c"] == "cpu0 49, acpi-tz0 49.1"


def test_a_padded_hw_model_reads_as_one_name() -> None:
    """``hw.model`` as FreeBSD printed it on a Xeon X3220 (dankamongmen/notcurses#1284, a
    user's ``sysctl`` output): runs of spaces inside the brand string."""
    entries = parse_sysctl("hw.machine: amd64\n"
                           "hw.model: Intel(R) Xeon(R) CPU           X3220  @ 2.40GHz\n"
                           "hw.ncpu: 4\nhw.machine_arch: amd64\n")
    assert squeeze(entries["hw.model"]) == "Intel(R) Xeon(R) CPU X3220 @ 2.40GHz"
    assert entries["hw.ncpu"] == "4"


def test_values_that_run_over_several_lines_stay_one_value() -> None:
    """``sysctl -a`` as the FreeBSD Handbook prints it (6.2-RELEASE-p9): ``kern.version``
    runs over two lines and ends in a blank one."""
    text = ("kern.ostype: FreeBSD\n"
            "kern.osrelease: 6.2-RELEASE-p9\n"
            "kern.osrevision: 199506\n"
            "kern.version: FreeBSD 6.2-RELEASE-p9 #0: Thu Nov 29 04:07:33 UTC 2007\n"
            "    root@i386-builder.daemonology.net:/usr/obj/usr/src/sys/GENERIC\n"
            "\n"
            "kern.maxvnodes: 17517\n")
    entries = parse_sysctl(text)
    assert entries["kern.version"] == ("FreeBSD 6.2-RELEASE-p9 #0: Thu Nov 29 04:07:33 UTC 2007"
                                       "\n    root@i386-builder.daemonology.net:/usr/obj/usr/"
                                       "src/sys/GENERIC")
    assert entries["kern.maxvnodes"] == "17517" and len(entries) == 5


def test_names_with_spaces_are_names() -> None:
    entries = parse_sysctl((RPI3 / "sysctl-a.txt").read_text())
    assert entries["kern.timecounter.tc.ARM MPCore Timecounter.frequency"] == "19200000"
    assert entries["kern.clockrate"] == "{ hz = 1000, tick = 1000, profhz = 8129, stathz = 127 }"
    assert len(entries) == 74


@pytest.mark.parametrize("capture", [MACBOOK_2415M, MACBOOK_2435M, T420S, DELL, RPI3, RPI4,
                                     LX2160A], ids=lambda p: p.name)
def test_every_capture_probes_as_freebsd_and_is_documented(capture: Path) -> None:
    facts = probed(capture)
    assert facts["os_family"] == "FreeBSD" and facts["cpus"] >= 2
    for data in [p for p in capture.iterdir() if not p.name.endswith(".source.txt")]:
        source = capture / f"{data.name.removesuffix('.txt')}.source.txt"
        assert source.is_file(), f"{data} has no {source.name}"
