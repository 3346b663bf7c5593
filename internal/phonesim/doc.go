// Package phonesim is a deterministic simulated Android phone that speaks the
// ADB device protocol over TCP, so Debian's `adb connect 127.0.0.1:PORT`
// attaches it and every tool that drives a real phone through an ADB server
// drives it the same way.
//
// The phone answers the shell commands the device driver uses (input, am
// broadcast for the ADB Keyboard, ime, settings, monkey, dumpsys, wm,
// pm, uiautomator, screencap, getprop, plus echo/ls/cat/grep, `;`, `&&`,
// `||`, pipes and redirections) with Android-like output, renders real PNG
// screenshots of a small set of apps (launcher, Settings, Contacts,
// Messages, Clock, Notes and a FLAG_SECURE Bank screen) whose uiautomator
// tree is built from the same widgets that are drawn, and exposes its state
// for goal checks through `simctl state` and (*Phone).State.
//
// What a driver sees on failures:
//   - a secure screen (Bank): `screencap` writes nothing at all, while
//     `uiautomator dump` still works;
//   - the screencap-fail fault: no image, "screencap: Capture failed:
//     Status: -1" on the (merged) output;
//   - ADB Keyboard broadcasts always answer "Broadcast completed: result=0",
//     but type nothing unless com.android.adbkeyboard/.AdbIME is installed,
//     enabled (`ime enable`) and selected (`ime set`); with the no-ime fault
//     `ime set` fails with "Unknown input method ... cannot be selected";
//   - `input text` types ASCII only, as on a real phone;
//   - a sleeping phone draws a black screen, ignores taps, and
//     `uiautomator dump` fails.
//
// Faults (dropped transport, offline, slow or failing screencap, delayed
// screen updates, missing ADB Keyboard) are switched on from the shell
// (`simctl fault`) or in-process (SetFault).
//
// By default nothing the phone shows depends on the wall clock or a random
// source: the status bar always says 12:00, so the same inputs give the
// same screens and the same PNG bytes. With Config.Life the phone lives its
// own life (docs/design.md §15): messages arrive with notifications and
// heads-up banners, system dialogs take the focus, the clock ticks and the
// screen times out to a keyguard that a swipe up dismisses, all drawn from
// a seed on the phone's own clock, so a seed still gives the same screens.
// Fault timing (disconnect, offline, delays) uses real time. Input commands
// return at once (`input swipe` does not wait out its duration).
package phonesim
