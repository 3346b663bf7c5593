package modelserver

import (
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// On a Xiaomi's 时钟 and a Galaxy's Clock the persona creates an alarm on
// the wheels (swiped on MIUI, typed on One UI's hour and minute), labels
// it, and switches an alarm by the time beside its text-less switch; it
// says done only when the row shows what was asked, and the phone holds
// it.
func TestPersonaDrivesVendorClocks(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	for _, skin := range []phonesim.Skin{phonesim.SkinMIUI, phonesim.SkinOneUI} {
		p, a := startPhoneWith(t, phonesim.Config{Skin: skin})
		for _, c := range []struct {
			task string
			want string
			has  phonesim.Alarm
		}{
			{"Create an alarm at 06:45 labelled Gym class", "Alarm set for 06:45 (Gym class)", phonesim.Alarm{Time: "06:45", Label: "Gym class", Enabled: true}},
			{"Set an alarm for 21:37", "Alarm set for 21:37", phonesim.Alarm{Time: "21:37", Enabled: true}},
			{"alarm 3:10pm", "Alarm set for 15:10", phonesim.Alarm{Time: "15:10", Enabled: true}},
			{"Switch the 07:00 alarm off", "The 07:00 Wake up alarm is off", phonesim.Alarm{Time: "07:00", Label: "Wake up"}},
			{"Turn on the alarm labelled Gym", "The 08:30 Gym alarm is on", phonesim.Alarm{Time: "08:30", Label: "Gym", Enabled: true}},
		} {
			got, steps := runGoal(t, srv.URL, a, c.task, 40)
			if got != c.want {
				t.Errorf("%s: %q finished %q, want %q", skin, c.task, got, c.want)
			}
			if st := p.State(); !slices.Contains(st.Alarms, c.has) {
				t.Errorf("%s: %q finished %q in %d steps but the phone holds %+v", skin, c.task, got, steps, st.Alarms)
			}
		}
	}
}
