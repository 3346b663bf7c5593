// Package phonesim is a deterministic simulated Android phone that speaks the
// ADB device protocol over TCP, so Debian's `adb connect 127.0.0.1:PORT`
// attaches it and every tool that drives a real phone through an ADB server
// drives it the same way.
//
// The phone answers the shell commands the device driver uses (input, am
// broadcast for the ADB Keyboard, ime, settings, monkey, dumpsys, wm,
// pm, uiautomator, screencap, getprop) with Android-like output, renders
// real PNG screenshots of a small set of apps (launcher, Settings,
// Contacts, Messages, Clock, Notes and a FLAG_SECURE Bank screen) whose
// uiautomator tree matches what is drawn, and exposes its state for goal
// checks through `simctl state` and (*Phone).State. Faults (dropped
// transport, offline, slow or failing screencap, delayed screen updates,
// missing ADB Keyboard) can be switched on from the shell (`simctl fault`)
// or in-process (SetFault).
//
// Nothing in the phone reads the wall clock or a random source for what it
// shows: the status bar always says 12:00, so the same inputs give the same
// screens. Only fault timing (disconnect, offline, delays) uses real time.
package phonesim
