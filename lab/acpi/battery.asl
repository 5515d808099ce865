/*
 * battery.asl - an ACPI control-method battery (PNP0C0A) for the lab
 * guest, passed to QEMU as an SSDT (-acpitable) by the battery test and
 * make bench's battery row only (lab/run-guest.sh ACPI_TABLES=).
 *
 * 6.12's drivers/acpi/battery.c binds to it.  Its resume callback
 * evaluates _STA only (acpi_battery_update(battery, true) returns after
 * the presence check); _BIF and _BST are read again after the devices
 * have resumed, by its PM_POST_SUSPEND notifier, and at probe.  On a
 * laptop these methods read the Embedded Controller: _STA the
 * battery-present bit (one EC transaction), _BIF and _BST the battery's
 * SMBus registers (many).  QEMU's pc machine has no EC, so each method
 * sleeps instead (AML Sleep(): msleep() in the guest, which HZ=250 rounds
 * up to whole 4 ms jiffies: Sleep (1) takes 4-8 ms) and returns constant
 * data: a 6000 mAh Li-ion battery, discharging at 1280 mA, 4096 mAh left.
 */
DefinitionBlock ("", "SSDT", 2, "PMLAB", "BATTERY", 0x00000001)
{
	Scope (\_SB)
	{
		Device (BAT0)
		{
			Name (_HID, EisaId ("PNP0C0A"))
			Name (_UID, One)
			Name (STMS, 1)		/* _STA's EC read, ms */
			Name (BTMS, 10)		/* _BIF's and _BST's EC reads, ms */
			Method (_STA, 0, Serialized)
			{
				Sleep (STMS)
				Return (0x1F)
			}
			Method (_BIF, 0, Serialized)
			{
				Sleep (BTMS)
				Return (Package (0x0D) {
					One,		/* power unit: mA, mAh */
					6000,		/* design capacity */
					5900,		/* last full charge capacity */
					One,		/* rechargeable */
					11600,		/* design voltage, mV */
					600,		/* design capacity of warning */
					300,		/* design capacity of low */
					16,		/* granularity 1 */
					16,		/* granularity 2 */
					"PMLAB-BAT0",	/* model */
					"0001",		/* serial number */
					"LION",		/* type */
					"pmlab"		/* OEM */
				})
			}
			Method (_BST, 0, Serialized)
			{
				Sleep (BTMS)
				Return (Package (0x04) {
					One,		/* state: discharging */
					1280,		/* present rate, mA */
					4096,		/* remaining capacity, mAh */
					11400		/* present voltage, mV */
				})
			}
		}
	}
}
