package bench

import (
	"context"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
)

// TestScreenshotMeasure runs the screenshot measurement once on the
// embedded stack: every screen gets a row, the photo-like home screens
// among them, and their image sent is a far smaller share of the full PNG
// than the flat screens' (byte counts, not timings: the same seed draws
// the same pixels and the encoders are deterministic).
func TestScreenshotMeasure(t *testing.T) {
	stacktest.NeedADB(t)
	if testing.Short() {
		t.Skip("starts the embedded Temporal server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	rep, err := Run(ctx, Options{Quick: true, Only: MeasureScreenshot, Command: "go test", Logger: log, Progress: func(s string) { t.Log(s) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Errors) > 0 {
		t.Fatalf("measurement failed: %v", rep.Errors)
	}
	if len(rep.Tables()) != 1 {
		t.Fatalf("%d tables, want the screenshot table", len(rep.Tables()))
	}
	tab := rep.Tables()[0]
	col := map[string]int{}
	for i, h := range tab.Header {
		col[h] = i
	}
	share := func(row []string) float64 {
		t.Helper()
		v, err := strconv.ParseFloat(strings.Fields(row[col["sent / full PNG"]])[0], 64)
		if err != nil {
			t.Fatalf("share %q: %v", row[col["sent / full PNG"]], err)
		}
		return v
	}
	var flat, photo []float64
	for _, row := range tab.Rows {
		if strings.HasPrefix(row[0], photoScreen) {
			photo = append(photo, share(row))
		} else {
			flat = append(flat, share(row))
		}
		if !strings.Contains(row[col["sent size"]], "540×1200 image/jpeg q") {
			t.Errorf("%s: sent %q, want the 540×1200 JPEG with its quality", row[0], row[col["sent size"]])
		}
	}
	if len(flat) != 3 || len(photo) != len(photoSeeds) {
		t.Fatalf("rows: %d flat, %d photo-like", len(flat), len(photo))
	}
	for _, p := range photo {
		for _, f := range flat {
			if p >= f/2 {
				t.Errorf("photo-like screen sends %.2f of its PNG, a flat one %.2f: want far less", p, f)
			}
		}
	}
	if len(tab.Findings) == 0 || !strings.Contains(tab.Findings[len(tab.Findings)-1], "photo-like") {
		t.Errorf("findings %q: want the flat and photo-like shares", tab.Findings)
	}
	var b strings.Builder
	if err := rep.Render(&b); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
}
