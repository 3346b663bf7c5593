package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/internal/memory"
)

func TestMemoryCommands(t *testing.T) {
	dir := t.TempDir()
	s, err := memory.Open(filepath.Join(dir, "memory"))
	if err != nil {
		t.Fatal(err)
	}
	mom, _ := memory.FromAnswer(memory.PhoneScope("emulator-5554"), "Which contact is Mom?", `"Mom" in Contacts`)
	wifi, _ := memory.FromVerified(memory.PhoneScope("other"), "Turn on Wi-Fi", "the Wi-Fi switch is on")
	for _, f := range []memory.Fact{mom, wifi} {
		if err := s.Learn(f, "goal-1"); err != nil {
			t.Fatal(err)
		}
	}
	cli := func(args ...string) (string, int) {
		return execCLI(t, nil, "", []*cobra.Command{newMemoryCmd()}, append(append([]string{"memory"}, args...), "--data-dir", dir)...)
	}
	out, code := cli("list")
	if code != 0 || !strings.Contains(out, mom.ID) || !strings.Contains(out, wifi.ID) || !strings.Contains(out, "Which contact is Mom?") {
		t.Fatalf("list: exit %d\n%s", code, out)
	}
	out, code = cli("list", "--device", "emulator-5554")
	if code != 0 || !strings.Contains(out, mom.ID) || strings.Contains(out, wifi.ID) {
		t.Fatalf("list --device: exit %d\n%s", code, out)
	}
	out, code = cli("show", mom.ID)
	if code != 0 || !strings.Contains(out, "goal-1") || !strings.Contains(out, "phone:emulator-5554") {
		t.Fatalf("show: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{{"show", "m-0123456789ab"}, {"delete", "../../etc/passwd"}} {
		out, code = cli(args...)
		if code != exitNotFound || !strings.Contains(out, "starter memory list") {
			t.Errorf("%v: exit %d, want %d naming the fix\n%s", args, code, exitNotFound, out)
		}
	}
	if out, code = cli("delete", mom.ID); code != 0 || !strings.Contains(out, "deleted "+mom.ID) {
		t.Fatalf("delete: exit %d\n%s", code, out)
	}
	if out, code = cli("clear"); code != 0 || !strings.Contains(out, "deleted 1 facts") {
		t.Fatalf("clear: exit %d\n%s", code, out)
	}
	if out, code = cli("list"); code != 0 || !strings.Contains(out, "nothing remembered") {
		t.Fatalf("list after clear: exit %d\n%s", code, out)
	}
	if out, code = execCLI(t, nil, "", []*cobra.Command{newMemoryCmd()}, "memory", "--help"); code != 0 || !strings.Contains(out, "never a password") || !strings.Contains(out, "starter memory clear --device") {
		t.Errorf("--help: exit %d\n%s", code, out)
	}
}
