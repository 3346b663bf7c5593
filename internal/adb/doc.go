// Package adb is phoneflow's client for the ADB host protocol: it talks to an
// ADB server (by default 127.0.0.1:5037) to list and connect phones, run
// shell and exec services on them, and move files with the sync protocol.
//
// Every request opens its own TCP connection, as the protocol expects; the
// context's deadline becomes the connection deadline and cancelling the
// context closes the connection. Failures are typed and their messages say
// what to do: ErrServerNotRunning, *DeviceNotFoundError, ErrDeviceOffline,
// ErrUnauthorized and, for anything else the server refuses, *FailError.
package adb
