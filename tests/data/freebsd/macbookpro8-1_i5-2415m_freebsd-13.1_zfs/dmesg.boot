Copyright (c) 02B2-369B The FreeBSD Project.
Copyright (c) 1979, 1980, 1983, 1986, 1988, 1989, 1991, 1992, 1993, 1994
	The Regents of the University of California. All rights reserved.
FreeBSD is a registered trademark of The FreeBSD Foundation.
FreeBSD 13.1-RELEASE-p4 releng/13.1-95499c456 GENERIC amd64
FreeBSD clang version 13.0.0 (XXX@XXX:llvm/llvm-project.git llvmorg-13.0.0-0-gd7b669b3a303)
VT(efifb): resolution 1280x800
module_register: cannot register tmpfs from kernel; already loaded from tmpfs.ko
Module tmpfs failed to register: 17
CPU: Intel(R) Core(TM) i5-2415M CPU @ 2.30GHz (2294.91-MHz K8-class CPU)
  Origin="GenuineIntel"  Id=0x206a7  Family=0x6  Model=0x2a  Stepping=7
  Features=0xbfebfbff<FPU,VME,DE,PSE,TSC,MSR,PAE,MCE,CX8,APIC,SEP,MTRR,PGE,MCA,CMOV,PAT,PSE36,CLFLUSH,DTS,ACPI,MMX,FXSR,SSE,SSE2,SS,HTT,TM,PBE>
  Features2=0x1fbae3bf<SSE3,PCLMULQDQ,DTES64,MON,DS_CPL,VMX,EST,TM2,SSSE3,CX16,xTPR,PDCM,PCID,SSE4.1,SSE4.2,x2APIC,POPCNT,TSCDLT,AESNI,XSAVE,OSXSAVE,AVX>
  AMD Features=0x28100800<SYSCALL,NX,RDTSCP,LM>
  AMD Features2=0x1<LAHF>
  Structured Extended Features3=0x9c000400<MD_CLEAR,IBPB,STIBP,L1DFL,SSBD>
  XSAVE Features=0x1<XSAVEOPT>
  VT-x: PAT,HLT,MTF,PAUSE,EPT,UG,VPID
  TSC: P-state invariant, performance statistics
real memory  = 8589934592 (8192 MB)
avail memory = 8158294016 (7780 MB)
Event timer "LAPIC" quality 600
ACPI APIC Table: <APPLE  Apple00>
FreeBSD/SMP: Multiprocessor System Detected: 4 CPUs
FreeBSD/SMP: 1 package(s) x 2 core(s) x 2 hardware threads
random: unblocking device.
ioapic0: MADT APIC ID 2 != hw id 0
ioapic0 <Version 2.0> irqs 0-23
Launching APs: 1 3 2
Cuse v0.1.36 @ /dev/cuse
random: entropy device external interface
kbd0 at kbdmux0
efirtc0: <EFI Realtime Clock>
efirtc0: registered as a time-of-day clock, resolution 1.000000s
smbios0: <System Management BIOS> at iomem 0x8ad3b000-0x8ad3b01e
smbios0: Version: 2.4, BCD Revision: 2.4
aesni0: <AES-CBC,AES-CCM,AES-GCM,AES-ICM,AES-XTS>
acpi0: <APPLE Apple00>
acpi_ec0: <Embedded Controller: GPE 0x17, ECDT> port 0x62,0x66 on acpi0
acpi0: Power Button (fixed)
hpet0: <High Precision Event Timer> iomem 0xfed00000-0xfed003ff on acpi0
Timecounter "HPET" frequency 14318180 Hz quality 950
Event timer "HPET" frequency 14318180 Hz quality 550
Event timer "HPET1" frequency 14318180 Hz quality 440
Event timer "HPET2" frequency 14318180 Hz quality 440
Event timer "HPET3" frequency 14318180 Hz quality 440
Event timer "HPET4" frequency 14318180 Hz quality 440
cpu0: <ACPI CPU> on acpi0
atrtc0: <AT realtime clock> port 0x70-0x77 irq 8 on acpi0
atrtc0: Warning: Couldn't map I/O.
atrtc0: registered as a time-of-day clock, resolution 1.000000s
Event timer "RTC" frequency 32768 Hz quality 0
attimer0: <AT timer> port 0x40-0x43,0x50-0x53 irq 0 on acpi0
Timecounter "i8254" frequency 1193182 Hz quality 0
Event timer "i8254" frequency 1193182 Hz quality 100
Timecounter "ACPI-fast" frequency 3579545 Hz quality 900
acpi_timer0: <24-bit timer at 3.579545MHz> port 0x408-0x40b on acpi0
pcib0: <ACPI Host-PCI bridge> port 0xcf8-0xcff on acpi0
pci0: <ACPI PCI bus> on pcib0
pcib1: <ACPI PCI-PCI bridge> at device 1.0 on pci0
pci1: <ACPI PCI bus> on pcib1
pcib2: <ACPI PCI-PCI bridge> at device 1.1 on pci0
pci2: <ACPI PCI bus> on pcib2
vgapci0: <VGA-compatible display> port 0x2000-0x203f mem 0xa0000000-0xa03fffff,0x90000000-0x9fffffff at device 2.0 on pci0
acpi_video0: <ACPI video extension> on vgapci0
vgapci0: Boot video device
pci0: <simple comms> at device 22.0 (no driver attached)
uhci0: <UHCI (generic) USB controller> port 0x2120-0x213f at device 26.0 on pci0
uhci0: LegSup = 0x2400
usbus0 on uhci0
usbus0: 12Mbps Full Speed USB v1.0
ehci0: <Intel Cougar Point USB 2.0 controller> mem 0xa0906c00-0xa0906fff at device 26.7 on pci0
usbus1: EHCI version 1.0
usbus1 on ehci0
usbus1: 480Mbps High Speed USB v2.0
hdac0: <Intel Cougar Point HDA Controller> mem 0xa0900000-0xa0903fff at device 27.0 on pci0
pcib3: <ACPI PCI-PCI bridge> at device 28.0 on pci0
pci3: <ACPI PCI bus> on pcib3
bge0: <Broadcom BCM57765 B0, ASIC rev. 0x57785100> mem 0xa0400000-0xa040ffff,0xa0410000-0xa041ffff at device 0.0 on pci3
bge0: CHIP ID 0x57785100; ASIC REV 0x57785; CHIP REV 0x577851; PCI-E
miibus0: <MII bus> on bge0
brgphy0: <BCM57765 1000BASE-T media interface> PHY 1 on miibus0
brgphy0:  10baseT, 10baseT-FDX, 100baseTX, 100baseTX-FDX, 1000baseT, 1000baseT-master, 1000baseT-FDX, 1000baseT-FDX-master, auto, auto-flow
bge0: Using defaults for TSO: 65518/35/2048
bge0: Ethernet address: ...
sdhci_pci0: <Broadcom BCM577xx SDXC/MMC Card Reader> mem 0xa0420000-0xa042ffff at device 0.1 on pci3
sdhci_pci0: 1 slot(s) allocated
pcib4: <ACPI PCI-PCI bridge> at device 28.1 on pci0
pci4: <ACPI PCI bus> on pcib4
pci4: <network> at device 0.0 (no driver attached)
pcib5: <ACPI PCI-PCI bridge> at device 28.2 on pci0
pci5: <ACPI PCI bus> on pcib5
fwohci0: <1394 Open Host Controller Interface> mem 0xa0500000-0xa0500fff at device 0.0 on pci5
fwohci0: OHCI version 1.10 (ROM=0)
fwohci0: No. of Isochronous channels is 8.
fwohci0: EUI64 XXXX:XXXX:XXXX:XXXX:XXXX:XXXX:XXXX:XXXX
fwohci0: invalid speed 7 (fixed to 3).
fwohci0: Phy 1394a available S800, 3 ports.
fwohci0: Link S800, max_rec 4096 bytes.
firewire0: <IEEE1394(FireWire) bus> on fwohci0
sbp0: <SBP-2/SCSI over FireWire> on firewire0
fwohci0: Initiate bus reset
fwohci0: fwohci_intr_core: BUS reset
fwohci0: fwohci_intr_core: node_id=0x00000000, SelfID Count=2, CYCLEMASTER mode
firewire0: 1 nodes, maxhop <= 0 cable IRM irm(0)  (me) 
firewire0: bus manager 0 
uhci1: <UHCI (generic) USB controller> port 0x20c0-0x20df at device 29.0 on pci0
uhci1: LegSup = 0x2400
usbus2 on uhci1
usbus2: 12Mbps Full Speed USB v1.0
ehci1: <Intel Cougar Point USB 2.0 controller> mem 0xa0906800-0xa0906bff at device 29.7 on pci0
usbus3: EHCI version 1.0
usbus3 on ehci1
usbus3: 480Mbps High Speed USB v2.0
isab0: <PCI-ISA bridge> at device 31.0 on pci0
isa0: <ISA bus> on isab0
ahci0: <Intel Cougar Point AHCI SATA controller> port 0x2148-0x214f,0x215c-0x215f,0x2140-0x2147,0x2158-0x215b,0x2060-0x207f mem 0xa0906000-0xa09067ff at device 31.2 on pci0
ahci0: AHCI v1.30 with 6 6Gbps ports, Port Multiplier not supported
ahcich0: <AHCI channel> at channel 0 on ahci0
ahcich1: <AHCI channel> at channel 1 on ahci0
ahciem0: <AHCI enclosure management bridge> on ahci0
battery0: <ACPI Control Method Battery> on acpi0
acpi_acad0: <AC Adapter> on acpi0
acpi_lid0: <Control Method Lid Switch> on acpi0
acpi_button0: <Power Button> on acpi0
acpi_button1: <Sleep Button> on acpi0
asmc0: <Apple SMC MacBook Pro (early 2011, 13-inch)> port 0x300-0x31f irq 6 on acpi0
est0: <Enhanced SpeedStep Frequency Control> on cpu0
module_register_init: MOD_LOAD (tmpfs, 0xffffffff80cf7ab0, 0xffffffff818f5530) error 17
Timecounter "TSC-low" frequency 1147393522 Hz quality 1000
Timecounters tick every 1.000 msec
ZFS filesystem version: 5
ZFS storage pool version: features support (5000)
ugen1.1: <Intel EHCI root HUB> at usbus1
ugen0.1: <Intel UHCI root HUB> at usbus0
ugen3.1: <Intel EHCI root HUB> at usbus3
ugen2.1: <Intel UHCI root HUB> at usbus2
uhub0 on usbus1
uhub0: <Intel EHCI root HUB, class 9/0, rev 2.00/1.00, addr 1> on usbus1
uhub1 on usbus3
uhub1: <Intel EHCI root HUB, class 9/0, rev 2.00/1.00, addr 1> on usbus3
uhub2 on usbus2
uhub3 on usbus0
uhub3: <Intel UHCI root HUB, class 9/0, rev 1.00/1.00, addr 1> on usbus0
hdacc0: <Cirrus Logic CS4206 HDA CODEC> at cad 0 on hdac0
hdaa0: <Cirrus Logic CS4206 Audio Function Group> at nid 1 on hdacc0
pcm0: <Cirrus Logic CS4206 (Internal Analog 3.1/2.0)> at nid 11,10 and 13 on hdaa0
pcm1: <Cirrus Logic CS4206 (Analog)> at nid 9 and 12 on hdaa0
pcm2: <Cirrus Logic CS4206 (Digital)> at nid 16 on hdaa0
hdacc1: <Intel Cougar Point HDA CODEC> at cad 3 on hdac0
hdaa1: <Intel Cougar Point Audio Function Group> at nid 1 on hdacc1
hdaa1: hdaa_audio_as_parse: Duplicate pin 0 (6) in association 1! Disabling association.
hdaa1: hdaa_audio_as_parse: Duplicate pin 0 (7) in association 1! Disabling association.
uhub2: <Intel UHCI root HUB, class 9/0, rev 1.00/1.00, addr 1> on usbus2
sysctl_unregister_oid: failed(22) to unregister sysctl(tmpfs)
Trying to mount root from zfs:casa/ROOT/default []...
uhub3: 2 ports with 2 removable, self powered
uhub2: 2 ports with 2 removable, self powered
Root mount waiting for: usbus1 CAM usbus3
Root mount waiting for: usbus1 CAM usbus3
uhub0: 6 ports with 6 removable, self powered
ugen1.2: <vendor 0x0424 product 0x2513> at usbus1
uhub4 on uhub0
uhub4: <vendor 0x0424 product 0x2513, class 9/0, rev 2.00/b.b3, addr 2> on usbus1
uhub4: MTT enabled
uhub1: 8 ports with 8 removable, self powered
Root mount waiting for: usbus1 CAM usbus3
ses0 at ahciem0 bus 0 scbus3 target 0 lun 0
ses0: <AHCI SGPIO Enclosure 2.00 0001> SEMB S-E-S 2.00 device
ses0: SEMB SES Device
ada0 at ahcich0 bus 0 scbus1 target 0 lun 0
ada0: <ST9320325ASG 0009APM1> ATA8-ACS SATA 2.x device
ada0: Serial Number...
ada0: 300.000MB/s transfers (SATA 2.x, UDMA6, PIO 8192bytes)
ada0: Command Queueing enabled
ada0: 305245MB (625142448 512 byte sectors)
ses0: pass0,ada0 in 'Slot 00', SATA Slot: scbus1 target 0
ada1 at ahcich1 bus 0 scbus2 target 0 lun 0
ada1: <KINGSTON SA400S37240G S3501103> ACS-3 ATA SATA 3.x device
ada1: Serial Number...
ada1: 600.000MB/s transfers (SATA 3.x, UDMA6, PIO 512bytes)
ada1: Command Queueing enabled
ada1: 228936MB (468862128 512 byte sectors)
ses0: pass1,ada1 in 'Slot 01', SATA Slot: scbus2 target 0
uhub4: 3 ports with 0 removable, self powered
ugen3.2: <vendor 0x0424 product 0x2513> at usbus3
uhub5 on uhub1
uhub5: <vendor 0x0424 product 0x2513, class 9/0, rev 2.00/b.b3, addr 2> on usbus3
uhub5: MTT enabled
ugen1.3: <Apple Inc. BRCM2070 Hub> at usbus1
uhub6 on uhub4
uhub6: <Apple Inc. BRCM2070 Hub, class 9/0, rev 2.00/1.00, addr 3> on usbus1
uhub5: 2 ports with 1 removable, self powered
uhub6: 3 ports with 0 removable, self powered
ugen3.3: <Apple Computer, Inc. IR Receiver> at usbus3
Root mount waiting for: usbus1 usbus3
ugen1.4: <vendor 0x05ac product 0x820a> at usbus1
ukbd0 on uhub6
ukbd0: <vendor 0x05ac product 0x820a, class 0/0, rev 2.00/1.00, addr 4> on usbus1
kbd1 at ukbd0
ugen3.4: <Primax HP Wired Desktop 320K Keyboard> at usbus3
ukbd1 on uhub5
ukbd1: <Primax HP Wired Desktop 320K Keyboard, class 0/0, rev 2.00/1.19, addr 4> on usbus3
kbd2 at ukbd1
ugen1.5: <vendor 0x05ac product 0x820b> at usbus1
ugen1.6: <Apple Inc. Bluetooth USB Host Controller> at usbus1
ubt0 on uhub6
ubt0: <Apple Inc. Bluetooth USB Host Controller, rev 2.00/0.42, addr 6> on usbus1
ugen1.7: <Apple Inc. Apple Internal Keyboard / Trackpad> at usbus1
ukbd2 on uhub4
ukbd2: <Apple Internal Keyboard> on usbus1
kbd3 at ukbd2
atp0 on uhub4
Root mount waiting for: usbus1
atp0: <Touchpad> on usbus1
ugen1.8: <PixArt HP 320M USB Optical Mouse> at usbus1
Root mount waiting for: usbus1
ugen1.9: <Apple Inc. FaceTime HD Camera (Built-in)> at usbus1
drmn0: <drmn> on vgapci0
vgapci0: child drmn0 requested pci_enable_io
vgapci0: child drmn0 requested pci_enable_io
[drm] Unable to create a private tmpfs mount, hugepage support will be disabled(-19).
[drm] Got stolen memory base 0x8ba00000, size 0x4000000
sysctl_warn_reuse: can't re-use a leaf (hw.dri.debug)!
[drm] Initialized i915 1.6.0 20200917 for drmn0 on minor 0
VT: Replacing driver "efifb" with new "fb".
start FB_INFO:
type=11 height=800 width=1280 depth=32
pbase=0x90000000 vbase=0xfffff80090000000
name=drmn0 flags=0x0 stride=5120 bpp=32
end FB_INFO
ichsmb0: <Intel Cougar Point SMBus controller> port 0xefa0-0xefbf mem 0xa0907000-0xa09070ff at device 31.3 on pci0
smbus0: <System Management Bus> on ichsmb0
bwn_pci0: <Broadcom BCM4331 802.11n Dual-Band Wireless> mem 0xa0600000-0xa0603fff at device 0.0 on pci4
bhndb0: <PCI-BHND bridge> on bwn_pci0
bhndb0: Using MSI interrupts on bwn_pci0
bhnd0: <BCM4331 BCMA bus> on bhndb0
bhnd_chipc0: <Broadcom ChipCommon I/O Controller, rev 37> mem 0x18000000-0x18000fff,0x18100000-0x18100fff irq 0 at core 0 on bhnd0
bhnd_nvram0: <SPROM/OTP> mem 0x18000800-0x18000bff on bhnd_chipc0
bhnd_pmu0: <Broadcom ChipCommon PMU, rev 10> on bhnd_chipc0
gpio0: <Broadcom ChipCommon GPIO> mem 0x18000000-0x18000fff on bhnd_chipc0
bhnd_hostb0: <Broadcom PCIe-G1 Host-PCI bridge, rev 19> mem 0x18002000-0x18002fff,0x8000000-0xfffffff,0x8000000000000000-0xffffffffffffffff,0x18102000-0x18102fff,0x18103000-0x18103fff irq 2 at core 2 on bhnd0
bhnd0: <Broadcom 802.11 MAC/PHY/Radio, rev 29> mem 0x18001000-0x18001fff,0x18101000-0x18101fff irq 1 at core 1 (no driver attached)
lo1: changing name to 'bastille0'
lo0: link state changed to UP
bge0: link state changed to DOWN
bge0: link state changed to UP
uhid0 on uhub5
uhid0: <Apple Computer, Inc. IR Receiver, class 0/0, rev 2.00/0.16, addr 3> on usbus3
uhid1 on uhub5
uhid1: <Primax HP Wired Desktop 320K Keyboard, class 0/0, rev 2.00/1.19, addr 4> on usbus3
ums0 on uhub6
ums0: <vendor 0x05ac product 0x820b, class 0/0, rev 2.00/1.00, addr 5> on usbus1
ums0: 3 buttons and [XY] coordinates ID=2
ums1 on uhub4
ums1: <Touchpad> on usbus1
ums1: 3 buttons and [XY] coordinates ID=2
ums2 on uhub4
ums2: <PixArt HP 320M USB Optical Mouse, class 0/0, rev 2.00/1.00, addr 8> on usbus1
ums2: 3 buttons and [XYZ] coordinates ID=0
WARNING: attempt to domain_add(bluetooth) after domainfinalize()
WARNING: attempt to domain_add(netgraph) after domainfinalize()
ugen1.4: <vendor 0x05ac product 0x820a> at usbus1 (disconnected)
ukbd0: at uhub6, port 1, addr 4 (disconnected)
ukbd0: detached
ugen1.5: <vendor 0x05ac product 0x820b> at usbus1 (disconnected)
ums0: at uhub6, port 2, addr 5 (disconnected)
ums0: detached
pflog0: promiscuous mode enabled
