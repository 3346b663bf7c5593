package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/fleet"
	"github.com/phoneflow/phoneflow/internal/goalctl"
)

func init() { rootCmd.AddCommand(newDevicesCmd()) }

func newDevicesCmd() *cobra.Command {
	var asJSON, workers bool
	cmd := &cobra.Command{
		Use:   "devices",
		Short: "List the phones of the configured ADB server",
		Long: `devices asks the ADB server (adb.address, default 127.0.0.1:5037) for its
phones and prints each one's serial, state and model. Only phones in state
"device" can run goals; "unauthorized" means the phone has not accepted this
computer's key, "offline" that it must be reconnected. Phones outside
adb.allow (when set) are marked as not served by this host's worker.

The WORKER column asks Temporal whether a worker serves each phone: "served
by <worker> (heartbeat Ns ago)", or "no worker serves phone X since
HH:MM:SS" when a running goal on the phone found nobody taking its work, or
the worker process that polls the phone's task queue has sent no worker
heartbeat for 3 of its heartbeat intervals (phoneflow's workers send one
every 5 s, so a dead worker is told within about 15 s). On a cluster that
takes no worker heartbeats (Temporal server older than 1.29.1, or
frontend.WorkerHeartbeatsEnabled off) it falls back to the queue's polls,
sees a dead worker only after 75 s, and says so under the table.
--workers=false skips it (no Temporal needed).

The NOTE column also says when the phone's lease took the phone from a goal
whose workflow task kept failing (a bad deploy): "phone taken from goal X:
its workflow task has failed since HH:MM (…)".`,
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
			rows := make([]deviceRow, len(devs))
			for i, d := range devs {
				rows[i].DeviceInfo, rows[i].Labels = d, cfg.ADB.LabelsOf(d.Serial)
			}
			if workers {
				addWorkers(cmd.Context(), cmd.ErrOrStderr(), cfg, rows)
			}
			return writeList(cmd.OutOrStdout(), asJSON, rows, func(w io.Writer, d []deviceRow) { printDevices(w, cfg, d) })
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	cmd.Flags().BoolVar(&workers, "workers", true, "ask Temporal whether a worker serves each phone")
	config.BindFlags(cmd.Flags())
	return cmd
}

// deviceRow is a phone as `devices` prints it: Labels and Facts are
// what the worker that serves it published (docs/design.md#phone-fleet),
// else the labels this config's adb.labels gives it.
type deviceRow struct {
	adb.DeviceInfo
	Labels []string               `json:"labels,omitempty"`
	Facts  *device.Facts          `json:"facts,omitempty"`
	Worker *goalctl.DeviceService `json:"worker,omitempty"`
}

// deviceWorkers tells, for each serial, whether a worker serves it, and
// returns the fleet's published phones (nil when they cannot be read).
var deviceWorkers = func(ctx context.Context, cfg config.Config, serials []string) ([]goalctl.DeviceService, []fleet.Phone, error) {
	c, err := dialTemporal(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	defer c.Close()
	g := goalctl.New(c, goalctl.Options{Namespace: cfg.Temporal.Namespace})
	out := make([]goalctl.DeviceService, len(serials))
	for i, s := range serials {
		qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		out[i], err = g.DeviceService(qctx, s, time.Now())
		if err == nil {
			out[i].Lease = g.LeaseNote(qctx, s)
		}
		cancel()
		if err != nil {
			return nil, nil, err
		}
	}
	fctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	phones, _ := g.Fleet(fctx) // the labels of adb.labels stand in
	return out, phones, nil
}

// addWorkers fills the rows' worker column; when Temporal cannot be asked
// it says so once on stderr and leaves the column empty.
func addWorkers(ctx context.Context, stderr io.Writer, cfg config.Config, rows []deviceRow) {
	var serials []string
	var at []int
	for i, r := range rows {
		if r.State == adb.StateDevice && allowed(cfg, r.Serial) {
			serials, at = append(serials, r.Serial), append(at, i)
		}
	}
	if len(serials) == 0 {
		return
	}
	ss, phones, err := deviceWorkers(ctx, cfg, serials)
	if err != nil {
		fmt.Fprintf(stderr, "cannot tell which phones a worker serves: %v\n", firstLineOf(err.Error()))
		return
	}
	for k, s := range ss {
		rows[at[k]].Worker = &s
	}
	for i := range rows {
		for _, p := range phones {
			if p.Serial == rows[i].Serial {
				rows[i].Labels, rows[i].Facts = p.Labels, &p.Facts
			}
		}
	}
}

// labelsText is a phone's labels in the LABELS column, "-" for none.
func labelsText(ls []string) string {
	if len(ls) == 0 {
		return "-"
	}
	return strings.Join(ls, ",")
}

func firstLineOf(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func printDevices(w io.Writer, cfg config.Config, devs []deviceRow) {
	if len(devs) == 0 {
		fmt.Fprintf(w, "the ADB server at %s has no phones: plug one in with USB debugging on, or `adb connect host:port`\n", cfg.ADB.Address)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SERIAL\tSTATE\tMODEL\tPRODUCT\tLABELS\tWORKER\tNOTE")
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
		worker := ""
		if d.Worker != nil {
			worker = d.Worker.Text
			if d.Worker.Lease != "" && note == "" {
				note = d.Worker.Lease
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", d.Serial, d.State, d.Model, d.Product, labelsText(d.Labels), worker, note)
	}
	tw.Flush()
	var notes []string
	for _, d := range devs {
		if d.Worker != nil && d.Worker.Note != "" && !slices.Contains(notes, d.Worker.Note) {
			notes = append(notes, d.Worker.Note)
		}
	}
	for _, n := range notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}
