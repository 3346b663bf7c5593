package device

import (
	"context"
	"fmt"
	"strings"
)

// Identifier is a phone that can say who it is, whatever serial its ADB
// server lists it under: two hosts that both see `emulator-5554`, or one
// network phone connected from two hosts, are told apart or recognised by
// it (docs/design.md §4).
type Identifier interface {
	Identity(ctx context.Context) (string, error)
}

var _ Identifier = (*adbDevice)(nil)

// Identity is the phone's `ro.serialno`, read over ADB in the same round
// trip as its Android release: a phone older than MinSDK is an
// *UnsupportedAndroidError, as this is where a worker first reads a phone.
func (d *adbDevice) Identity(ctx context.Context) (string, error) {
	out, err := d.shell(ctx, "getprop ro.serialno; getprop ro.build.version.sdk; getprop ro.build.version.release")
	if err != nil {
		return "", fmt.Errorf("device %s: read its identity (getprop ro.serialno): %w", d.serial, err)
	}
	lines := strings.Split(strings.TrimRight(out, "\r\n"), "\n")
	for len(lines) < 3 {
		lines = append(lines, "")
	}
	if err := checkSDK(d.serial, lines[1], lines[2]); err != nil {
		return "", err
	}
	return strings.TrimSpace(lines[0]), nil
}

// IdentityOf is the identity of d: its `ro.serialno` when that names one
// phone, else its serial. Emulators all report the same few values
// ("EMULATOR…"), and some cheap phones "0123456789ABCDEF" or "unknown":
// such a phone is known by its serial, which for an emulator names it on
// the one host it runs on.
func IdentityOf(ctx context.Context, d Device) (string, error) {
	id, ok := d.(Identifier)
	if !ok {
		return d.Serial(), nil
	}
	s, err := id.Identity(ctx)
	if err != nil {
		return "", err
	}
	if genericSerialNo(s) {
		return d.Serial(), nil
	}
	return s, nil
}

func genericSerialNo(s string) bool {
	switch {
	case s == "", s == "unknown", s == "0123456789ABCDEF", strings.HasPrefix(s, "EMULATOR"),
		commandFailed(s), strings.ContainsAny(s, " \n\t/"):
		return true
	}
	return false
}
