package activities

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// neverIdle is a cost profile whose every screen keeps animating:
// uiautomator never finds an idle state, as on a screen with a video or a
// progress indicator that outlasts its wait.
var neverIdle = phonesim.Costs{IdleWindow: 5 * time.Millisecond, IdleTimeout: 30 * time.Millisecond,
	AnimateChance: 1, Animate: phonesim.Span{Min: time.Hour, Max: time.Hour}}

// A screen whose tree cannot be dumped is no crash: the look keeps its
// screenshot for the vision executor, and the checks that need the tree
// do not hold on the empty tree it left, while the app in front (read
// from dumpsys) is still checked.
func TestAScreenThatNeverGoesIdle(t *testing.T) {
	ctx := context.Background()
	s := newSharedPhoneWith(t, neverIdle)
	a := s.host(t)
	obs, err := a.Observe(ctx, ObserveInput{Serial: s.serial, UITree: true})
	if err != nil {
		t.Fatalf("Observe on a screen that never goes idle: %v", err)
	}
	if obs.ScreenRef == "" || obs.TreeRef != "" {
		t.Fatalf("Observe = screen %q, tree %q; want the screenshot and no tree", obs.ScreenRef, obs.TreeRef)
	}
	for _, c := range []postcond.Check{
		{Kind: postcond.ElementAbsent, Text: "Install the update"},
		{Kind: postcond.ElementExists, Text: "Settings"},
	} {
		v, err := a.Verify(ctx, VerifyInput{Serial: s.serial, Task: "Dismiss the update dialog", Message: "Dismissed it",
			Screen: obs, Expect: []postcond.Check{c}})
		if err != nil {
			t.Fatal(err)
		}
		if v.Status == verify.Done || !strings.Contains(v.Evidence, "not verified") || !strings.Contains(v.Evidence, "idle") {
			t.Fatalf("%s on an unreadable screen: %s, %q; want it not to hold, saying why", c.Kind, v.Status, v.Evidence)
		}
	}
	v, err := a.Verify(ctx, VerifyInput{Serial: s.serial, Task: "Go to the home screen", Message: "Done",
		Screen: obs, Expect: []postcond.Check{{Kind: postcond.AppInFront, App: "Launcher"}}})
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != verify.Done {
		t.Fatalf("app_in_front needs no tree; got %s, %q", v.Status, v.Evidence)
	}
}
