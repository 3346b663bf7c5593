package planner

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

func TestParseCorrection(t *testing.T) {
	long := `{"correction":"` + strings.Repeat("x", MaxCorrectionChars+1) + `"}`
	for _, tc := range []struct {
		name, in, want, err string
	}{
		{"plain", `{"correction":"Tap the Bluetooth switch at [900,410] instead."}`, "Tap the Bluetooth switch at [900,410] instead.", ""},
		{"fenced after thinking", "<think>hm</think>\n```json\n{\"correction\":\" Go Back. \"}\n```", "Go Back.", ""},
		{"prose", "Try going back.", "", "no JSON object"},
		{"unknown field", `{"correction":"Go back","why":"stuck"}`, "", `unknown field "why"`},
		{"other field only", `{"fix":"go back"}`, "", `unknown field "fix"`},
		{"empty", `{"correction":"  "}`, "", "non-empty"},
		{"not a string", `{"correction":["go back"]}`, "", "non-empty"},
		{"too long", long, "", "more than 600"},
	} {
		got, err := ParseCorrection(tc.in)
		if tc.err == "" {
			if err != nil || got != tc.want {
				t.Errorf("%s: got %q, %v; want %q", tc.name, got, err, tc.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: err = %v, want one naming %q", tc.name, err, tc.err)
		}
	}
}

func TestCorrectionRequestCarriesTodoActionsAndScreen(t *testing.T) {
	msgs := BuildCorrectionMessages(CorrectionContext{
		Todo: "Turn on Bluetooth", Why: "the screen did not change after 3 actions",
		Recent: []string{`do(action="Tap", element=[500,300]) → ok`, "do(action=\"Tap\",\n element=[500,300]) → ok"},
		App:    "Settings", AppPackage: "com.android.settings", Width: 1080, Height: 2400,
		Elements: []uitree.Element{{Class: "android.widget.Switch", Text: "Bluetooth", Bounds: uitree.Bounds{X1: 0, Y1: 400, X2: 1080, Y2: 620},
			Clickable: true, Checkable: true}},
		Corrections: 1,
	})
	if len(msgs) != 2 || msgs[0].Role != llm.RoleSystem || !strings.HasPrefix(msgs[0].Text, "You are the correction writer") {
		t.Fatalf("messages = %+v", msgs)
	}
	text := msgs[1].Text
	for _, want := range []string{
		"Task: Turn on Bluetooth\n", "Stuck: the screen did not change after 3 actions\n", "Corrections already given: 1\n",
		"Recent actions:\n- do(action=\"Tap\", element=[500,300]) → ok\n- do(action=\"Tap\", element=[500,300]) → ok\n",
		"Current app: Settings (com.android.settings)\n", "Screen: normal\n", uitree.ListHeader, `"Bluetooth"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("request lacks %q:\n%s", want, text)
		}
	}
}
