package bench

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/converter"

	"github.com/phoneflow/phoneflow/internal/phonesim"
)

func TestRenderReport(t *testing.T) {
	rep := Report{
		Machine: Machine{CPUs: 2, CPUModel: "Test CPU", MemoryGB: 4, GoVer: "go1.26.8", OS: "linux/amd64"},
		Date:    time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC),
		Command: "go run ./starter bench",
		Load:    "1.00 2.00 3.00 at start, 4.00 5.00 6.00 at end",
		Runs:    5,
		Tables: []Table{{
			Title:    "1. Overhead",
			Note:     "how it was measured",
			Header:   []string{"latency", "ratio"},
			Rows:     [][]string{{"200ms", Sample{1.1, 1.3, 1.2}.Summary(2)}, {"a|b"}},
			Findings: []string{"ratio is fine"},
		}},
		Errors: []string{"scale: no adb"},
	}
	var b bytes.Buffer
	if err := rep.Render(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"# phoneflow benchmarks",
		"- Date: 2026-01-02 03:04 UTC",
		"2 CPUs (Test CPU), 4.0 GiB memory, linux/amd64, go1.26.8",
		"Load average (1/5/15 min): 1.00 2.00 3.00 at start",
		"Repetitions per measurement: 5",
		"`go run ./starter bench`",
		"- Rerun: `go run ./starter bench --report BENCHMARKS.md`",
		"## 1. Overhead\n\nhow it was measured\n\n| latency | ratio |\n| --- | --- |\n| 200ms | 1.20 (1.10–1.30) |\n",
		`| a\|b |  |`,
		"- ratio is fine",
		"## Not measured\n\n- scale: no adb",
		"- Stack: embedded Temporal server (in-memory SQLite)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	rep.FileStore = true
	b.Reset()
	if err := rep.Render(&b); err != nil {
		t.Fatal(err)
	}
	if want := "- Stack: embedded Temporal server (SQLite file, write-ahead log)"; !strings.Contains(b.String(), want) {
		t.Errorf("a run with --file-store: report lacks %q", want)
	}
}

func TestCountImages(t *testing.T) {
	png := []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13}
	jpg := []byte{0xff, 0xd8, 0xff, 0xe0, 0, 16}
	for _, c := range []struct {
		name string
		data []byte
		want int
	}{
		{"plain json", []byte(`{"screen_ref":"blob:sha256:abc","hash":"00ff"}`), 0},
		{"raw png", append([]byte("x"), png...), 1},
		{"raw jpeg", jpg, 1},
		{"base64 png", []byte(base64.StdEncoding.EncodeToString(png)), 1},
		{"base64 jpeg", []byte(base64.StdEncoding.EncodeToString(jpg)), 1},
		{"data url", []byte("data:image/webp;base64,AAAA"), 1},
	} {
		if got := CountImages(c.data); got != c.want {
			t.Errorf("%s: %d image marks, want %d", c.name, got, c.want)
		}
	}
}

func TestIsolated(t *testing.T) {
	own := phonesim.State{MessagesSent: []phonesim.SentMessage{{To: "Alice Chen", Text: "bench 3"}},
		InputLog: []phonesim.InputEvent{{Kind: "broadcast", Args: []string{base64.StdEncoding.EncodeToString([]byte("bench 3"))}}}}
	if !Isolated(own, "bench 3") {
		t.Error("a phone driven by its own goal only must count as isolated")
	}
	foreign := own
	foreign.InputLog = append(foreign.InputLog, phonesim.InputEvent{Kind: "broadcast", Args: []string{base64.StdEncoding.EncodeToString([]byte("bench 4"))}})
	if Isolated(foreign, "bench 3") {
		t.Error("another goal's text in the input log must break isolation")
	}
	twice := own
	twice.MessagesSent = append(twice.MessagesSent, own.MessagesSent[0])
	if Isolated(twice, "bench 3") {
		t.Error("a message sent twice must break isolation")
	}
	if Isolated(phonesim.State{}, "bench 3") {
		t.Error("a phone that sent nothing is not a goal done on it")
	}
}

func TestOptionsValidate(t *testing.T) {
	if err := (Options{Only: "speed"}).Validate(); err == nil || !strings.Contains(err.Error(), "overhead") {
		t.Errorf("unknown --only: err = %v, want one naming the measurements", err)
	}
	for _, m := range Measurements {
		if err := (Options{Only: m}).Validate(); err != nil {
			t.Errorf("%s: %v", m, err)
		}
	}
	if o := (Options{Quick: true}).withDefaults(); o.Runs != 1 {
		t.Errorf("quick runs = %d, want 1", o.Runs)
	}
	if o := (Options{}).withDefaults(); o.Runs != 5 {
		t.Errorf("default runs = %d, want 5", o.Runs)
	}
}

func TestVersionEvents(t *testing.T) {
	id, err := converter.GetDefaultDataConverter().ToPayloads("steering-order")
	if err != nil {
		t.Fatal(err)
	}
	marker := &historypb.HistoryEvent{Attributes: &historypb.HistoryEvent_MarkerRecordedEventAttributes{
		MarkerRecordedEventAttributes: &historypb.MarkerRecordedEventAttributes{MarkerName: "Version",
			Details: map[string]*commonpb.Payloads{"change-id": id}}}}
	if got, ok := versionMarker(marker); !ok || got != "steering-order" {
		t.Fatalf("versionMarker = %q %v", got, ok)
	}
	side := &historypb.HistoryEvent{Attributes: &historypb.HistoryEvent_MarkerRecordedEventAttributes{
		MarkerRecordedEventAttributes: &historypb.MarkerRecordedEventAttributes{MarkerName: "SideEffect"}}}
	if _, ok := versionMarker(side); ok {
		t.Fatal("a side effect marker counted as a version marker")
	}
	upsert := func(key string) *historypb.HistoryEvent {
		return &historypb.HistoryEvent{Attributes: &historypb.HistoryEvent_UpsertWorkflowSearchAttributesEventAttributes{
			UpsertWorkflowSearchAttributesEventAttributes: &historypb.UpsertWorkflowSearchAttributesEventAttributes{
				SearchAttributes: &commonpb.SearchAttributes{IndexedFields: map[string]*commonpb.Payload{key: id.GetPayloads()[0]}}}}}
	}
	if !changeVersionUpsert(upsert("TemporalChangeVersion")) || changeVersionUpsert(upsert("PhoneflowStatus")) {
		t.Fatal("changeVersionUpsert tells the SDK's upsert from the status upsert wrongly")
	}
}
