package main

import (
	"context"
	"fmt"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

func init() { rootCmd.AddCommand(newSimCmd()) }

func newSimCmd() *cobra.Command {
	var addr string
	var phones int
	var life phonesim.Life
	var width, height, density int
	var costs, skin string
	cmd := &cobra.Command{
		Use:   "sim",
		Short: "Run simulated Android phones that adb can connect to",
		Long: `sim runs deterministic simulated Android phones speaking the ADB device
protocol. Phone i listens on the port of --addr plus 2*i. Attach each with
"adb connect ADDR"; "adb -s ADDR shell simctl state" prints its state.
With --messages, --dialogs or --screen-timeout the phones also change by
themselves, drawn from --seed: messages arrive with a banner, system dialogs
take the focus, the clock ticks and the screen locks (a swipe up unlocks;
with --pin the keyguard then asks for that PIN, with --pattern for a
pattern nothing typed passes). "simctl receive NAME TEXT" delivers a
message at once; "simctl lock" and "simctl unlock" lock the phone and
unlock it as its owner does. --width, --height and --density give the
phones another screen (default 1080x2400 at 420 dpi), like 720x1600 at 320.
--costs phone makes every command take as long as on a real phone over adb
(screencap, uiautomator's idle wait, input, typing, launches) and fails
uiautomator dump with "could not get idle state" on screens that animate,
drawn from --seed; --costs none (the default) answers at once.
--skin pixel (the default) lays the apps out as a Pixel's Android 14 does
(Settings' main list, subpages, main switch bars, a brightness slider;
Google Messages, DeskClock, Keep) and adds the Quick Settings shade a
swipe down from the status bar or "cmd statusbar expand-settings" opens;
--skin miui and --skin oneui lay Settings out as a Xiaomi phone (in
Chinese) and a Samsung phone do; --skin classic keeps the flat page.
Stop with Ctrl-C.`,
		Example: `  starter sim --addr 127.0.0.1:5555
  starter sim --addr 127.0.0.1:5555 --phones 3
  starter sim --messages 45s --dialogs 3m --screen-timeout 2m --seed 7
  starter sim --screen-timeout 2m --pin 4827
  starter sim --width 720 --height 1600 --density 320
  starter sim --costs phone --seed 3
  starter sim --skin miui
  adb connect 127.0.0.1:5555 && adb -s 127.0.0.1:5555 shell input tap 540 350`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if phones < 1 {
				return usageError{fmt.Errorf("--phones must be at least 1, got %d", phones)}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			if life.Messages < 0 || life.Dialogs < 0 || life.ScreenTimeout < 0 {
				return usageError{fmt.Errorf("--messages, --dialogs and --screen-timeout take a duration of 0 (off) or more, like 45s")}
			}
			if life.PIN != "" && (len(life.PIN) < 4 || len(life.PIN) > 16 || strings.Trim(life.PIN, "0123456789") != "") {
				return usageError{fmt.Errorf("--pin takes 4 to 16 digits, like 4827")}
			}
			if msg := config.SimScreenError(width, height, density); msg != "" {
				return usageError{fmt.Errorf("--width, --height and --density: %s", msg)}
			}
			profile, err := phonesim.CostProfile(costs)
			if err != nil {
				return usageError{fmt.Errorf("--costs: %w", err)}
			}
			sk, err := phonesim.ParseSkin(skin)
			if err != nil {
				return usageError{fmt.Errorf("--skin: %w", err)}
			}
			return runSim(ctx, cmd, phonesim.FleetConfig{Addr: addr, Phones: phones, Life: life, Costs: profile, Width: width, Height: height, Density: density, Skin: sk})
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:5555", "address of the first phone (host:port)")
	cmd.Flags().IntVar(&phones, "phones", 1, "number of phones (ports port, port+2, ...)")
	cmd.Flags().Uint64Var(&life.Seed, "seed", 0, "seed of what the phones do by themselves (phone i uses seed+i)")
	cmd.Flags().DurationVar(&life.Messages, "messages", 0, "mean time between incoming messages from contacts; 0 = none")
	cmd.Flags().DurationVar(&life.Dialogs, "dialogs", 0, "mean time between system dialogs that take the focus; 0 = none")
	cmd.Flags().DurationVar(&life.ScreenTimeout, "screen-timeout", 0, "turn the screen off and lock it after this long without input; 0 = never")
	cmd.Flags().StringVar(&life.PIN, "pin", "", "the keyguard asks for this PIN after the swipe up; empty = a swipe unlocks")
	cmd.Flags().IntVar(&width, "width", 0, "screen width in pixels; 0 = 1080")
	cmd.Flags().IntVar(&height, "height", 0, "screen height in pixels; 0 = 2400")
	cmd.Flags().IntVar(&density, "density", 0, "screen density in dpi; 0 = 420")
	cmd.Flags().StringVar(&costs, "costs", phonesim.CostsNone, "cost profile: none (every command answers at once) or phone (a real phone's latencies and dump failures)")
	cmd.Flags().StringVar(&skin, "skin", string(phonesim.DefaultSkin), "how the phones' apps look: pixel (as on a Pixel), miui (as on a Xiaomi phone, in Chinese), oneui (as on a Samsung phone) or classic (the flat Settings page)")
	cmd.Flags().BoolVar(&life.Pattern, "pattern", false, "the keyguard asks for a pattern, which only simctl unlock passes")
	return cmd
}

// runSim starts the fleet, prints one line per phone and waits for ctx.
func runSim(ctx context.Context, cmd *cobra.Command, cfg phonesim.FleetConfig) error {
	_, addrs, err := phonesim.StartFleet(ctx, cfg)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	for i, a := range addrs {
		fmt.Fprintf(out, "phone %d listening on %s  (adb connect %s)\n", i, a, a)
	}
	<-ctx.Done()
	fmt.Fprintln(out, "simulator stopped")
	return nil
}
