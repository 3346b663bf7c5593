package phonesim

import (
	"fmt"
	"sort"
)

// Fill is long app data a phone can start with, so lists are longer than
// the screen from the first goal on (docs/design.md §9).
type Fill struct {
	Notes  int // notes titled "Note 1" … "Note N"
	Alarms int // alarms at distinct times, labelled "Alarm 1" … "Alarm N"
	// Conversation is the contact whose conversation gets Messages earlier
	// messages, received and sent in turn; "" means Alice Chen. The sent
	// ones are in State().MessagesSent like any other.
	Conversation string
	Messages     int
}

// Fill adds f's data to the phone's apps, after what they already hold.
// Alarm times are spread over the day, skipping times the phone already
// has an alarm at; the list stays sorted by time as the Clock app keeps it.
func (p *Phone) Fill(f Fill) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := 1; i <= f.Notes; i++ {
		p.st.Notes = append(p.st.Notes, Note{Title: fmt.Sprintf("Note %d", i), Body: fmt.Sprintf("Text of note %d", i)})
	}
	taken := map[string]bool{}
	for _, a := range p.st.Alarms {
		taken[a.Time] = true
	}
	for i, m := 1, 0; i <= f.Alarms && m < 24*60; m += 7 {
		t := fmt.Sprintf("%02d:%02d", m/60, m%60)
		if taken[t] {
			continue
		}
		taken[t] = true
		p.st.Alarms = append(p.st.Alarms, Alarm{Time: t, Label: fmt.Sprintf("Alarm %d", i), Enabled: i%3 != 0})
		i++
	}
	sortAlarms(p.st.Alarms)
	who := f.Conversation
	if who == "" {
		who = "Alice Chen"
	}
	for i := 1; i <= f.Messages; i++ {
		if i%2 == 1 {
			p.st.talk(who, bubble{text: fmt.Sprintf("Earlier message %d", i)})
			continue
		}
		text := fmt.Sprintf("Earlier reply %d", i)
		p.st.MessagesSent = append(p.st.MessagesSent, SentMessage{To: who, Text: text})
		p.st.talk(who, bubble{sent: true, text: text})
	}
}

// sortAlarms orders alarms by time of day, as the Clock app lists them.
func sortAlarms(a []Alarm) {
	sort.SliceStable(a, func(i, j int) bool { return a[i].Time < a[j].Time })
}
