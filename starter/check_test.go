package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/adbserver"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// starter check on a saved real dump: exit 0 when every check held, 1
// when one did not, 2 for bad input, each with what it read.
func TestCheckCmdOnADump(t *testing.T) {
	dump, err := filepath.Abs("testdata/window_dump.xml")
	if err != nil {
		t.Fatal(err)
	}
	cmds := func() []*cobra.Command { return []*cobra.Command{newCheckCmd()} }
	out, code := execCLI(t, nil, "", cmds(), "check", "--dump", dump, `{"kind":"switch","label":"USB debugging","on":true}`, `{"kind":"app_in_front","app":"com.android.settings"}`)
	if code != 0 || !strings.Contains(out, `held      switch "USB debugging" is on`) || !strings.Contains(out, "used: Switch") || !strings.Contains(out, "from dump") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	out, code = execCLI(t, nil, "", cmds(), "check", "--dump", dump, `[{"kind":"switch","label":"USB","on":true}]`)
	if code != exitFailure || !strings.Contains(out, `not held  switch "USB" is on`) || !strings.Contains(out, `no switch labelled "USB"`) {
		t.Fatalf("a prefix label: exit %d\n%s", code, out)
	}
	out, code = execCLI(t, nil, "", cmds(), "check", "--dump", dump, "--app", "com.android.vending", `{"kind":"app_in_front","app":"com.android.settings"}`)
	if code != exitFailure || !strings.Contains(out, "from --app") {
		t.Fatalf("--app: exit %d\n%s", code, out)
	}
	out, code = execCLI(t, nil, "", cmds(), "check", "--dump", dump, "--json", `{"kind":"element_exists","text":"Wi-Fi"}`)
	if code != 0 || !strings.Contains(out, `"held": true`) || !strings.Contains(out, `"used": [`) {
		t.Fatalf("--json: exit %d\n%s", code, out)
	}
	bad := filepath.Join(t.TempDir(), "bad.xml")
	if err := os.WriteFile(bad, []byte("ERROR: could not get idle state."), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--dump", dump, `{"kind":"looks_done"}`}, "unknown kind"},
		{[]string{"check", "--dump", dump, `{kind}`}, "is not JSON"},
		{[]string{"check", "--dump", dump, `"switch"`}, "must be a list of checks"},
		{[]string{"check", "--dump", dump}, "no check given"},
		{[]string{"check", `{"kind":"element_exists","text":"x"}`}, "--dump window_dump.xml"},
		{[]string{"check", "--dump", bad, `{"kind":"element_exists","text":"x"}`}, "uiautomator dump"},
		{[]string{"check", "--dump", filepath.Join(t.TempDir(), "missing.xml"), `{"kind":"element_exists","text":"x"}`}, "saved `uiautomator dump`"},
	} {
		out, code := execCLI(t, nil, "", cmds(), c.args...)
		if code != exitUsage || !strings.Contains(out, c.want) {
			t.Errorf("%q: exit %d, want 2 naming %q\n%s", c.args, code, c.want, out)
		}
	}
}

// starter check --device reads the phone through the ADB server and the
// device layer goals use: here the simulator behind the built-in server.
func TestCheckCmdOnAPhone(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serial := ln.Addr().String()
	p := phonesim.New(phonesim.Config{Serial: serial, Logger: log})
	go func() { _ = p.Serve(ctx, ln) }()
	sln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := adbserver.New(adbserver.Config{Logger: log})
	go func() { _ = s.Serve(ctx, sln) }()
	t.Cleanup(func() { _ = s.Close() })
	if ok, err := device.ConnectAll(ctx, adb.New(adb.Config{Addr: sln.Addr().String()}), []string{serial}); err != nil || len(ok) != 1 {
		t.Fatalf("connecting the simulator: %v", err)
	}
	cmds := func() []*cobra.Command { return []*cobra.Command{newCheckCmd()} }
	out, code := execCLI(t, nil, "", cmds(), "check", "--device", serial, "--adb-address", sln.Addr().String(),
		`{"kind":"element_exists","text":"Settings"}`, `{"kind":"element_absent","text":"Bluetooth tethering"}`)
	if code != 0 || !strings.Contains(out, `held      "Settings" is shown`) || !strings.Contains(out, "from device") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	out, code = execCLI(t, nil, "", cmds(), "check", "--device", "no-such-phone", "--adb-address", sln.Addr().String(), `{"kind":"element_exists","text":"x"}`)
	if code != exitNotFound || !strings.Contains(out, "starter devices") {
		t.Fatalf("an unknown phone: exit %d\n%s", code, out)
	}
}
