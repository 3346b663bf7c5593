package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/routine"
)

func TestRoutinesCommands(t *testing.T) {
	dir := t.TempDir()
	s, err := routine.Open(filepath.Join(dir, "routines"))
	if err != nil {
		t.Fatal(err)
	}
	task := routine.Parse(`Send Alice a message saying "hi"`)
	key := routine.Key{Template: task.Template, App: "com.android.launcher3", Model: "Pixel 7", Width: 1080, Height: 2400}
	steps := []routine.Step{{Screen: "tree:x:1", Action: autoglm.Action{Name: autoglm.ActionLaunch, App: "Messages"}},
		{Screen: "tree:x:2", Action: autoglm.Action{Name: autoglm.ActionType, Text: "{2}"}}}
	if _, err := s.Record(routine.Outcome{Key: key, Task: task, Example: "Send Alice a message saying \"hi\"", Steps: steps, Success: true}, time.Now()); err != nil {
		t.Fatal(err)
	}
	id := key.ID()
	cli := func(args ...string) (string, int) {
		return execCLI(t, nil, "", []*cobra.Command{newRoutinesCmd()}, append(append([]string{"routines"}, args...), "--data-dir", dir)...)
	}
	out, code := cli("list")
	if code != 0 || !strings.Contains(out, id) || !strings.Contains(out, "send {1} a message saying {2}") {
		t.Fatalf("list: exit %d\n%s", code, out)
	}
	out, code = cli("show", id)
	if code != 0 || !strings.Contains(out, `"text":"{2}"`) || !strings.Contains(out, "Pixel 7 1080x2400") {
		t.Fatalf("show: exit %d\n%s", code, out)
	}
	// Another resolution: show says the phone cannot use it.
	old := phoneOf
	t.Cleanup(func() { phoneOf = old })
	phoneOf = func(context.Context, config.Config, string) (string, int, int, error) {
		return "Pixel 7", 720, 1600, nil
	}
	out, code = cli("show", id, "--device", "emulator-5554")
	if code != 0 || !strings.Contains(out, "emulator-5554 cannot use this routine: resolution 720x1600, recorded on 1080x2400") {
		t.Fatalf("show --device: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{{"show", "r-0123456789ab"}, {"delete", "r-0123456789ab"}, {"show", "../../etc/passwd"}} {
		out, code = cli(args...)
		if code != exitNotFound || !strings.Contains(out, "no such routine") || !strings.Contains(out, "starter routines list") {
			t.Errorf("%v: exit %d, want %d naming the fix\n%s", args, code, exitNotFound, out)
		}
	}
	out, code = cli("delete", id)
	if code != 0 || !strings.Contains(out, "deleted routine "+id) {
		t.Fatalf("delete: exit %d\n%s", code, out)
	}
	out, _ = cli("list")
	if !strings.Contains(out, "no routines in") {
		t.Fatalf("list after delete:\n%s", out)
	}
}
