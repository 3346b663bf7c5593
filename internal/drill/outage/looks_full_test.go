//go:build drills

package outage

import (
	"testing"

	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
)

// TestModelOutageOnEachLook is the full TestModelOutage on every look but
// the default one (docs/phones.md#skins), a subtest a look. Its fast form
// is not in `go test`: three looks would add a minute and a half there.
func TestModelOutageOnEachLook(t *testing.T) {
	for _, skin := range stacktest.OtherSkins(t) {
		t.Run(string(skin), func(t *testing.T) { modelOutage(t, skin) })
	}
}
