package main

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/adb"
)

func TestDevicesCmd(t *testing.T) {
	old := listDevices
	t.Cleanup(func() { listDevices = old })
	var addr string
	listDevices = func(_ context.Context, cfg config.Config) ([]adb.DeviceInfo, error) {
		addr = cfg.ADB.Address
		return []adb.DeviceInfo{{Serial: "127.0.0.1:5555", State: "device", Model: "Pixel_7"}, {Serial: "R58", State: "unauthorized"}}, nil
	}
	out, code := execCLI(t, nil, "", []*cobra.Command{newDevicesCmd()}, "devices", "--adb-address", "127.0.0.1:5038")
	if code != 0 || addr != "127.0.0.1:5038" {
		t.Fatalf("exit %d, address %q\n%s", code, addr, out)
	}
	for _, want := range []string{"127.0.0.1:5555  device", "Pixel_7", "R58", "accept the USB debugging prompt"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	listDevices = func(context.Context, config.Config) ([]adb.DeviceInfo, error) { return nil, adb.ErrServerNotRunning }
	out, code = execCLI(t, nil, "", []*cobra.Command{newDevicesCmd()}, "devices")
	if code != exitFailure || !strings.Contains(out, "adb start-server") {
		t.Errorf("adb down: exit %d\n%s", code, out)
	}
	if _, code = execCLI(t, nil, "", []*cobra.Command{newDevicesCmd()}, "devices", "extra"); code != exitUsage {
		t.Errorf("extra argument: exit %d", code)
	}
}
