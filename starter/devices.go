package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/adb"
)

func init() { rootCmd.AddCommand(newDevicesCmd()) }

func newDevicesCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "devices",
		Short: "List the phones of the configured ADB server",
		Long: `devices asks the ADB server (adb.address, default 127.0.0.1:5037) for its
phones and prints each one's serial, state and model. Only phones in state
"device" can run goals; "unauthorized" means the phone has not accepted this
computer's key, "offline" that it must be reconnected. Phones outside
adb.allow (when set) are marked as not served by this host's worker.`,
		Example: `  starter devices
  starter devices --adb-address 127.0.0.1:5038 --json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _, err := config.Load(config.LoadOptions{Flags: cmd.Flags()})
			if err != nil {
				return usageError{err}
			}
			devs, err := listDevices(cmd.Context(), cfg)
			if err != nil {
				if errors.Is(err, adb.ErrServerNotRunning) {
					hint := "is `adb` installed? or point --adb-address at a running server"
					if !strings.Contains(err.Error(), "adb start-server") {
						hint = "is `adb` installed? start it with `adb start-server`, or point --adb-address at a running server"
					}
					return fmt.Errorf("%w (%s)", err, hint)
				}
				return err
			}
			return writeList(cmd.OutOrStdout(), asJSON, devs, func(w io.Writer, d []adb.DeviceInfo) { printDevices(w, cfg, d) })
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	config.BindFlags(cmd.Flags())
	return cmd
}

func printDevices(w io.Writer, cfg config.Config, devs []adb.DeviceInfo) {
	if len(devs) == 0 {
		fmt.Fprintf(w, "the ADB server at %s has no phones: plug one in with USB debugging on, or `adb connect host:port`\n", cfg.ADB.Address)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SERIAL\tSTATE\tMODEL\tPRODUCT\tNOTE")
	for _, d := range devs {
		note := ""
		switch {
		case d.State == "unauthorized":
			note = "accept the USB debugging prompt on the phone"
		case d.State == "offline":
			note = "reconnect it (replug, or adb reconnect)"
		case !allowed(cfg, d.Serial):
			note = "not in adb.allow: this host's worker does not drive it"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", d.Serial, d.State, d.Model, d.Product, note)
	}
	tw.Flush()
}
