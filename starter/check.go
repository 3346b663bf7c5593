package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/screencheck"
)

func init() { rootCmd.AddCommand(newCheckCmd()) }

func newCheckCmd() *cobra.Command {
	var dump, serial, pkg, answer string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "check CHECK_JSON...",
		Short: "Evaluate postconditions on a saved UI dump or a connected phone",
		Long: `check evaluates postconditions, written as the planner writes them
(docs/design.md#verification-and-honest-status), on one screen: a saved
uiautomator dump (--dump window_dump.xml) or what a connected phone shows now
(--device SERIAL, through the configured ADB server). It prints, for each
check, held or not held, why, and the elements it was read from: how to find
out why phoneflow read a phone the way it did.

The app in front is the dump's most common package, or the phone's focused
app with --device; --app PACKAGE says it instead. --answer gives the
executor's answer for answer_seen checks.

Exit status: 0 when every check held, 1 when one did not, 2 for bad input (a
check that does not parse, an unknown kind, an unreadable dump).`,
		Example: `  adb shell uiautomator dump && adb pull /sdcard/window_dump.xml
  starter check --dump window_dump.xml '{"kind":"switch","label":"Wi-Fi","on":true}'
  starter check --dump window_dump.xml '[{"kind":"row_shows","row":"Device name","shows":"Pixel 8"},{"kind":"element_absent","text":"Error"}]'
  starter check --device emulator-5554 --app com.android.settings '{"kind":"element_exists","text":"Bluetooth"}'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			checks, err := screencheck.ParseChecks(args)
			if err != nil {
				return usageError{err}
			}
			if (dump == "") == (serial == "") {
				return usageError{errors.New("say which screen to judge: --dump window_dump.xml (a saved `uiautomator dump`) or --device SERIAL (a connected phone), one of the two")}
			}
			var s postcond.Screen
			from := "dump"
			if dump != "" {
				s, err = dumpScreen(dump)
			} else {
				cfg, _, cerr := config.Load(config.LoadOptions{Flags: cmd.Flags()})
				if cerr != nil {
					return usageError{cerr}
				}
				s, err = phoneScreen(cmd.Context(), cfg, serial)
				from = "device"
			}
			if err != nil {
				return err
			}
			if pkg != "" {
				s.AppPackage, s.App, from = pkg, appName(pkg), "--app"
			}
			r := screencheck.Report{App: s.AppPackage, AppFrom: from, Results: screencheck.Evaluate(checks, s, answer)}
			return writeCheck(cmd.OutOrStdout(), r, asJSON)
		},
	}
	cmd.Flags().StringVar(&dump, "dump", "", "a saved uiautomator dump (window_dump.xml) to judge")
	cmd.Flags().StringVar(&serial, "device", "", "judge what this connected phone shows now")
	cmd.Flags().StringVar(&pkg, "app", "", "the package in front (default: the dump's most common package, or the phone's focused app)")
	cmd.Flags().StringVar(&answer, "answer", "", "the executor's answer, for answer_seen checks")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the results as JSON")
	config.BindFlags(cmd.Flags())
	return cmd
}

func writeCheck(w io.Writer, r screencheck.Report, asJSON bool) error {
	var err error
	if asJSON {
		err = screencheck.WriteJSON(w, r)
	} else {
		err = screencheck.Write(w, r)
	}
	if err != nil {
		return err
	}
	if !r.AllHeld() {
		return exitError{exitFailure}
	}
	return nil
}

// dumpScreen reads a saved dump; the app in front is its most common
// package.
func dumpScreen(path string) (postcond.Screen, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return postcond.Screen{}, usageError{fmt.Errorf("--dump %s: %w: give the path of a saved `uiautomator dump` file", path, err)}
	}
	es, err := screencheck.ParseDump(data)
	if err != nil {
		return postcond.Screen{}, usageError{fmt.Errorf("--dump %s: %w", path, err)}
	}
	pkg := screencheck.FrontApp(es)
	return postcond.Screen{App: appName(pkg), AppPackage: pkg, Elements: es}, nil
}

// phoneScreen reads a connected phone's UI tree and focused app through
// the device layer goals use.
func phoneScreen(ctx context.Context, cfg config.Config, serial string) (postcond.Screen, error) {
	devs, err := listDevices(ctx, cfg)
	if err != nil {
		return postcond.Screen{}, fmt.Errorf("%w (is `adb` running? see `starter devices`)", err)
	}
	found := false
	for _, d := range devs {
		found = found || d.Serial == serial
	}
	if !found {
		return postcond.Screen{}, notFoundError{fmt.Errorf("no phone %s on the ADB server at %s (see `starter devices`)", serial, cfg.ADB.Address)}
	}
	d, err := device.NewPool(app.ADBClient(cfg, app.Deps{}), device.PoolOptions{Allow: cfg.ADB.Allow}).Get(ctx, serial)
	if err != nil {
		return postcond.Screen{}, err
	}
	es, err := d.UITree(ctx)
	if err != nil {
		return postcond.Screen{}, err
	}
	s := postcond.Screen{Elements: es, AppPackage: screencheck.FrontApp(es)}
	if a, err := d.CurrentApp(ctx); err == nil && a.Package != "" {
		s.AppPackage = a.Package
	}
	s.App = appName(s.AppPackage)
	return s, nil
}

func appName(pkg string) string {
	if n := device.AppName(pkg); n != "" {
		return n
	}
	return pkg
}
