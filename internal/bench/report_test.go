package bench

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/converter"

	"github.com/phoneflow/phoneflow/internal/phonesim"
)

func testReport() Report {
	return Report{
		Machine: Machine{CPUs: 2, CPUModel: "Test CPU", MemoryGB: 4, GoVer: "go1.26.8", OS: "linux/amd64"},
		Date:    time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC),
		Command: "go run ./starter bench --only overhead",
		Runs:    5,
		Code:    "commit `abc123`",
		Sections: []Section{{
			Name:  MeasureOverhead,
			Began: time.Date(2026, 1, 2, 3, 5, 0, 0, time.UTC),
			Load:  "1.00 2.00 3.00 at start, 4.00 5.00 6.00 at end",
			Tables: []Table{{
				Title:    Headings[MeasureOverhead],
				Note:     "how it was measured",
				Header:   []string{"latency", "ratio"},
				Rows:     [][]string{{"200ms", Sample{1.1, 1.3, 1.2}.Summary(2)}, {"a|b"}},
				Findings: []string{"ratio is fine"},
			}, {Title: "Where the time goes", Header: []string{"leg"}, Rows: [][]string{{"Step"}}}},
		}},
	}
}

func TestRenderReport(t *testing.T) {
	rep := testReport()
	rep.Sections = append(rep.Sections, Section{Name: MeasureScale, Err: "no adb"})
	rep.Errors = []string{"scale: no adb"}
	var b bytes.Buffer
	if err := rep.Render(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"# phoneflow benchmarks\n",
		"- Machine: 2 CPUs (Test CPU), 4.0 GiB memory, linux/amd64, go1.26.8\n",
		"- Rerun: `go run ./starter bench --report BENCHMARKS.md`",
		"<!-- bench:overhead -->\n## Orchestration overhead\n\nMeasured 2026-01-02 03:05 UTC at commit `abc123` with `go run ./starter bench --only overhead`; " +
			"2 CPUs (Test CPU), 4.0 GiB memory, linux/amd64, go1.26.8; load average (1/5/15 min) 1.00 2.00 3.00 at start, 4.00 5.00 6.00 at end; 5 runs, figures are median",
		"\nhow it was measured\n\n| latency | ratio |\n| --- | --- |\n| 200ms | 1.20 (1.10–1.30) |\n",
		`| a\|b |  |`,
		"- ratio is fine\n",
		"\n### Where the time goes\n\n| leg |",
		"<!-- /bench:overhead -->\n",
		"## Not measured\n\n- scale: no adb",
		"embedded Temporal server (in-memory SQLite)",
		"Measured by other commands, not by `starter bench`: the evaluation sets (`starter eval`)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "bench:scale") {
		t.Errorf("a measurement that gave no table got a section:\n%s", out)
	}
	if _, err := parseMarkers(b.Bytes()); err != nil {
		t.Errorf("a new report does not parse as a report file: %v", err)
	}
	rep.FileStore = true
	b.Reset()
	if err := rep.Render(&b); err != nil {
		t.Fatal(err)
	}
	if want := "embedded Temporal server (SQLite file, write-ahead log)"; !strings.Contains(b.String(), want) {
		t.Errorf("a run with --file-store: report lacks %q", want)
	}
}

// reportFile is a report file as the repository keeps one: a header, two
// generated sections, kept sections around and between them.
const reportFile = "# phoneflow benchmarks\n\nHeader text, kept.\n\n" +
	"<!-- bench:overhead -->\n## Orchestration overhead\n\nold overhead figures\n<!-- /bench:overhead -->\n\n" +
	"<!-- kept: measured by go run ./starter eval -->\n## The 44-goal set\n\n| a | b |\n|---|---|\n| 1 | 2 |\n<!-- /kept -->\n\n" +
	"<!-- bench:history -->\n## History cost\n\nold history figures\n<!-- /bench:history -->\n\n" +
	"<!-- kept -->\n## Fault campaign\n\nnot yet measured\n<!-- /kept -->\n\n## What changed\n\ntext after, kept\n"

func TestMergeReplacesOneSectionAndKeepsTheRest(t *testing.T) {
	rep := testReport()
	out, err := rep.Merge([]byte(reportFile))
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	want := strings.Replace(reportFile, "<!-- bench:overhead -->\n## Orchestration overhead\n\nold overhead figures\n<!-- /bench:overhead -->\n",
		rep.Block(rep.Sections[0]), 1)
	if got != want {
		t.Errorf("merged file:\n%s\nwant:\n%s", got, want)
	}
	if !strings.Contains(got, "old history figures") || strings.Contains(got, "old overhead figures") {
		t.Errorf("overhead must be replaced and history kept:\n%s", got)
	}
	// Merging the same run again changes nothing.
	again, err := rep.Merge(out)
	if err != nil || string(again) != got {
		t.Errorf("a second merge changed the file (err %v):\n%s", err, again)
	}
}

func TestMergeAddsASectionTheFileLacksAfterTheLastMeasuredOne(t *testing.T) {
	rep := testReport()
	rep.Sections = []Section{{Name: MeasureSettle, Began: rep.Date, Tables: []Table{{Title: Headings[MeasureSettle], Header: []string{"mode"}, Rows: [][]string{{"settle"}}}}}}
	out, err := rep.Merge([]byte(reportFile))
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	at := strings.Index(got, "<!-- bench:settle -->")
	if at < 0 || at < strings.Index(got, "<!-- /bench:history -->") || at > strings.Index(got, "## Fault campaign") {
		t.Errorf("the new section is not right after the last measured one:\n%s", got)
	}
	if strings.Replace(got, rep.Block(rep.Sections[0])+"\n", "", 1) != reportFile {
		t.Errorf("adding a section changed the rest of the file:\n%s", got)
	}
	// A file with kept sections only gets it before the first of them.
	keptOnly := "# b\n\n<!-- kept -->\nx\n<!-- /kept -->\n"
	out, err = rep.Merge([]byte(keptOnly))
	if err != nil {
		t.Fatal(err)
	}
	if want := "# b\n\n" + rep.Block(rep.Sections[0]) + "\n<!-- kept -->\nx\n<!-- /kept -->\n"; string(out) != want {
		t.Errorf("kept-only file merged into:\n%s\nwant:\n%s", out, want)
	}
}

func TestMergeKeepsTheOldFiguresOfAMeasurementThatFailed(t *testing.T) {
	rep := testReport()
	rep.Sections[0].Err = "the showcase goal ended failed"
	out, err := rep.Merge([]byte(reportFile))
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != reportFile {
		t.Errorf("a failed measurement changed the file:\n%s", out)
	}
}

func TestMergeRefusesAFileWithoutMarkers(t *testing.T) {
	rep := testReport()
	plain := "# phoneflow benchmarks\n\n## 1. Orchestration overhead\n\nfigures\n"
	if _, err := rep.Merge([]byte(plain)); !errors.Is(err, ErrNoMarkers) {
		t.Errorf("file without markers: err = %v, want ErrNoMarkers", err)
	}
	if err := CheckReportFile([]byte(plain)); !errors.Is(err, ErrNoMarkers) || !strings.Contains(err.Error(), "write the report to a new file") {
		t.Errorf("CheckReportFile: %v, want the fix named", err)
	}
	if err := CheckReportFile([]byte(reportFile)); err != nil {
		t.Errorf("CheckReportFile of a good file: %v", err)
	}
}

func TestMergeRefusesBrokenMarkers(t *testing.T) {
	rep := testReport()
	for name, file := range map[string]string{
		"never closed":        "<!-- bench:overhead -->\nx\n",
		"closed by the other": "<!-- bench:overhead -->\nx\n<!-- /bench:history -->\n",
		"close without open":  "x\n<!-- /kept -->\n",
		"bench inside kept":   "<!-- kept: measured by x -->\n<!-- bench:overhead -->\n<!-- /bench:overhead -->\n<!-- /kept -->\n",
		"twice":               "<!-- bench:overhead -->\n<!-- /bench:overhead -->\n<!-- bench:overhead -->\n<!-- /bench:overhead -->\n",
	} {
		if _, err := rep.Merge([]byte(file)); err == nil || !strings.Contains(err.Error(), "line ") {
			t.Errorf("%s: err = %v, want one naming the line", name, err)
		}
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
