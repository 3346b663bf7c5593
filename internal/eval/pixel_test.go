package eval

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
)

// TestPixelLayouts runs a few goals on phones wearing the Pixel skin under
// every executor request layout: a Settings switch three pages deep, a
// Settings read, a message and the Clock's time picker and alarm list.
// The uitars and mobile_use layouts name no app, so the persona tells a
// Pixel screen's app from what it shows; each goal must be achieved and
// none may end done falsely. PHONEFLOW_FAST_ALL=1 adds the whole fast
// subset. It needs adb and is skipped with -short.
func TestPixelLayouts(t *testing.T) {
	stacktest.NeedADB(t)
	if testing.Short() {
		t.Skip("starts the embedded Temporal server")
	}
	ids := []string{"bt-on", "read-bt", "zh-msg-lisi", "alarm-time-taken-off", "ask-first-alarm"}
	all := os.Getenv("PHONEFLOW_FAST_ALL") == "1" // and the whole fast subset
	var run []Case
	for _, c := range Default() {
		if slices.Contains(ids, c.ID) || all && c.Fast {
			run = append(run, c)
		}
	}
	if !all && len(run) != len(ids) {
		t.Fatalf("the goal set lost some of %v", ids)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	st, err := StartStack(ctx, "", log)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Stop()
	for _, protocol := range []string{config.ProtocolPhoneflow, config.ProtocolAutoGLM, config.ProtocolUITARS, config.ProtocolMobileUse, config.ProtocolTools} {
		t.Run(protocol, func(t *testing.T) {
			sum, err := Run(ctx, st, Options{Cases: run, Seed: 1, Batch: len(run), Protocol: protocol, Skin: phonesim.SkinPixel})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := Render(&b, "Pixel skin ("+protocol+" layout)", sum); err != nil {
				t.Fatal(err)
			}
			t.Log("\n" + b.String())
			if sum.FalseDone != 0 || sum.Achieved != sum.Goals {
				for _, o := range sum.Outcomes {
					if !o.Achieved {
						t.Logf("%s: %s (%s)", o.Task.ID, o.Status, o.Why)
					}
				}
				t.Fatalf("achieved %d of %d, false done %d", sum.Achieved, sum.Goals, sum.FalseDone)
			}
		})
	}
}
