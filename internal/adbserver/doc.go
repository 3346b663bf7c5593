// Package adbserver is a small ADB server written in Go, so phoneflow runs
// the same way with or without Debian's adb installed.
//
// It sits where `adb start-server` would: clients (phoneflow's own
// internal/adb client, or Debian's adb CLI with -P PORT) speak the host
// protocol to it — 4-hex-digit length + service text, OKAY/FAIL replies —
// and it speaks the device protocol (24-byte headers, CNXN/OPEN/OKAY/WRTE/
// CLSE) to network phones attached with host:connect, such as
// internal/phonesim or an emulator or phone in TCP mode. A client that
// switches its socket to a phone (host:transport:<serial>) then names one
// service (shell:, exec:, sync:, ...) and the server relays that socket's
// bytes to a stream multiplexed on the phone's single TCP connection, with
// the protocol's one-outstanding-WRTE flow control.
//
// A phone whose connection drops is listed "offline" and redialled every
// second until host:disconnect; it comes back "device" on its own. The
// server never signs AUTH challenges: a phone that requires a key is
// listed "unauthorized". Error texts are adb's ("device 'X' not found",
// "device offline", "no devices/emulators found") so clients that match on
// them work unchanged.
//
// Typical use, where no adb server answers on the usual port:
//
//	srv := adbserver.New(adbserver.Config{Logger: log})
//	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil { ... }
//	defer srv.Close()
//	client := adb.New(adb.Config{Addr: srv.Addr()})
//	err := client.Connect(ctx, "127.0.0.1:5555") // a phone or the simulator
package adbserver
