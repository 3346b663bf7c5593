package fleet

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/device"
)

// Phone is one phone as the worker that serves it publishes it.
type Phone struct {
	Serial string `json:"serial"`
	// Worker is the identity of the worker process that serves it.
	Worker string       `json:"worker,omitempty"`
	Labels []string     `json:"labels,omitempty"` // sorted
	Facts  device.Facts `json:"facts"`
	// Published is when the worker read the facts.
	Published time.Time `json:"published,omitzero"`
}

// HasLabel reports whether the phone carries label l.
func (p Phone) HasLabel(l string) bool { return slices.Contains(p.Labels, l) }

// Line is the phone in one line, as `starter devices --fleet` and the
// planner's fleet summary show it: serial, labels, model, release,
// screen, lock and apps. It holds no secret.
func (p Phone) Line() string {
	var b strings.Builder
	b.WriteString(p.Serial)
	if len(p.Labels) > 0 {
		fmt.Fprintf(&b, " [%s]", strings.Join(p.Labels, ", "))
	}
	f := p.Facts
	var parts []string
	if f.Model != "" {
		parts = append(parts, f.Model)
	}
	if f.Android != "" {
		parts = append(parts, "Android "+f.Android)
	}
	if f.Width > 0 && f.Height > 0 {
		parts = append(parts, fmt.Sprintf("%dx%d", f.Width, f.Height))
	}
	if f.Lock != "" {
		parts = append(parts, "lock: "+f.Lock)
	}
	if len(parts) > 0 {
		b.WriteString(": " + strings.Join(parts, ", "))
	}
	if len(f.Apps) > 0 {
		b.WriteString("; apps: " + strings.Join(f.Apps, ", "))
	}
	return b.String()
}

// Summary is the fleet as the planner is shown it, one phone a line,
// sorted by serial, "" for no phones.
func Summary(phones []Phone) string {
	ps := slices.Clone(phones)
	slices.SortFunc(ps, func(a, b Phone) int { return strings.Compare(a.Serial, b.Serial) })
	var b strings.Builder
	for _, p := range ps {
		b.WriteString("- " + p.Line() + "\n")
	}
	return b.String()
}

// Phone record names on the wire (docs/design.md#phone-fleet).
const (
	RecordWorkflowType = "PhoneRecordWorkflow"
	// MemoPhone is the memo key of a record's Phone.
	MemoPhone = "phone"
)
