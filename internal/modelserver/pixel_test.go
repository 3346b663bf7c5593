package modelserver

import (
	"net/http/httptest"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// The persona finds a switch on a Pixel's Settings from what the screen
// shows: the rows that lead to it, the main switch bar's text or the title
// beside a text-less Switch; it says done only when that switch shows the
// state asked for, and the phone holds it.
func TestPersonaTogglesOnPixelSettings(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinPixel})
	for _, c := range []struct {
		task  string
		want  string
		check func(phonesim.Toggles) bool
	}{
		{"Turn off Wi-Fi", "Wi-Fi is off", func(tg phonesim.Toggles) bool { return !tg.WiFi }},
		{"Turn on Bluetooth", "Bluetooth is on", func(tg phonesim.Toggles) bool { return tg.Bluetooth }},
		{"Turn on Wi-Fi", "Wi-Fi is on", func(tg phonesim.Toggles) bool { return tg.WiFi }},
		{"Turn on airplane mode", "Airplane mode is on", func(tg phonesim.Toggles) bool { return tg.Airplane && !tg.WiFi }},
		{"Turn off airplane mode", "Airplane mode is off", func(tg phonesim.Toggles) bool { return !tg.Airplane }},
	} {
		got, steps := runGoal(t, srv.URL, a, c.task, 12)
		if got != c.want {
			t.Errorf("%q finished %q, want %q", c.task, got, c.want)
		}
		if tg := p.State().Toggles; !c.check(tg) {
			t.Errorf("%q finished %q in %d steps but the phone holds %+v", c.task, got, steps, tg)
		}
	}
}
