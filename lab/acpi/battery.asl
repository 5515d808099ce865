/*
 * battery.asl - an ACPI control-method battery (PNP0C0A) for the lab
 * guest, passed to QEMU as an SSDT (-acpitable) by the battery test and
 * make bench's battery row only (lab/run-guest.sh ACPI_TABLES=).
 *
 * 6.12's drivers/acpi/battery.c binds to it: probe and every resume
 * evaluate _STA, _BIF and _BST.  On a laptop _BIF and _BST read the
 * battery through the Embedded Controller's SMBus, milliseconds each;
 * QEMU's pc machine has no EC, so each method sleeps BATTERY_MS (AML
 * Sleep: msleep() in the guest) before returning constant data:
 * a 6000 mAh Li-ion battery, discharging at 1280 mA, 4096 mAh left.
 */
DefinitionBlock ("", "SSDT", 2, "PMLAB", "BATTERY", 0x00000001)
{
	Scope (\_SB)
	{
		Device (BAT0)
		{
			Name (_HID, EisaId ("PNP0C0A"))
			Name (_UID, One)
			Name (BTMS, 10)		/* BATTERY_MS: each method's EC time */
			Method (_STA, 0, NotSerialized)
			{
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
