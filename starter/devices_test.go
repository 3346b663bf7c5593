package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/fleet"
	"github.com/phoneflow/phoneflow/internal/goalctl"
)

func TestDevicesCmd(t *testing.T) {
	old, oldWorkers := listDevices, deviceWorkers
	t.Cleanup(func() { listDevices, deviceWorkers = old, oldWorkers })
	deviceWorkers = func(context.Context, config.Config, []string) ([]goalctl.DeviceService, []fleet.Phone, error) {
		return nil, nil, errors.New("cannot reach Temporal at 127.0.0.1:7233")
	}
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

func TestDevicesCmdSaysWhichPhonesAWorkerServes(t *testing.T) {
	old, oldWorkers := listDevices, deviceWorkers
	t.Cleanup(func() { listDevices, deviceWorkers = old, oldWorkers })
	listDevices = func(context.Context, config.Config) ([]adb.DeviceInfo, error) {
		return []adb.DeviceInfo{{Serial: "emu-1", State: "device"}, {Serial: "emu-2", State: "device"}, {Serial: "R58", State: "unauthorized"}}, nil
	}
	var asked []string
	since := time.Date(2026, 1, 2, 9, 12, 0, 0, time.UTC)
	deviceWorkers = func(_ context.Context, _ config.Config, serials []string) ([]goalctl.DeviceService, []fleet.Phone, error) {
		asked = serials
		return []goalctl.DeviceService{
			{Serial: "emu-1", Served: true, Text: "served by 42@host-a (heartbeat 3s ago)"},
			{Serial: "emu-2", LastPoll: since, Text: "no worker serves phone emu-2 since 09:12:00 (last poll by 7@host-b)",
				Lease: "phone taken from goal goal-9: its workflow task has failed since 09:12 ([TMPRL1100] nondeterministic workflow)"},
		}, []fleet.Phone{{Serial: "emu-1", Labels: []string{"shop", "work"}, Facts: device.Facts{Model: "Pixel 7", Android: "14", Lock: device.LockKindSecure}}}, nil
	}
	out, code := execCLI(t, nil, "", []*cobra.Command{newDevicesCmd()}, "devices")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if strings.Join(asked, ",") != "emu-1,emu-2" {
		t.Errorf("asked about %v, want the ready phones only", asked)
	}
	for _, want := range []string{"WORKER", "LABELS", "shop,work", "served by 42@host-a", "no worker serves phone emu-2 since 09:12:00",
		"phone taken from goal goal-9: its workflow task has failed since 09:12 ([TMPRL1100] nondeterministic workflow)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, code = execCLI(t, nil, "", []*cobra.Command{newDevicesCmd()}, "devices", "--json")
	if code != 0 || !strings.Contains(out, `"served": false`) && !strings.Contains(out, `"served":false`) {
		t.Errorf("--json: exit %d, want the worker of each phone\n%s", code, out)
	}
	for _, want := range []string{`"labels": [`, `"shop"`, `"model": "Pixel 7"`, `"lock": "secure"`} {
		if !strings.Contains(out, want) {
			t.Errorf("--json lacks %s, what emu-1's worker published:\n%s", want, out)
		}
	}
	asked = nil
	if _, code = execCLI(t, nil, "", []*cobra.Command{newDevicesCmd()}, "devices", "--workers=false"); code != 0 || asked != nil {
		t.Errorf("--workers=false: exit %d, asked %v", code, asked)
	}
}

func TestDevicesCmdSaysWhenItCanOnlyWatchPolls(t *testing.T) {
	old, oldWorkers := listDevices, deviceWorkers
	t.Cleanup(func() { listDevices, deviceWorkers = old, oldWorkers })
	listDevices = func(context.Context, config.Config) ([]adb.DeviceInfo, error) {
		return []adb.DeviceInfo{{Serial: "emu-1", State: "device"}, {Serial: "emu-2", State: "device"}}, nil
	}
	note := "this Temporal cluster does not take worker heartbeats"
	deviceWorkers = func(_ context.Context, _ config.Config, serials []string) ([]goalctl.DeviceService, []fleet.Phone, error) {
		return []goalctl.DeviceService{
			{Serial: "emu-1", Served: true, Basis: "poll", Text: "served by 42@host-a (polled 3s ago)", Note: note},
			{Serial: "emu-2", Served: true, Basis: "poll", Text: "served by 42@host-a (polled 9s ago)", Note: note},
		}, nil, nil
	}
	out, code := execCLI(t, nil, "", []*cobra.Command{newDevicesCmd()}, "devices")
	if code != 0 || strings.Count(out, "note: "+note) != 1 {
		t.Errorf("exit %d, want the note once under the table:\n%s", code, out)
	}
}
