---<<BOOT>>---
KDB: debugger backends: ddb
KDB: current backend: ddb
Copyright (c) 029D-FFB2 The FreeBSD Project.
Copyright (c) 1979, 1980, 1983, 1986, 1988, 1989, 1991, 1992, 1993, 1994
	The Regents of the University of California. All rights reserved.
FreeBSD is a registered trademark of The FreeBSD Foundation.
FreeBSD 13.0-CURRENT #0 2ed50808d2b-c254384(main): Thu Nov 12 10:03:35 UTC 2020
    XXX@XXX:/usr/obj/XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX arm64
FreeBSD clang version 11.0.0 (XXX@XXX:llvm/llvm-project.git llvmorg-11.0.0-0-g176249bd673)
WARNING: WITNESS option enabled, expect reduced performance.
VT(efifb): resolution 1024x768
module firmware already present!
real memory  = 993820672 (947 MB)
avail memory = 938594304 (895 MB)
Starting CPU 1 (1)
Starting CPU 2 (2)
Starting CPU 3 (3)
FreeBSD/SMP: Multiprocessor System Detected: 4 CPUs
random: unblocking device.
random: entropy device external interface
MAP 39f47000 mode 2 pages 4
MAP 39f4c000 mode 2 pages 4
MAP 3b360000 mode 2 pages 16
MAP fe100000 mode 0 pages 1
WARNING: Device "kbd" is Giant locked and may be deleted before FreeBSD 13.0.
kbd0 at kbdmux0
WARNING: Device "openfirm" is Giant locked and may be deleted before FreeBSD 13.0.
ofwbus0: <Open Firmware Device Tree>
simplebus0: <Flattened device tree simple bus> on ofwbus0
ofw_clkbus0: <OFW clocks bus> on ofwbus0
clk_fixed0: <Fixed clock> on ofw_clkbus0
clk_fixed1: <Fixed clock> on ofw_clkbus0
simplebus1: <Flattened device tree simple bus> on ofwbus0
simplebus2: <Flattened device tree simple bus> on ofwbus0
regfix0: <Fixed Regulator> on ofwbus0
regfix1: <Fixed Regulator> on ofwbus0
psci0: <ARM Power State Co-ordination Interface Driver> on ofwbus0
gic0: <ARM Generic Interrupt Controller> mem 0x40041000-0x40041fff,0x40042000-0x40043fff,0x40044000-0x40045fff,0x40046000-0x40047fff irq 46 on simplebus0
gic0: pn 0x2, arch 0x2, rev 0x1, implementer 0x43b irqs 256
gpio0: <BCM2708/2835 GPIO controller> mem 0x7e200000-0x7e2000b3 irq 22,23 on simplebus0
gpiobus0: <OFW GPIO bus> on gpio0
mbox0: <BCM2835 VideoCore Mailbox> mem 0x7e00b880-0x7e00b8bf irq 21 on simplebus0
bcm2835_firmware0: <BCM2835 Firmware> on simplebus0
gpio1: <Raspberry Pi Firmware GPIO controller> on bcm2835_firmware0
gpiobus1: <GPIO bus> on gpio1
gpioregulator0: <GPIO controlled regulator> on ofwbus0
generic_timer0: <ARMv7 Generic Timer> irq 4,5,6,7 on ofwbus0
Timecounter "ARM MPCore Timecounter" frequency 54000000 Hz quality 1000
Event timer "ARM MPCore Eventtimer" frequency 54000000 Hz quality 1000
usb_nop_xceiv0: <USB NOP PHY> on ofwbus0
bcm_dma0: <BCM2835 DMA Controller> mem 0x7e007000-0x7e007aff irq 9,10,11,12,13,14,15,16,17,18,19 on simplebus0
bcmwd0: <BCM2708/2835 Watchdog> mem 0x7e100000-0x7e100113,0x7e00a000-0x7e00a023,0x7ec11000-0x7ec1101f on simplebus0
gpioc0: <GPIO controller> on gpio0
uart0: <PrimeCell UART (PL011)> mem 0x7e201000-0x7e2011ff irq 24 on simplebus0
uart0: console (115200,n,8,1)
spi0: <BCM2708/2835 SPI controller> mem 0x7e204000-0x7e2041ff irq 26 on simplebus0
spibus0: <OFW SPI bus> on spi0
spibus0: <unknown card> at cs 0 mode 0
spibus0: <unknown card> at cs 1 mode 0
iichb0: <BCM2708/2835 BSC controller> mem 0x7e804000-0x7e804fff irq 38 on simplebus0
sdhci_bcm0: <Broadcom 2708 SDHCI controller> mem 0x7e340000-0x7e3400ff irq 60 on simplebus0
mmc0: <MMC/SD bus> on sdhci_bcm0
sdhci_bcm1: <Broadcom 2708 SDHCI controller> mem 0x7e300000-0x7e3000ff irq 61 on simplebus0
mmc1: <MMC/SD bus> on sdhci_bcm1
gpioc1: <GPIO controller> on gpio1
fb0: <BCM2835 VT framebuffer driver> on simplebus0
fb0: keeping existing fb bpp of 32
fbd0 on fb0
WARNING: Device "fb" is Giant locked and may be deleted before FreeBSD 13.0.
VT: Replacing driver "efifb" with new "fb".
fb0: 1024x768(XXX@XXX) 32bpp
fb0: fbswap: 1, pitch 4096, base 0x3e8fa000, screen_size 3145728
cpulist0: <Open Firmware CPU Group> on ofwbus0
cpu0: <Open Firmware CPU> on cpulist0
bcm2835_cpufreq0: <CPU Frequency Control> on cpu0
cpu1: <Open Firmware CPU> on cpulist0
cpu2: <Open Firmware CPU> on cpulist0
cpu3: <Open Firmware CPU> on cpulist0
pcib0: <BCM2838-compatible PCI-express controller> mem 0x7d500000-0x7d50930f,0x7e00f300-0x7e00f31f irq 66,67 on simplebus2
pcib0: hardware identifies as revision 0x304.
pci0: <PCI bus> on pcib0
pcib1: <PCI-PCI bridge> irq 77 at device 0.0 on pci0
pcib0: Failed to translate resource 0-fffff type 3 for pcib1
pcib1: failed to allocate initial prefetch window: 0-0xfffff
pci1: <PCI bus> on pcib1
bcm_xhci0: <VL805 USB 3.0 controller (on the Raspberry Pi 4b)> irq 78 at device 0.0 on pci1
bcm_xhci0: 32 bytes context size, 64-bit DMA
usbus0 on bcm_xhci0
genet0: <RPi4 Gigabit Ethernet> mem 0x7d580000-0x7d58ffff irq 68,69 on simplebus2
genet0: GENET version 5.0 phy 0x0000
miibus0: <MII bus> on genet0
brgphy0: <BCM54213PE 1000BASE-T media interface> PHY 1 on miibus0
brgphy0:  10baseT, 10baseT-FDX, 100baseTX, 100baseTX-FDX, 1000baseT, 1000baseT-master, 1000baseT-FDX, 1000baseT-FDX-master, auto
genet0: Ethernet address: XXX
gpioled0: <GPIO LEDs> on ofwbus0
lock order reversal: (sleepable after non-sleepable)
 1st 0xffff000000c1cd58 LED mtx (LED mtx, sleep mutex) @ /usr/src/sys/dev/led/led.c:298
 2nd 0xffffa00000c0fc10 Raspberry Pi firmware gpio (Raspberry Pi firmware gpio, sx) @ /usr/src/sys/arm/broadcom/bcm2835/raspberrypi_gpio.c:252
lock order LED mtx -> Raspberry Pi firmware gpio attempted at:
#0 0xffff000000568ff4 at witness_checkorder+0xc54
#1 0xffff000000506310 at _sx_xlock+0x7c
#2 0xffff0000007de434 at rpi_fw_gpio_pin_set+0xe8
#3 0xffff000000295af4 at led_create_state+0x158
#4 0xffff000000267440 at gpioled_attach+0x290
#5 0xffff000000534fc8 at device_attach+0x400
#6 0xffff000000534b30 at device_probe_and_attach+0x7c
#7 0xffff000000536d18 at bus_generic_new_pass+0xf8
#8 0xffff000000536cc8 at bus_generic_new_pass+0xa8
#9 0xffff000000536cc8 at bus_generic_new_pass+0xa8
#10 0xffff0000005320ac at bus_set_pass+0x4c
#11 0xffff00000048ca94 at mi_startup+0x12c
uma_zalloc_debug: zone "malloc-64" with the following non-sleepable locks held:
exclusive sleep mutex LED mtx (LED mtx) r = 0 (0xffff000000c1cd58) locked @ /usr/src/sys/dev/led/led.c:298
stack backtrace:
#0 0xffff000000569314 at witness_debugger+0x64
#1 0xffff00000056a4a4 at witness_warn+0x3ec
#2 0xffff000000772f24 at uma_zalloc_debug+0x2c
#3 0xffff000000772988 at uma_zalloc_arg+0x2c
#4 0xffff0000004d1c08 at malloc+0xec
#5 0xffff0000007d35f4 at bcm2835_firmware_property+0x44
#6 0xffff0000007de44c at rpi_fw_gpio_pin_set+0x100
#7 0xffff000000295af4 at led_create_state+0x158
#8 0xffff000000267440 at gpioled_attach+0x290
#9 0xffff000000534fc8 at device_attach+0x400
#10 0xffff000000534b30 at device_probe_and_attach+0x7c
#11 0xffff000000536d18 at bus_generic_new_pass+0xf8
#12 0xffff000000536cc8 at bus_generic_new_pass+0xa8
#13 0xffff000000536cc8 at bus_generic_new_pass+0xa8
#14 0xffff0000005320ac at bus_set_pass+0x4c
#15 0xffff00000048ca94 at mi_startup+0x12c
uma_zalloc_debug: zone "malloc-16" with the following non-sleepable locks held:
exclusive sleep mutex LED mtx (LED mtx) r = 0 (0xffff000000c1cd58) locked @ /usr/src/sys/dev/led/led.c:298
stack backtrace:
#0 0xffff000000569314 at witness_debugger+0x64
#1 0xffff00000056a4a4 at witness_warn+0x3ec
#2 0xffff000000772f24 at uma_zalloc_debug+0x2c
#3 0xffff000000772988 at uma_zalloc_arg+0x2c
#4 0xffff0000004d1c08 at malloc+0xec
#5 0xffff0000007eb4e8 at bounce_bus_dmamem_alloc+0x50
#6 0xffff0000007d60cc at bcm2835_mbox_property+0xdc
#7 0xffff0000007d3628 at bcm2835_firmware_property+0x78
#8 0xffff0000007de44c at rpi_fw_gpio_pin_set+0x100
#9 0xffff000000295af4 at led_create_state+0x158
#10 0xffff000000267440 at gpioled_attach+0x290
#11 0xffff000000534fc8 at device_attach+0x400
#12 0xffff000000534b30 at device_probe_and_attach+0x7c
#13 0xffff000000536d18 at bus_generic_new_pass+0xf8
#14 0xffff000000536cc8 at bus_generic_new_pass+0xa8
#15 0xffff000000536cc8 at bus_generic_new_pass+0xa8
#16 0xffff0000005320ac at bus_set_pass+0x4c
#17 0xffff00000048ca94 at mi_startup+0x12c
uma_zalloc_debug: zone "malloc-128" with the following non-sleepable locks held:
exclusive sleep mutex LED mtx (LED mtx) r = 0 (0xffff000000c1cd58) locked @ /usr/src/sys/dev/led/led.c:298
stack backtrace:
#0 0xffff000000569314 at witness_debugger+0x64
#1 0xffff00000056a4a4 at witness_warn+0x3ec
#2 0xffff000000772f24 at uma_zalloc_debug+0x2c
#3 0xffff000000772988 at uma_zalloc_arg+0x2c
#4 0xffff0000004d1c08 at malloc+0xec
#5 0xffff0000007eb530 at bounce_bus_dmamem_alloc+0x98
#6 0xffff0000007d60cc at bcm2835_mbox_property+0xdc
#7 0xffff0000007d3628 at bcm2835_firmware_property+0x78
#8 0xffff0000007de44c at rpi_fw_gpio_pin_set+0x100
#9 0xffff000000295af4 at led_create_state+0x158
#10 0xffff000000267440 at gpioled_attach+0x290
#11 0xffff000000534fc8 at device_attach+0x400
#12 0xffff000000534b30 at device_probe_and_attach+0x7c
#13 0xffff000000536d18 at bus_generic_new_pass+0xf8
#14 0xffff000000536cc8 at bus_generic_new_pass+0xa8
#15 0xffff000000536cc8 at bus_generic_new_pass+0xa8
#16 0xffff0000005320ac at bus_set_pass+0x4c
#17 0xffff00000048ca94 at mi_startup+0x12c
uma_zalloc_debug: zone "malloc-64" with the following non-sleepable locks held:
exclusive sleep mutex LED mtx (LED mtx) r = 0 (0xffff000000c1cd58) locked @ /usr/src/sys/dev/led/led.c:298
stack backtrace:
#0 0xffff000000569314 at witness_debugger+0x64
#1 0xffff00000056a4a4 at witness_warn+0x3ec
#2 0xffff000000772f24 at uma_zalloc_debug+0x2c
#3 0xffff000000772988 at uma_zalloc_arg+0x2c
#4 0xffff0000004d1c08 at malloc+0xec
#5 0xffff0000007eb680 at bounce_bus_dmamem_alloc+0x1e8
#6 0xffff0000007d60cc at bcm2835_mbox_property+0xdc
#7 0xffff0000007d3628 at bcm2835_firmware_property+0x78
#8 0xffff0000007de44c at rpi_fw_gpio_pin_set+0x100
#9 0xffff000000295af4 at led_create_state+0x158
#10 0xffff000000267440 at gpioled_attach+0x290
#11 0xffff000000534fc8 at device_attach+0x400
#12 0xffff000000534b30 at device_probe_and_attach+0x7c
#13 0xffff000000536d18 at bus_generic_new_pass+0xf8
#14 0xffff000000536cc8 at bus_generic_new_pass+0xa8
#15 0xffff000000536cc8 at bus_generic_new_pass+0xa8
#16 0xffff0000005320ac at bus_set_pass+0x4c
#17 0xffff00000048ca94 at mi_startup+0x12c
cryptosoft0: <software crypto>
Timecounters tick every 1.000 msec
usbus0: 5.0Gbps Super Speed USB v3.0
ZFS filesystem version: 5
ZFS storage pool version: features support (5000)
ugen0.1: <0x1106 XHCI root HUB> at usbus0
uhub0 on usbus0
uhub0: <0x1106 XHCI root HUB, class 9/0, rev 3.00/1.00, addr 1> on usbus0
iicbus0: <OFW I2C bus> on iichb0
iic0: <I2C generic I/O> on iicbus0
mmcsd0: 64GB <SDHC SC64G 8.0 SN D4F9167F MFG 01/2020 by 3 SD> at mmc0 50.0MHz/4bit/65535-block
sdhci_bcm1-slot0: Got command interrupt 0x00030000, but there is no active command.
sdhci_bcm1-slot0: ============== REGISTER DUMP ==============
sdhci_bcm1-slot0: Sys addr: 0x00000000 | Version:  0x00009902
sdhci_bcm1-slot0: Blk size: 0x00000000 | Blk cnt:  0x00000000
sdhci_bcm1-slot0: Argument: 0x000001aa | Trn mode: 0x00000000
sdhci_bcm1-slot0: Present:  0x000f0000 | Host ctl: 0x00000001
sdhci_bcm1-slot0: Power:    0x0000000f | Blk gap:  0x00000000
sdhci_bcm1-slot0: Wake-up:  0x00000000 | Clock:    0x0000fa07
sdhci_bcm1-slot0: Timeout:  0x00000000 | Int stat: 0x00000000
sdhci_bcm1-slot0: Int enab: 0x01ff00bb | Sig enab: 0x01ff00bb
sdhci_bcm1-slot0: AC12 err: 0x00000000 | Host ctl2:0x00000000
sdhci_bcm1-slot0: Caps:     0x00000000 | Caps2:    0x00000000
sdhci_bcm1-slot0: Max curr: 0x00000001 | ADMA err: 0x00000000
sdhci_bcm1-slot0: ADMA addr:0x00000000 | Slot int: 0x00000000
sdhci_bcm1-slot0: ===========================================
sdhci_bcm1-slot0: Got command interrupt 0x00030000, but there is no active command.
sdhci_bcm1-slot0: ============== REGISTER DUMP ==============
sdhci_bcm1-slot0: Sys addr: 0x00000000 | Version:  0x00009902
sdhci_bcm1-slot0: Blk size: 0x00000000 | Blk cnt:  0x00000000
sdhci_bcm1-slot0: Argument: 0x000001aa | Trn mode: 0x00000000
sdhci_bcm1-slot0: Present:  0x000f0000 | Host ctl: 0x00000001
sdhci_bcm1-slot0: Power:    0x0000000f | Blk gap:  0x00000000
sdhci_bcm1-slot0: Wake-up:  0x00000000 | Clock:    0x0000fa07
sdhci_bcm1-slot0: Timeout:  0x00000000 | Int stat: 0x00000000
sdhci_bcm1-slot0: Int enab: 0x01ff00bb | Sig enab: 0x01ff00bb
sdhci_bcm1-slot0: AC12 err: 0x00000000 | Host ctl2:0x00000000
sdhci_bcm1-slot0: Caps:     0x00000000 | Caps2:    0x00000000
sdhci_bcm1-slot0: Max curr: 0x00000001 | ADMA err: 0x00000000
sdhci_bcm1-slot0: ADMA addr:0x00000000 | Slot int: 0x00000000
sdhci_bcm1-slot0: ===========================================
sdhci_bcm1-slot0: Got command interrupt 0x00030000, but there is no active command.
sdhci_bcm1-slot0: ============== REGISTER DUMP ==============
sdhci_bcm1-slot0: Sys addr: 0x00000000 | Version:  0x00009902
sdhci_bcm1-slot0: Blk size: 0x00000000 | Blk cnt:  0x00000000
sdhci_bcm1-slot0: Argument: 0x00000000 | Trn mode: 0x00000000
sdhci_bcm1-slot0: Present:  0x000f0000 | Host ctl: 0x00000001
sdhci_bcm1-slot0: Power:    0x0000000f | Blk gap:  0x00000000
sdhci_bcm1-slot0: Wake-up:  0x00000000 | Clock:    0x0000fa07
sdhci_bcm1-slot0: Timeout:  0x00000000 | Int stat: 0x00000000
sdhci_bcm1-slot0: Int enab: 0x01ff00bb | Sig enab: 0x01ff00bb
sdhci_bcm1-slot0: AC12 err: 0x00000000 | Host ctl2:0x00000000
sdhci_bcm1-slot0: Caps:     0x00000000 | Caps2:    0x00000000
sdhci_bcm1-slot0: Max curr: 0x00000001 | ADMA err: 0x00000000
sdhci_bcm1-slot0: ADMA addr:0x00000000 | Slot int: 0x00000000
sdhci_bcm1-slot0: ===========================================
sdhci_bcm1-slot0: Got command interrupt 0x00030000, but there is no active command.
sdhci_bcm1-slot0: ============== REGISTER DUMP ==============
sdhci_bcm1-slot0: Sys addr: 0x00000000 | Version:  0x00009902
sdhci_bcm1-slot0: Blk size: 0x00000000 | Blk cnt:  0x00000000
sdhci_bcm1-slot0: Argument: 0x00000000 | Trn mode: 0x00000000
sdhci_bcm1-slot0: Present:  0x000f0000 | Host ctl: 0x00000001
sdhci_bcm1-slot0: Power:    0x0000000f | Blk gap:  0x00000000
sdhci_bcm1-slot0: Wake-up:  0x00000000 | Clock:    0x0000fa07
sdhci_bcm1-slot0: Timeout:  0x00000000 | Int stat: 0x00000000
sdhci_bcm1-slot0: Int enab: 0x01ff00bb | Sig enab: 0x01ff00bb
sdhci_bcm1-slot0: AC12 err: 0x00000000 | Host ctl2:0x00000000
sdhci_bcm1-slot0: Caps:     0x00000000 | Caps2:    0x00000000
sdhci_bcm1-slot0: Max curr: 0x00000001 | ADMA err: 0x00000000
sdhci_bcm1-slot0: ADMA addr:0x00000000 | Slot int: 0x00000000
sdhci_bcm1-slot0: ===========================================
sdhci_bcm1-slot0: Got command interrupt 0x00030000, but there is no active command.
sdhci_bcm1-slot0: ============== REGISTER DUMP ==============
sdhci_bcm1-slot0: Sys addr: 0x00000000 | Version:  0x00009902
sdhci_bcm1-slot0: Blk size: 0x00000000 | Blk cnt:  0x00000000
sdhci_bcm1-slot0: Argument: 0x00000000 | Trn mode: 0x00000000
sdhci_bcm1-slot0: Present:  0x000f0000 | Host ctl: 0x00000001
sdhci_bcm1-slot0: Power:    0x0000000f | Blk gap:  0x00000000
sdhci_bcm1-slot0: Wake-up:  0x00000000 | Clock:    0x0000fa07
sdhci_bcm1-slot0: Timeout:  0x00000000 | Int stat: 0x00000000
sdhci_bcm1-slot0: Int enab: 0x01ff00bb | Sig enab: 0x01ff00bb
sdhci_bcm1-slot0: AC12 err: 0x00000000 | Host ctl2:0x00000000
sdhci_bcm1-slot0: Caps:     0x00000000 | Caps2:    0x00000000
sdhci_bcm1-slot0: Max curr: 0x00000001 | ADMA err: 0x00000000
sdhci_bcm1-slot0: ADMA addr:0x00000000 | Slot int: 0x00000000
sdhci_bcm1-slot0: ===========================================
mmc1: No compatible cards found on bus
bcm2835_cpufreq0: ARM 600MHz, Core 200MHz, SDRAM 400MHz, Turbo OFF
Release APs...done
CPU  0: ARM Cortex-A72 r0p3 affinity:  0
Trying to mount root from ufs:/dev/ufs/rootfs [rw]...
                   Cache Type = <64 byte D-cacheline,64 byte I-cacheline,PIPT ICache,64 byte ERG,64 byte CWG>
 Instruction Set Attributes 0 = <CRC32>
 Instruction Set Attributes 1 = <>
         Processor Features 0 = <AdvSIMD,FP,EL3 32,EL2 32,EL1 32,EL0 32>
         Processor Features 1 = <>
      Memory Model Features 0 = <TGran4,TGran64,SNSMem,BigEnd,16bit ASID,16TB PA>
      Memory Model Features 1 = <8bit VMID>
      Memory Model Features 2 = <32bit CCIDX,48bit VA>
             Debug Features 0 = <2 CTX BKPTs,4 Watchpoints,6 Breakpoints,PMUv3,Debugv8>
             Debug Features 1 = <>
         Auxiliary Features 0 = <>
         Auxiliary Features 1 = <>
CPU  1: ARM Cortex-A72 r0p3 affinity:  1
CPU  2: ARM Cortex-A72 r0p3 affinity:  2
CPU  3: ARM Cortex-A72 r0p3 affinity:  3
WARNING: / was not properly dismounted
Warning: no time-of-day clock registered, system time will not be set accurately
Dual Console: Serial Primary, Video Secondary
WARNING: WITNESS option enabled, expect reduced performance.
uhub0: 5 ports with 4 removable, self powered
ugen0.2: <vendor 0x2109 USB2.0 Hub> at usbus0
uhub1 on uhub0
uhub1: <vendor 0x2109 USB2.0 Hub, class 9/0, rev 2.10/4.20, addr 1> on usbus0
uhub1: 4 ports with 4 removable, self powered
ugen0.3: <ASMedia USB3.0 External HDD> at usbus0
umass0 on uhub0
umass0: <ASMedia USB3.0 External HDD, class 0/0, rev 3.00/1.00, addr 2> on usbus0
umass0:  SCSI over Bulk-Only; quirks = 0x0100
umass0:0:0: Attached to scbus0
da0 at umass-sim0 bus 0 scbus0 target 0 lun 0
da0: <INTEL SS DSA2CW120G3 0> Fixed Direct Access SPC-4 SCSI device
da0: Serial Number...
da0: 400.000MB/s transfers
da0: 114473MB (234441648 512 byte sectors)
da0: quirks=0x2<NO_6_BYTE>
ugen0.4: <JMicron External Disk 3.0> at usbus0
umass1 on uhub0
umass1: <JMicron External Disk 3.0, class 0/0, rev 3.00/32.02, addr 3> on usbus0
umass1:  SCSI over Bulk-Only; quirks = 0x8100
umass1:1:1: Attached to scbus1
da1 at umass-sim1 bus 1 scbus1 target 0 lun 0
da1: <JMicron Tech 3202> Fixed Direct Access SPC-4 SCSI device
da1: Serial Number...
da1: 400.000MB/s transfers
da1: 244198MB (500118192 512 byte sectors)
da1: quirks=0x2<NO_6_BYTE>
lo0: link state changed to UP
genet0: link state changed to DOWN
genet0: link state changed to UP
