// Package device is the Android device driver: the Device interface that
// activities use, implemented over phoneflow's own ADB client, with screen
// settle waiting, app launching by name, Unicode text entry through the ADB
// Keyboard IME, and a Pool that hands out a Device per serial.
//
// After every input a device waits for the screen to settle instead of
// sleeping a fixed second: it hashes screen captures every Interval until
// Stable consecutive ones match (bounded by Max), and while the screen still
// equals the one before the input it keeps waiting up to ChangeWait for a
// late redraw. Captures use raw screencap or screencap -p, whichever the
// phone delivers faster.
//
// A screen the phone refuses to capture (FLAG_SECURE: empty output,
// "Status: -1", an all-black image) is a Screenshot with Sensitive set and a
// Reason, never a black image passed off as the screen. CurrentApp names
// the app in front by the label the phone shows for it, read from its APK
// (package apk) once per app. Launch resolves a
// name through a built-in table of English and Chinese app names, then the
// installed packages, and fails with *AppNotFoundError listing close
// matches. Type needs the ADB Keyboard and says how to install it when it
// is missing (ErrIMENotInstalled).
package device
