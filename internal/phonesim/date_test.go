package phonesim

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// `date +%s` prints the phone's clock, which moves with the phone's life
// (a clock that jumps forward reads later at once).
func TestDatePrintsThePhonesClock(t *testing.T) {
	p := New(Config{Serial: "emulator-5554", Life: Life{Manual: true}})
	read := func() int64 {
		t.Helper()
		n, err := strconv.ParseInt(strings.TrimSpace(sh(t, p, "date +%s")), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := read()
	p.Advance(30 * 24 * time.Hour)
	if got := read() - before; got != 30*24*3600 {
		t.Fatalf("the clock moved on by %d s, want 30 days", got)
	}
	if out := sh(t, p, "date -u +%F || echo failed"); !strings.Contains(out, "failed") {
		t.Fatalf("an unknown form: %q", out)
	}
}
