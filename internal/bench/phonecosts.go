package bench

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// phoneCostsLatency is the model latency of both loops: the same for
// each, so the difference is the device side's.
const phoneCostsLatency = 500 * time.Millisecond

// vendorDelay is the fixed sleep after each action of the vendor client
// (Open-AutoGLM's phone_agent/config/timing.py: 1.0 s after a tap, a
// swipe, a launch, Back, Home; docs/phones.md#a-phones-costs).
const vendorDelay = time.Second

// phoneCosts measures seconds per step of the showcase's todos on phones
// that answer at once and on phones with a real phone's costs, waiting
// after each action as phoneflow does (settle) and as the vendor client
// does (a fixed second).
func (r *runner) phoneCosts(ctx context.Context) ([]Table, error) {
	t := Table{
		Title: Headings[MeasurePhoneCosts],
		Note: fmt.Sprintf("The showcase goal's three todos (%s) as a plain in-process loop calling `Activities.Step` (as the overhead measurement's (a)) on one simulated phone, reset before each run, "+
			"the offline model server answering after a fixed %d ms. Profiles (`sim.costs`): `none` answers every command at once; `phone` takes a real phone's time "+
			"(screencap 450–950 ms, `uiautomator dump` a 1 s idle wait plus 150–1200 ms, and \"could not get idle state\" after 10 s on a screen that animates, input 30–90 ms plus a swipe's "+
			"duration, ADB Keyboard 150–400 ms plus 15 ms a character, launches 300–900 ms; docs/phones.md#a-phones-costs), drawn from the phone's seed. "+
			"Waits after each action: `settle` (phoneflow's default: captures until two match) and `fixed 1 s` (the vendor client's sleep after each action, Open-AutoGLM's timing.py). "+
			"Steps are counted as the workflow counts them (every think and every device action); s/step is each run's wall time over its steps. "+
			"Dumps and screencaps per step are the phone's `uiautomator dump` and `screencap` commands over all runs' steps; dumps not idle are the dumps that found no idle state, over all runs.", strings.Join(quoteAll(overheadTasks), ", "), phoneCostsLatency.Milliseconds()),
		Header: []string{"profile", "wait after each action", "steps per run", "s/step", "todos done per run", "dumps per step", "screencaps per step", "dumps not idle"},
	}
	perStep := map[string]float64{}
	for _, profile := range []string{phonesim.CostsNone, phonesim.CostsPhone} {
		costs, err := phonesim.CostProfile(profile)
		if err != nil {
			return []Table{t}, err
		}
		for _, wait := range []struct {
			name   string
			settle config.Settle
		}{
			{"settle", config.Settle{}},
			{"fixed 1 s", config.Settle{Mode: config.SettleFixed, Fixed: vendorDelay}},
		} {
			env, err := r.st.StartEnv(ctx, EnvOptions{Phones: 1, NoWorker: true, Costs: costs, Settle: wait.settle,
				Model: modelserver.Config{Latency: phoneCostsLatency}})
			if err != nil {
				return []Table{t}, err
			}
			serial, phone := env.Serials[0], env.Phones[0]
			var sPerStep Sample
			var steps, done []int
			notIdle0 := phone.DumpsNotIdle()
			dumps0, caps0 := phone.Looks()
			for run := range r.o.Runs {
				phone.Reset()
				began, n, ok := time.Now(), 0, 0
				for _, task := range overheadTasks {
					k, _, err := DirectTodo(ctx, env.Acts, serial, r.id("costs"), task, workflows.DefaultTodoMaxSteps, nil)
					n += k
					switch {
					case err == nil:
						ok++
					case errors.Is(err, errNotVerified) || strings.Contains(err.Error(), "did not finish"):
						r.o.Progress(fmt.Sprintf("phone-costs: %s, %s, run %d: %v", profile, wait.name, run+1, err))
					default:
						env.Stop()
						return []Table{t}, fmt.Errorf("%s profile, %s: %w", profile, wait.name, err)
					}
				}
				steps = append(steps, n)
				done = append(done, ok)
				if n > 0 {
					sPerStep = append(sPerStep, time.Since(began).Seconds()/float64(n))
					r.o.Progress(fmt.Sprintf("phone-costs: %s, %s, run %d: %d steps, %.2f s/step", profile, wait.name, run+1, n, sPerStep[len(sPerStep)-1]))
				}
			}
			notIdle := phone.DumpsNotIdle() - notIdle0
			dumps, caps := phone.Looks()
			env.Stop()
			total := 0
			for _, n := range steps {
				total += n
			}
			per := func(n int) string {
				if total == 0 {
					return "n/a"
				}
				return fmt.Sprintf("%.1f", float64(n)/float64(total))
			}
			perStep[profile+"/"+wait.name] = sPerStep.Median()
			t.Rows = append(t.Rows, []string{profile, wait.name, intsSummary(steps), sPerStep.Summary(2), intsSummary(done),
				per(dumps - dumps0), per(caps - caps0), fmt.Sprint(notIdle)})
		}
	}
	if a, b := perStep["phone/settle"], perStep["phone/fixed 1 s"]; a > 0 && b > 0 {
		t.Findings = append(t.Findings, fmt.Sprintf("On the phone profile a step takes %.2f s with settle waiting and %.2f s with a fixed 1 s sleep (%.0f%%).", a, b, 100*a/b))
	}
	if a, b := perStep["none/settle"], perStep["phone/settle"]; a > 0 && b > 0 {
		t.Findings = append(t.Findings, fmt.Sprintf("phoneflow's step: %.2f s on phones that answer at once, %.2f s on the phone profile.", a, b))
	}
	return []Table{t}, nil
}
