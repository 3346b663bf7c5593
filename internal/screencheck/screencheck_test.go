package screencheck

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

func TestParseChecksNamesTheFix(t *testing.T) {
	cs, err := ParseChecks([]string{`{"kind":"switch","label":"USB debugging","on":true}`, `[{"kind":"element_exists","text":"DEBUG"},{"kind":"app_in_front","app":"Settings"}]`})
	if err != nil || len(cs) != 3 {
		t.Fatalf("ParseChecks = %v, %v", cs, err)
	}
	for _, bad := range [][]string{nil, {`{"kind":"looks_done"}`}, {`not json`}, {`{"kind":"switch","label":"x"}`}, {`[]`}} {
		if _, err := ParseChecks(bad); !errors.Is(err, ErrBadInput) {
			t.Errorf("ParseChecks(%q) = %v, want a bad-input error", bad, err)
		}
	}
	if _, err := ParseDump([]byte("ERROR: null root node returned by UiTestAutomationBridge.")); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "uiautomator dump") {
		t.Errorf("an error for a dump: %v", err)
	}
}

// On a real Developer options dump: the verdicts, why, and the elements
// each check was read from.
func TestReportOnARealDump(t *testing.T) {
	data, err := os.ReadFile("testdata/siteblocker-settings-developer-options.xml")
	if err != nil {
		t.Fatal(err)
	}
	es, err := ParseDump(data)
	if err != nil {
		t.Fatal(err)
	}
	pkg := FrontApp(es)
	if pkg != "com.android.settings" {
		t.Fatalf("FrontApp = %q", pkg)
	}
	on := true
	cs := []postcond.Check{{Kind: postcond.Switch, Label: "USB debugging", On: &on}, {Kind: postcond.Switch, Label: "Wireless debugging", On: &on}}
	r := Report{App: pkg, AppFrom: "dump", Results: Evaluate(cs, postcond.Screen{AppPackage: pkg, Elements: es}, "")}
	if r.AllHeld() || !r.Results[0].Held || r.Results[1].Held {
		t.Fatalf("results: %+v", r.Results)
	}
	var b strings.Builder
	if err := Write(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{`held      switch "USB debugging" is on`, `not held  switch "Wireless debugging" is on`,
		"used: Switch id=switch_widget checked=true [602,893][690,944]", `why: the "Wireless debugging" switch is off`, "1 of 2 checks held (app in front: com.android.settings, from dump)"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}
