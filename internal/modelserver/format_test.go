package modelserver

import (
	"context"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/planner"
)

// formatModes are the planner's response formats, each forced by making
// the server refuse the better ones.
var formatModes = []struct {
	format string
	refuse []string
}{
	{llm.FormatPlain, []string{"json_schema", "json_object"}},
	{llm.FormatJSONObject, []string{"json_schema"}},
	{llm.FormatJSONSchema, nil},
}

// invalidRate sends n plan requests through the model client to an offline
// planner that answers malformed at rate, and returns how many answers
// failed the planner's validation and the format they were answered in.
func invalidRate(t *testing.T, seed int64, rate float64, refuse []string, n int) (int, string) {
	t.Helper()
	srv := httptest.NewServer(New(Config{Seed: seed, RateMalformed: rate, RejectFormats: refuse}))
	defer srv.Close()
	c := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: "offline-planner", TopP: 1})
	ctx := llm.WithJSON(context.Background(), planner.PlanSchema)
	msgs := planner.BuildPlanMessages(planner.PlanContext{Goal: "Turn on Wi-Fi and then turn on Bluetooth"}, nil)
	invalid, format := 0, ""
	for range n {
		ans, err := c.Chat(ctx, msgs)
		if err != nil {
			t.Fatal(err)
		}
		format = ans.ResponseFormat
		if _, err := planner.ParsePlan(ans.Text); err != nil {
			invalid++
		}
	}
	return invalid, format
}

// TestPlannerInvalidRateByFormat measures the planner's invalid-answer
// rate on the offline planner's fault mode in each response format (the
// medians of BENCHMARKS.md#planner-formats-retention-fleet-and-cluster; -v
// prints the table). Structured output can only remove
// invalid answers, never add them.
func TestPlannerInvalidRateByFormat(t *testing.T) {
	const n, rate = 200, 0.3
	seeds := []int64{1, 2, 3, 4, 5}
	if testing.Short() {
		seeds = seeds[:1]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "malformed rate %.0f%%, %d plan requests per seed\n", rate*100, n)
	fmt.Fprintf(&b, "%-12s", "format")
	for _, seed := range seeds {
		fmt.Fprintf(&b, " seed%-2d", seed)
	}
	b.WriteString("  median\n")
	medians := map[string]float64{}
	for _, m := range formatModes {
		var rates []float64
		fmt.Fprintf(&b, "%-12s", m.format)
		for _, seed := range seeds {
			bad, got := invalidRate(t, seed, rate, m.refuse, n)
			if got != m.format {
				t.Fatalf("answered in %q, want %q", got, m.format)
			}
			r := float64(bad) / n
			rates = append(rates, r)
			fmt.Fprintf(&b, " %5.1f%%", r*100)
		}
		slices.Sort(rates)
		medians[m.format] = rates[len(rates)/2]
		fmt.Fprintf(&b, "  %5.1f%%\n", medians[m.format]*100)
	}
	t.Log("\n" + b.String())
	if !(medians[llm.FormatJSONSchema] < medians[llm.FormatJSONObject] && medians[llm.FormatJSONObject] < medians[llm.FormatPlain]) {
		t.Errorf("invalid-answer rates by format %v: want json_schema < json_object < plain", medians)
	}
}
