// Package device is the Android device driver: the Device interface that
// activities use, implemented over phoneflow's own ADB client, with screen
// settle waiting, app launching by name, Unicode text entry through the ADB
// Keyboard IME, and a Pool that hands out a Device per serial.
package device
