package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/planner"
)

func init() { rootCmd.AddCommand(newParseCmd()) }

func newParseCmd() *cobra.Command {
	var phase string
	cmd := &cobra.Command{
		Use:   "parse",
		Short: "Check a model answer against the executor (or planner) protocol",
		Long: `parse reads one model answer on stdin and prints what phoneflow makes of it
as one line of JSON, so you can check whether your model's output fits the
protocol before pointing phoneflow at it.

By default the answer is an executor answer in AutoGLM-Phone form
(<think>…</think><answer>do(…)</answer>); the output is
{"thinking":…,"action":{"name":…,…}}. With --planner plan or --planner replan
the answer is a planner JSON answer; the output is the validated decision.

If the answer does not fit, the reason goes to stderr and the exit status is 1.`,
		Example: `  echo '<think>Open it.</think><answer>do(action="Launch", app="Settings")</answer>' | starter parse
  echo 'do(action="Tap", element=[500,300])' | starter parse
  starter parse < answer.txt
  echo '{"status":"planned","plan":["Turn on Wi-Fi"],"task_type":"toggle_setting"}' | starter parse --planner plan`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if phase != "" && phase != planner.PhasePlan && phase != planner.PhaseReplan {
				return usageError{fmt.Errorf("--planner %q: use plan or replan", phase)}
			}
			return runParse(cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr(), phase)
		},
	}
	cmd.Flags().StringVar(&phase, "planner", "", "parse a planner answer of this phase (plan or replan) instead of an executor answer")
	return cmd
}

// runParse parses the answer on in and prints the result to out, or the
// reason it does not fit to errOut (exit status 1).
func runParse(in io.Reader, out, errOut io.Writer, phase string) error {
	data, err := io.ReadAll(io.LimitReader(in, 1<<20))
	if err != nil {
		return fmt.Errorf("read stdin: %w", err)
	}
	text := string(data)
	if strings.TrimSpace(text) == "" {
		return usageError{errors.New("no answer on stdin: pipe the model's answer in, e.g. starter parse < answer.txt")}
	}
	var result any
	switch phase {
	case planner.PhasePlan:
		result, err = planner.ParsePlan(text)
	case planner.PhaseReplan:
		result, err = planner.ParseReplan(text)
	default:
		result, err = autoglm.Parse(text)
	}
	if err != nil {
		var pe *autoglm.ParseError
		var ve *planner.ValidationError
		switch {
		case errors.As(err, &pe):
			fmt.Fprintf(errOut, "parse error: %s\n", pe.Reason)
		case errors.As(err, &ve):
			fmt.Fprintf(errOut, "invalid %s answer:\n  - %s\n", ve.Phase, strings.Join(ve.Problems, "\n  - "))
		default:
			fmt.Fprintf(errOut, "error: %v\n", err)
		}
		return exitError{exitFailure}
	}
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	return enc.Encode(result)
}
