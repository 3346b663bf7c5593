package device

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// TestNotesOverRealADB keeps files on the simulated phone through the real
// adb server: written atomically, read back, marks listed, dropped, and a
// phone whose /data is full refusing the write (docs/design.md §4).
func TestNotesOverRealADB(t *testing.T) {
	s := startStack(t)
	ctx := context.Background()
	d := New(s.client, s.serial, Options{}).(Notes)

	long := strings.Repeat("长消息 it's \\n ", 4000) // several chunks, a quote, a backslash
	listed, err := d.WriteNotes(ctx, NotesWrite{
		Files: map[string]string{"journal/a/x": `{"id":"g/t/r/1","text":"it's"}`, "journal/a/long": long},
		Marks: []string{"journal/t/0000000000000000007"},
		List:  "journal/t",
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(listed, []string{"0000000000000000007"}) {
		t.Fatalf("listed after the write = %v", listed)
	}
	got, listed, err := d.ReadNotes(ctx, []string{"journal/a/x", "journal/a/long", "journal/a/missing"}, "journal/t")
	if err != nil {
		t.Fatal(err)
	}
	if got["journal/a/x"] != `{"id":"g/t/r/1","text":"it's"}` || got["journal/a/long"] != long {
		t.Fatalf("read back: %q (long file %d bytes, want %d)", got["journal/a/x"], len(got["journal/a/long"]), len(long))
	}
	if _, ok := got["journal/a/missing"]; ok || !slices.Equal(listed, []string{"0000000000000000007"}) {
		t.Fatalf("missing file read as %q; listed %v", got["journal/a/missing"], listed)
	}
	// Replace, mark and drop in one write.
	listed, err = d.WriteNotes(ctx, NotesWrite{
		Files: map[string]string{"journal/a/x": `{"id":"g/t/r/1","applied":true}`},
		Marks: []string{"journal/t/0000000000000000009"},
		Drop:  []string{"journal/t/0000000000000000007"},
		Prune: "journal/a", PruneDays: 7,
		List: "journal/t",
	})
	if err != nil || !slices.Equal(listed, []string{"0000000000000000009"}) {
		t.Fatalf("second write: %v, listed %v", err, listed)
	}
	if got, _, err := d.ReadNotes(ctx, []string{"journal/a/x"}, ""); err != nil || got["journal/a/x"] != `{"id":"g/t/r/1","applied":true}` {
		t.Fatalf("after replacing: %q, %v", got["journal/a/x"], err)
	}
	// A full /data: the command runs and fails, which is not a broken
	// connection.
	if err := s.phone.SetFault(phonesim.Fault{Kind: phonesim.FaultDataFull}); err != nil {
		t.Fatal(err)
	}
	_, err = d.WriteNotes(ctx, NotesWrite{Files: map[string]string{"journal/a/y": "{}"}})
	if !errors.Is(err, ErrNotesRefused) || !strings.Contains(err.Error(), "No space left on device") {
		t.Fatalf("write on a full phone: %v", err)
	}
	if got, _, err := d.ReadNotes(ctx, []string{"journal/a/y", "journal/a/x"}, ""); err != nil || len(got) != 1 {
		t.Fatalf("after the refused write: %v, %v", got, err)
	}
}

func TestNotePathStaysUnderNotesDir(t *testing.T) {
	for rel, want := range map[string]string{
		"journal/a/x":       NotesDir + "/journal/a/x",
		"../../../etc/x":    NotesDir + "/etc/x",
		"/journal//t/./007": NotesDir + "/journal/t/007",
	} {
		if got, err := notePath(rel); err != nil || got != want {
			t.Errorf("notePath(%q) = %q, %v; want %q", rel, got, err, want)
		}
	}
	for _, bad := range []string{"", "/", "a\nb"} {
		if _, err := notePath(bad); err == nil {
			t.Errorf("notePath(%q) accepted", bad)
		}
	}
}
