// Command starter is phoneflow's user CLI: it starts goals, steers them with
// signals and updates, manages schedules, and runs the demo, the simulator,
// the offline model server and the benchmarks.
//
// Each subcommand lives in its own file and registers itself on rootCmd from
// an init function; the work itself is done by packages under internal/.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/internal/tracing"
)

// Exit codes shared by every subcommand.
const (
	exitOK       = 0 // success
	exitFailure  = 1 // the command ran and failed (goal failed, parse error, server error)
	exitUsage    = 2 // bad flags or arguments
	exitNotFound = 3 // the workflow, device or schedule does not exist
)

var rootCmd = &cobra.Command{
	Use:   "starter",
	Short: "phoneflow: durable natural-language phone goals on Temporal",
	Long: `starter is phoneflow's command line.

Exit codes:
  0  success
  1  the command ran and failed (goal failed, parse error, server unreachable)
  2  bad flags or arguments
  3  the workflow, device or schedule does not exist`,
	SilenceUsage:  true,
	SilenceErrors: true,
}

// usageError marks an error caused by bad flags or arguments (exit 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// notFoundError marks an error about a missing workflow, device or schedule (exit 3).
type notFoundError struct{ err error }

func (e notFoundError) Error() string { return e.err.Error() }
func (e notFoundError) Unwrap() error { return e.err }

// exitError carries an explicit exit code with an already-printed outcome.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ue usageError
	var nf notFoundError
	var ee exitError
	switch {
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &ue):
		return exitUsage
	case errors.As(err, &nf):
		return exitNotFound
	}
	return exitFailure
}

func main() {
	rootCmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	wireUsage(rootCmd)
	err := usageOf(rootCmd.Execute())
	// Export the client's spans still buffered (telemetry.otlp_endpoint).
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	_ = tracing.Shutdown(sctx)
	cancel()
	var ee exitError
	if err != nil && !errors.As(err, &ee) {
		fmt.Fprintln(os.Stderr, "error:", err)
	}
	os.Exit(exitCode(err))
}
