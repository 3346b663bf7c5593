package bench

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// WrongTapRate is the share of executor taps the offline model server
// moves to a wrong point in the robustness measurement.
const WrongTapRate = 0.2

// HardWrongTapRate is a second, harsher setting of the robustness
// measurement (full runs only), where one tap in two misses.
const HardWrongTapRate = 0.5

// GoalCase is one goal of the simulator's goal set and how to tell from
// the phone (and the goal's answer) that it was reached.
type GoalCase struct {
	Name  string
	Goal  string
	Check func(st phonesim.State, response string) bool
}

// GoalSet is the robustness goal set: toggles, brightness, message, alarm,
// note, two reads and a multi-clause goal.
var GoalSet = []GoalCase{
	{"toggle on", "Turn on Bluetooth", func(s phonesim.State, _ string) bool { return s.Toggles.Bluetooth }},
	{"toggle off", "Turn off Wi-Fi", func(s phonesim.State, _ string) bool { return !s.Toggles.WiFi }},
	{"brightness", "Set brightness to 80%", func(s phonesim.State, _ string) bool { return s.Brightness == 80 }},
	{"message", "Send Bob a message saying see you", func(s phonesim.State, _ string) bool {
		return sent(s, "Bob Li", "see you")
	}},
	{"alarm", "Create an alarm at 07:30 labelled Gym", func(s phonesim.State, _ string) bool {
		for _, a := range s.Alarms {
			if a == (phonesim.Alarm{Time: "07:30", Label: "Gym", Enabled: true}) {
				return true
			}
		}
		return false
	}},
	{"note", "Create a note titled Trip with pack passport", func(s phonesim.State, _ string) bool {
		for _, n := range s.Notes {
			if n == (phonesim.Note{Title: "Trip", Body: "pack passport"}) {
				return true
			}
		}
		return false
	}},
	{"read version", "Read the Android version", func(_ phonesim.State, resp string) bool {
		return strings.Contains(resp, "14")
	}},
	{"read alarm", "Read the time of the first alarm in Clock", func(_ phonesim.State, resp string) bool {
		return strings.Contains(resp, "07:00")
	}},
	{"multi-clause", "Read the time of the first alarm in Clock and then send it to Alice", func(s phonesim.State, _ string) bool {
		return sent(s, "Alice Chen", "07:00")
	}},
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

func sent(s phonesim.State, to, text string) bool {
	for _, m := range s.MessagesSent {
		if m.To == to && m.Text == text {
			return true
		}
	}
	return false
}

// goalOutcome is one goal run of the robustness measurement.
type goalOutcome struct {
	ok    bool
	steps int
	why   string
}

func (r *runner) robustness(ctx context.Context) ([]Table, error) {
	seeds := []int64{1, 2, 3}
	if r.o.Quick {
		seeds = []int64{1}
	}
	t := Table{
		Title: Headings[MeasureRobustness],
		Note: fmt.Sprintf("The offline executor moves %.0f%% of its taps to a wrong point (`modelserver.Config.RateWrongTap`; full runs add a %.0f%% setting). "+
			"The %d goals below run in layered mode (planner, todos, replans, stuck and failure guards) and in single-loop mode "+
			"(`GoalOptions.Mode = \"single\"`: the executor runs the whole goal as one todo, as the reference design did), with model-server seeds %v. "+
			"For each seed and mode a fresh model server with that seed and fresh phones (one per goal) run all goals at once, so the two modes start from the same "+
			"random source; the goals' requests interleave, so the wrong taps do not hit the same steps in both modes. "+
			"Success = the goal ended done AND the simulator's state (or, for reads, the goal's answer) shows the goal's effect.",
			WrongTapRate*100, HardWrongTapRate*100, len(GoalSet), seeds),
		Header: []string{"wrong taps", "mode", "success", "success rate", "mean steps per goal", "failed goals (seed: goal)"},
	}
	rates := []float64{WrongTapRate, HardWrongTapRate}
	if r.o.Quick {
		rates = rates[:1]
	}
	per := map[string]map[string]int{} // mode -> goal name -> successes at WrongTapRate
	for _, rate := range rates {
		for _, mode := range []string{workflows.ModeLayered, workflows.ModeSingle} {
			if rate == WrongTapRate {
				per[mode] = map[string]int{}
			}
			okN, total, steps := 0, 0, 0
			var failed, reasons []string
			for _, seed := range seeds {
				outs, err := r.runGoalSet(ctx, mode, seed, rate)
				if err != nil {
					return []Table{t}, err
				}
				for i, o := range outs {
					total++
					steps += o.steps
					if o.ok {
						okN++
						if rate == WrongTapRate {
							per[mode][GoalSet[i].Name]++
						}
					} else {
						failed = append(failed, fmt.Sprintf("%d: %s", seed, GoalSet[i].Name))
						reasons = append(reasons, fmt.Sprintf("%s, seed %d, %s: %s", mode, seed, GoalSet[i].Name, clip(o.why, 200)))
					}
				}
				r.o.Progress(fmt.Sprintf("robustness %s at %.0f%% wrong taps, seed %d done", mode, rate*100, seed))
			}
			t.Rows = append(t.Rows, []string{fmt.Sprintf("%.0f%%", rate*100), mode, fmt.Sprintf("%d/%d", okN, total), fmt.Sprintf("%.0f%%", 100*float64(okN)/float64(total)),
				fmt.Sprintf("%.1f", float64(steps)/float64(total)), strings.Join(failed, ", ")})
			t.Findings = append(t.Findings, reasons...)
		}
	}
	g := Table{
		Title:  "Successes per goal at 20% wrong taps",
		Header: []string{"goal", "layered", "single"},
	}
	for _, c := range GoalSet {
		g.Rows = append(g.Rows, []string{fmt.Sprintf("%s: %q", c.Name, c.Goal),
			fmt.Sprintf("%d/%d", per[workflows.ModeLayered][c.Name], len(seeds)),
			fmt.Sprintf("%d/%d", per[workflows.ModeSingle][c.Name], len(seeds))})
	}
	return []Table{t, g}, nil
}

// runGoalSet runs every goal of GoalSet at once, each on its own fresh
// phone, against a model server seeded with seed.
func (r *runner) runGoalSet(ctx context.Context, mode string, seed int64, wrongTaps float64) ([]goalOutcome, error) {
	env, err := r.st.StartEnv(ctx, EnvOptions{Phones: len(GoalSet), Model: modelserver.Config{Seed: seed, RateWrongTap: wrongTaps}})
	if err != nil {
		return nil, err
	}
	defer env.Stop()
	outs := make([]goalOutcome, len(GoalSet))
	var wg sync.WaitGroup
	for i, c := range GoalSet {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := r.runGoal(ctx, r.id("robust"), c.Goal, env.Serials[i], workflows.GoalOptions{Mode: mode, AutoApprove: true})
			o := goalOutcome{steps: res.Steps}
			switch {
			case err != nil:
				o.why = err.Error()
			case res.Status != workflows.GoalDone:
				o.why = res.Status + ": " + res.Reason
			case !c.Check(env.Phones[i].State(), res.Response):
				o.why = "done, but the phone does not show it: " + res.Response
			default:
				o.ok = true
			}
			outs[i] = o
		}()
	}
	wg.Wait()
	return outs, ctx.Err()
}
