package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/dialect"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/planner"
	"github.com/phoneflow/phoneflow/internal/toolcall"
)

func init() { rootCmd.AddCommand(newParseCmd()) }

func newParseCmd() *cobra.Command {
	var phase, screen string
	o := parseOptions{}
	cmd := &cobra.Command{
		Use:   "parse [answer]",
		Short: "Check a model answer against the executor (or planner) protocol",
		Long: `parse reads one model answer (the argument, or stdin) and prints what
phoneflow makes of it as one line of JSON, so you can check whether your
model's output fits the protocol before pointing phoneflow at it.

By default the answer is an executor answer in AutoGLM-Phone form
(<think>…</think><answer>do(…)</answer>); the output is
{"thinking":…,"action":{"name":…,…}}, points on the 0-999 grid over the
screen. --protocol reads another family's grammar (docs/models.md):
uitars ("Thought: …\nAction: click(start_box='(x,y)')"), mobile_use
(<tool_call>{"name": "mobile_use", …}</tool_call>), or tools (the tool-call
JSON: {"name": "tap", "arguments": {"x": 500, "y": 300}}, a list of them, or
an assistant message with "tool_calls"). Points of uitars and mobile_use
answers are read in --coordinates (pixels of the image the model saw, for a
--screen of that size, or relative) as the worker reads them.
With --planner plan or --planner replan the answer is a planner JSON answer;
the output is the validated decision.

If the answer does not fit, the reason goes to stderr and the exit status is
1; an answer in another family's grammar is named with the setting that
reads it. Bad flags exit with 2.`,
		Example: `  echo '<think>Open it.</think><answer>do(action="Launch", app="Settings")</answer>' | starter parse
  starter parse 'do(action="Tap", element=[500,300])'
  starter parse --protocol uitars "Thought: open it
Action: click(start_box='(546,1204)')"
  starter parse --protocol mobile_use < answer.txt
  starter parse --protocol tools '{"name": "tap", "arguments": {"x": 500, "y": 300}}'
  echo '{"status":"planned","plan":["Turn on Wi-Fi"],"task_type":"toggle_setting"}' | starter parse --planner plan`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if phase != "" && phase != planner.PhasePlan && phase != planner.PhaseReplan {
				return usageError{fmt.Errorf("--planner %q: use plan or replan", phase)}
			}
			if !slices.Contains(config.Protocols(), o.protocol) {
				return usageError{fmt.Errorf("--protocol %q: use %s", o.protocol, strings.Join(config.Protocols(), ", "))}
			}
			if o.coords != "" && o.coords != config.CoordsPixels && o.coords != config.CoordsRelative {
				return usageError{fmt.Errorf("--coordinates %q: use pixels or relative", o.coords)}
			}
			if _, err := fmt.Sscanf(screen, "%dx%d", &o.w, &o.h); err != nil || o.w <= 0 || o.h <= 0 {
				return usageError{fmt.Errorf("--screen %q: give the screen's size as WIDTHxHEIGHT, e.g. 1080x2400", screen)}
			}
			in := cmd.InOrStdin()
			if len(args) == 1 {
				in = strings.NewReader(args[0])
			}
			o.phase = phase
			return runParse(in, cmd.OutOrStdout(), cmd.ErrOrStderr(), o)
		},
	}
	cmd.Flags().StringVar(&phase, "planner", "", "parse a planner answer of this phase (plan or replan) instead of an executor answer")
	cmd.Flags().StringVar(&o.protocol, "protocol", config.ProtocolAutoGLM, "the executor protocol whose grammar to read: "+strings.Join(config.Protocols(), ", "))
	cmd.Flags().StringVar(&o.coords, "coordinates", "", "uitars and mobile_use: pixels (of the resized image) or relative (a grid); empty: pixels")
	cmd.Flags().StringVar(&screen, "screen", "1080x2400", "the screen's size in pixels, for answers in pixels")
	return cmd
}

// parseOptions say how runParse reads an answer.
type parseOptions struct {
	phase, protocol, coords string
	w, h                    int // the screen
}

// runParse parses the answer on in and prints the result to out, or the
// reason it does not fit to errOut (exit status 1).
func runParse(in io.Reader, out, errOut io.Writer, o parseOptions) error {
	data, err := io.ReadAll(io.LimitReader(in, 1<<20))
	if err != nil {
		return fmt.Errorf("read stdin: %w", err)
	}
	text := string(data)
	if strings.TrimSpace(text) == "" {
		return usageError{errors.New("no answer on stdin: pipe the model's answer in, e.g. starter parse < answer.txt")}
	}
	var result any
	switch o.phase {
	case planner.PhasePlan:
		result, err = planner.ParsePlan(text)
	case planner.PhaseReplan:
		result, err = planner.ParseReplan(text)
	default:
		result, err = parseExecutor(text, o)
	}
	if err != nil {
		var pe *autoglm.ParseError
		var ve *planner.ValidationError
		var wf *dialect.WrongFamilyError
		switch {
		case errors.As(err, &wf):
			fmt.Fprintf(errOut, "parse error: %s\n", wf.Error())
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

// parseExecutor reads an executor answer of o.protocol as the worker does,
// for a screenshot of o's screen sent at full size.
func parseExecutor(text string, o parseOptions) (autoglm.Response, error) {
	cfg := autoglm.DefaultConfig()
	cfg.Protocol, cfg.Coordinates, cfg.MaxPixels = o.protocol, o.coords, autoglm.FullSize
	if o.protocol != config.ProtocolTools {
		return dialect.Parse(o.protocol, text, dialect.Frame(cfg, o.w, o.h))
	}
	calls, err := toolCalls(text)
	if err != nil {
		return autoglm.Response{}, &autoglm.ParseError{Raw: text, Reason: err.Error()}
	}
	return toolcall.Parse(calls, nil)
}

// toolCalls reads tool calls written as JSON: one {"name", "arguments"}
// object (arguments an object or a JSON string), a list of them, the
// OpenAI form with "function", or a message holding "tool_calls".
func toolCalls(text string) ([]llm.ToolCall, error) {
	type fn struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	type item struct {
		fn
		Function *fn `json:"function"`
	}
	var msg struct {
		ToolCalls []item `json:"tool_calls"`
	}
	var items []item
	t := strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(t, "["):
		if err := json.Unmarshal([]byte(t), &items); err != nil {
			return nil, fmt.Errorf("the tool calls are not a JSON list of calls: %v", err)
		}
	case json.Unmarshal([]byte(t), &msg) == nil && len(msg.ToolCalls) > 0:
		items = msg.ToolCalls
	default:
		var one item
		if err := json.Unmarshal([]byte(t), &one); err != nil {
			return nil, fmt.Errorf(`the tool call is not JSON: give {"name": "tap", "arguments": {...}}: %v`, err)
		}
		items = []item{one}
	}
	var calls []llm.ToolCall
	for _, it := range items {
		f := it.fn
		if it.Function != nil {
			f = *it.Function
		}
		args := string(f.Arguments)
		var s string
		if json.Unmarshal(f.Arguments, &s) == nil {
			args = s
		}
		calls = append(calls, llm.ToolCall{Name: f.Name, Arguments: args})
	}
	return calls, nil
}
