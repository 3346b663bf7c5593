package campaign

import (
	"fmt"
	"strings"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// Goal kinds: every task type the offline models play, the commits among
// them (a message, a note, an alarm) and a message goal that names
// neither recipient nor text, so the planner asks and the person answers.
const (
	goalMessage  = "message"
	goalAsked    = "message-asked"
	goalNote     = "note"
	goalAlarm    = "alarm"
	goalSettings = "settings"
	goalRead     = "read"
)

var goalKinds = []string{goalMessage, goalNote, goalAlarm, goalSettings, goalRead, goalAsked}

// campaignGoal is one goal of the campaign and what its phone must show.
type campaignGoal struct {
	id, kind, text string
	phone          int
	// mark is the goal's commit: the message text, the note title or the
	// alarm label, unique to the goal; for settings the Wi-Fi state wanted.
	mark string
	wifi bool

	res    workflows.GoalResult
	err    error
	stuck  string         // for a goal without a result: what it waits on
	end    phonesim.State // the phone right after the goal ended
	asked  int            // questions the person answered
	answer []string
}

// newGoal makes goal n of kind on phone; settings goals flip Wi-Fi from
// what the phone shows now.
func newGoal(seed int64, n int, kind string, phone int, now phonesim.State) *campaignGoal {
	g := &campaignGoal{id: fmt.Sprintf("campaign-%d-%d", seed, n), kind: kind, phone: phone}
	switch kind {
	case goalMessage:
		g.mark = fmt.Sprintf("campaign %d-%d", seed, n)
		g.text = fmt.Sprintf("Send %q to Alice Chen in Messages", g.mark)
	case goalAsked:
		g.mark = fmt.Sprintf("campaign %d-%d", seed, n)
		g.text = "Send a message in Messages"
	case goalNote:
		g.mark = fmt.Sprintf("c%dn%d", seed, n)
		g.text = fmt.Sprintf("Create a note titled %s with the text x", g.mark)
	case goalAlarm:
		g.mark = fmt.Sprintf("C%dA%d", seed, n)
		g.text = fmt.Sprintf("Create an alarm at %02d:%02d labelled %s", 5+n%12, (7*n)%60, g.mark)
	case goalSettings:
		g.wifi = !now.Toggles.WiFi
		g.text = "Turn off Wi-Fi"
		if g.wifi {
			g.text = "Turn on Wi-Fi"
		}
	case goalRead:
		g.text = "Read the Android version in Settings"
	}
	return g
}

// commits is what the goal's phone shows of its commit: how many messages,
// notes or alarms carry its mark; -1 for a goal without a commit.
func (g *campaignGoal) commits(st phonesim.State) int {
	n := 0
	switch g.kind {
	case goalMessage, goalAsked:
		for _, m := range st.MessagesSent {
			if m.Text == g.mark {
				n++
			}
		}
	case goalNote:
		for _, x := range st.Notes {
			if x.Title == g.mark {
				n++
			}
		}
	case goalAlarm:
		for _, a := range st.Alarms {
			if a.Label == g.mark {
				n++
			}
		}
	default:
		return -1
	}
	return n
}

// answerFor is what the phone's owner answers a question of the goal,
// after looking at the phone: whether its commit shows, or, for the goal
// that named nothing, whom to send what.
func (g *campaignGoal) answerFor(question string, st phonesim.State) string {
	if g.kind == goalAsked && g.commits(st) == 0 && !strings.Contains(strings.ToLower(question), "sent") {
		return fmt.Sprintf("to Alice Chen: %s", g.mark)
	}
	what := map[string]string{goalMessage: "the message %q", goalAsked: "the message %q", goalNote: "the note %q", goalAlarm: "the alarm %q"}[g.kind]
	if what == "" {
		return "Please go on and do what the goal says."
	}
	thing := fmt.Sprintf(what, g.mark)
	switch n := g.commits(st); n {
	case 0:
		return fmt.Sprintf("No, it did not happen: the phone does not show %s; it was not done.", thing)
	case 1:
		return fmt.Sprintf("Yes, it happened: the phone shows %s once; it was done, do not do it again.", thing)
	default:
		return fmt.Sprintf("Yes: the phone shows %s %d times; do not do it again.", thing, n)
	}
}

// verdict is what the campaign finds of one goal's outcome.
type verdict struct {
	commits    int // commits of the goal on its phone
	duplicate  bool
	lost       bool // ended done, its commit is not on the phone
	dishonest  string
	honestFail bool // failed or asked, nothing claimed
}

// check holds the goal's outcome against its phone: a commit shows at
// most once; a done goal's commit, setting or reading shows on the phone.
func (g *campaignGoal) check(final phonesim.State) verdict {
	var v verdict
	done := g.res.Status == workflows.GoalDone
	if n := g.commits(final); n >= 0 {
		v.commits = n
		v.duplicate = n > 1
		if done && n == 0 {
			v.lost = true
			v.dishonest = fmt.Sprintf("ended done, but the phone shows no %s %q", g.kind, g.mark)
		}
	}
	if done {
		switch g.kind {
		case goalSettings:
			if g.end.Toggles.WiFi != g.wifi {
				v.dishonest = fmt.Sprintf("ended done, but Wi-Fi is %v on the phone right after it, want %v", g.end.Toggles.WiFi, g.wifi)
			}
		case goalRead:
			if !strings.Contains(g.res.Response, "14") {
				v.dishonest = fmt.Sprintf("ended done, but its answer %q lacks the phone's Android version 14", g.res.Response)
			}
		}
	}
	v.honestFail = !done && v.dishonest == ""
	return v
}
