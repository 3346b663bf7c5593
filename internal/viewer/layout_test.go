package viewer

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

func TestLayoutSVGDrawsElementsAndHidesPasswords(t *testing.T) {
	els := []uitree.Element{
		{Bounds: uitree.Bounds{X2: 1080, Y2: 2400}, Text: "root"},
		{Text: "Sign in <now>", Clickable: true, Bounds: uitree.Bounds{X1: 48, Y1: 400, X2: 1032, Y2: 560}},
		{Text: "hunter2", Password: true, Bounds: uitree.Bounds{X1: 48, Y1: 600, X2: 1032, Y2: 760}},
		{Desc: "Back", Bounds: uitree.Bounds{X1: 0, Y1: 0, X2: 100, Y2: 100}},
	}
	svg := string(LayoutSVG(els, 1080, 2400))
	if err := xml.Unmarshal([]byte(svg), new(struct{})); err != nil {
		t.Fatalf("not well-formed: %v\n%s", err, svg)
	}
	for _, want := range []string{`width="1080" height="2400"`, "Sign in &lt;now&gt;", "Back", `x="48" y="400" width="984" height="160"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("missing %q in\n%s", want, svg)
		}
	}
	if strings.Contains(svg, "hunter2") || strings.Contains(svg, ">root<") {
		t.Errorf("drew a password or the whole-screen root:\n%s", svg)
	}
}
