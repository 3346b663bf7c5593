package bench

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// The showcase's todos on phones whose dumps fail, now and then or always:
// each todo ends done only where the phone shows it, else it fails
// honestly; no step crashes on a tree uiautomator cannot dump.
func TestShowcaseOnPhonesWhoseDumpsFail(t *testing.T) {
	stacktest.NeedADB(t)
	if testing.Short() {
		t.Skip("starts the embedded Temporal server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	st, err := StartStack(ctx, "", false, log)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Stop()
	ms := time.Millisecond
	for _, tc := range []struct {
		name  string
		costs phonesim.Costs
	}{
		// Half the screens animate for 0.3–1.5 s, longer than two dumps
		// wait: their first looks have no tree, later ones do.
		{"intermittent", phonesim.Costs{IdleWindow: 5 * ms, IdleTimeout: 50 * ms, AnimateChance: 0.5, Animate: phonesim.Span{Min: 300 * ms, Max: 1500 * ms}}},
		{"always", phonesim.Costs{IdleWindow: 5 * ms, IdleTimeout: 20 * ms, AnimateChance: 1, Animate: phonesim.Span{Min: time.Hour, Max: time.Hour}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env, err := st.StartEnv(ctx, EnvOptions{Phones: 1, NoWorker: true, Costs: tc.costs, Model: modelserver.Config{}})
			if err != nil {
				t.Fatal(err)
			}
			defer env.Stop()
			serial, phone := env.Serials[0], env.Phones[0]
			done := 0
			for i, task := range overheadTasks {
				_, msg, err := DirectTodo(ctx, env.Acts, serial, fmt.Sprintf("dumps-%s-%d", tc.name, i), task, workflows.DefaultTodoMaxSteps, nil)
				s := phone.State()
				if err != nil {
					if !errors.Is(err, errNotVerified) && !strings.Contains(err.Error(), "did not finish") {
						t.Fatalf("%q: %v; want done or an honest failure", task, err)
					}
					t.Logf("%q ended honestly: %v", task, err)
					continue
				}
				done++
				switch i {
				case 0:
					if len(s.Alarms) == 0 || !strings.Contains(msg, s.Alarms[0].Time) {
						t.Errorf("%q done with %q; the first alarm is %+v", task, msg, s.Alarms)
					}
				case 1:
					if !sent(s, "Alice Chen", "07:00") {
						t.Errorf("%q done, but the phone sent %+v", task, s.MessagesSent)
					}
				case 2:
					if !s.Toggles.Bluetooth {
						t.Errorf("%q done, but Bluetooth is off", task)
					}
				}
			}
			if phone.DumpsNotIdle() == 0 {
				t.Errorf("no dump failed: the profile did not take")
			}
			t.Logf("%s: %d of %d todos done, %d dumps found no idle state", tc.name, done, len(overheadTasks), phone.DumpsNotIdle())
		})
	}
}
