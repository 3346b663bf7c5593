package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/workflows"
)

func init() {
	for _, c := range newSignalCmds() {
		rootCmd.AddCommand(c)
	}
}

// signalSpec describes one steering command.
type signalSpec struct {
	use, name, short, long, example string
	text                            bool // takes TEXT after the ID
	approve                         *bool
	done                            string // printed on success
	updateOnly                      bool   // no signal of that name
}

func newSignalCmds() []*cobra.Command {
	yes, no := true, false
	specs := []signalSpec{
		{use: "clarify ID TEXT", name: workflows.SignalClarify, text: true, done: "answer delivered",
			short:   "Answer the question a goal is waiting on",
			long:    "clarify answers the pending question of goal ID; the goal replans with the answer.",
			example: `  starter clarify goal-1a2b3c4d "Alice Chen"` + "\n" + `  temporal workflow signal -w goal-1a2b3c4d --name clarify --input '"Alice Chen"'   # the same with the Temporal CLI`},
		{use: "approve ID", name: workflows.SignalApprove, approve: &yes, done: "approved",
			short:   "Approve the sensitive action a goal is waiting on",
			long:    "approve lets goal ID run the sensitive action (payment, deletion, …) it asked about.",
			example: `  starter approve goal-1a2b3c4d` + "\n" + `  starter approve goal-1a2b3c4d --note "amount checked"`},
		{use: "deny ID", name: workflows.SignalApprove, approve: &no, done: "denied",
			short:   "Refuse the sensitive action a goal is waiting on",
			long:    "deny refuses the sensitive action goal ID asked about; the executor is told why (--note) and looks for another way or gives up the todo.",
			example: `  starter deny goal-1a2b3c4d --note "wrong recipient"`},
		{use: "pause ID", name: workflows.SignalPause, done: "paused",
			short:   "Pause a goal before its next device action",
			long:    "pause stops goal ID before its next device action; it holds no worker while paused. Resume it with `starter resume ID`.",
			example: `  starter pause goal-1a2b3c4d`},
		{use: "resume ID", name: workflows.SignalResume, done: "resumed",
			short:   "Resume a paused goal",
			long:    "resume continues goal ID after `starter pause`.",
			example: `  starter resume goal-1a2b3c4d`},
		{use: "inject ID TEXT", name: workflows.SignalInject, text: true, done: "instruction delivered",
			short:   "Give the executor an extra instruction for the running todo",
			long:    "inject adds TEXT to the executor's notes for goal ID's current todo (e.g. a hint about the screen).",
			example: `  starter inject goal-1a2b3c4d "the Send button is at the bottom right"`},
		{use: "reset ID", name: workflows.UpdateReset, done: "the running todo starts again with a fresh executor context", updateOnly: true,
			short:   "Start the running todo again with a fresh executor context",
			long:    "reset ends goal ID's running todo before its next device action and runs the same todo again, as a new child workflow whose executor starts from the screen with no earlier turns (what the stuck guard's restart does). What the todo already did on the phone stays done. A todo waiting for an answer or an approval is answered first.",
			example: `  starter reset goal-1a2b3c4d` + "\n" + `  temporal workflow update execute -w goal-1a2b3c4d --name reset   # the same with the Temporal CLI`},
		{use: "say ID TEXT", name: workflows.SignalUserInput, text: true, done: "message queued for the next replan",
			short:   "Send the planner a new message about the goal",
			long:    "say queues TEXT as a user message for goal ID's planner; it is read at the next replan.",
			example: `  starter say goal-1a2b3c4d "also tell Bob"`},
	}
	var out []*cobra.Command
	for _, s := range specs {
		out = append(out, newSignalCmd(s))
	}
	return out
}

func newSignalCmd(s signalSpec) *cobra.Command {
	var asSignal bool
	var note, updateID string
	verb := strings.Fields(s.use)[0]
	cmd := &cobra.Command{
		Use:   s.use,
		Short: s.short,
		Long: s.long + `

By default the command runs a Temporal update and waits for the goal's answer,
so a refusal ("` + verb + `: …") is reported and the exit status is 1; --signal
sends a plain signal instead (fire and forget). A goal that does not exist is
exit status 3. The update has an ID, kept when the command retries through an
unreachable frontend, so it is applied once; give --update-id to make a
re-run of the command (a script retrying after a timeout) apply once too.`,
		Example: s.example,
		Args: func(_ *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return usageError{fmt.Errorf("%s needs the goal ID (list goals with `starter list`)", verb)}
			case s.text && (len(args) < 2 || strings.TrimSpace(strings.Join(args[1:], " ")) == ""):
				return usageError{fmt.Errorf("%s needs the text after the goal ID, e.g. starter %s %s \"…\"", verb, verb, args[0])}
			case !s.text && len(args) > 1:
				return usageError{fmt.Errorf("%s takes only the goal ID; got %d arguments", verb, len(args))}
			}
			if s.text && len(strings.Join(args[1:], " ")) > workflows.MaxSignalText {
				return usageError{fmt.Errorf("%s: the text is over %d bytes: shorten it", verb, workflows.MaxSignalText)}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if asSignal && s.updateOnly {
				return usageError{fmt.Errorf("%s is an update only: drop --signal", verb)}
			}
			gc, err := openGoals(cmd, "")
			if err != nil {
				return err
			}
			defer gc.close()
			id := args[0]
			ctx := cmd.Context()
			if updateID != "" {
				if asSignal {
					return usageError{fmt.Errorf("%s: --update-id applies to updates; drop it or --signal", verb)}
				}
				ctx = goalctl.WithUpdateID(ctx, updateID)
			}
			switch {
			case s.text:
				err = gc.goals.SendText(ctx, id, s.name, strings.Join(args[1:], " "), asSignal)
			case s.approve != nil:
				err = gc.goals.Approve(ctx, id, *s.approve, note, asSignal)
			default:
				err = gc.goals.Send(ctx, id, s.name, nil, asSignal)
			}
			if err != nil {
				return cliErr(asVerb(err, s.name, verb))
			}
			if asSignal {
				fmt.Fprintf(cmd.OutOrStdout(), "%s: signal sent to %s\n", verb, id)
			} else {
				fmt.Fprintf(cmd.OutOrStdout(), "%s: %s (%s)\n", verb, s.done, id)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asSignal, "signal", false, "send a plain signal instead of an update (no answer from the goal)")
	cmd.Flags().StringVar(&updateID, "update-id", "", "ID of the update: running the command again with the same ID applies it once (default: a fresh ID, kept across the command's own retries)")
	if s.approve != nil {
		cmd.Flags().StringVar(&note, "note", "", "a note for the executor (why)")
	}
	config.BindNamedFlags(cmd.Flags(), config.ClientFlags)
	return cmd
}

// asVerb names the command the person typed in an error about the signal or
// update it sends: `deny` sends approve and `say` sends user_input, and an
// error that starts "approve: …" would point at the wrong command.
func asVerb(err error, name, verb string) error {
	msg := err.Error()
	if name == verb || !(strings.HasPrefix(msg, name+":") || strings.HasPrefix(msg, name+" ")) {
		return err
	}
	return renamedError{msg: verb + strings.TrimPrefix(msg, name), err: err}
}

// renamedError is an error with a reworded message that still unwraps to
// the original, so its exit code is kept.
type renamedError struct {
	msg string
	err error
}

func (e renamedError) Error() string { return e.msg }
func (e renamedError) Unwrap() error { return e.err }
