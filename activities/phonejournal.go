package activities

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
)

// The journal's copy on the phone itself (docs/design.md §4): under
// device.NotesDir, one file per action ID in journal/a (named by a digest
// of the ID) holding the action's entry as one line of JSON, and one
// empty file per lease token in journal/t (named by the token, zero
// padded). It is what a host that did not write an intent finds of it:
// a goal that moves to another host, or a worker started on another data
// directory, still finds its intents and the phone's highest token.
const (
	phoneActions = "journal/a"
	phoneTokens  = "journal/t"
	// PhoneJournalDays is how long the phone keeps an action's entry: an
	// action retried later than this on another host is judged from the
	// screen alone (this host's journal keeps DefaultJournalKeep IDs).
	PhoneJournalDays = 14
	// phonePruneEvery is how many intents a worker writes to a phone
	// between two prunes of entries older than PhoneJournalDays.
	phonePruneEvery = 256
)

// phoneEntry is an action's entry as the phone keeps it.
type phoneEntry struct {
	ID string `json:"id"`
	// Try names one intent: records of one try merge, and a new intent
	// (a new try) replaces the entry.
	Try     string        `json:"try"`
	At      time.Time     `json:"at"`
	Token   int64         `json:"token,omitempty"`
	Intent  *ActionIntent `json:"intent,omitempty"`
	NotSent string        `json:"not_sent,omitempty"`
	Applied *ActResult    `json:"applied,omitempty"`
	Pending bool          `json:"pending,omitempty"`
	// Hidden says the typed text is not kept: it went into a field that
	// hides its text, or onto a secure screen (a PIN, a password).
	Hidden bool `json:"hidden,omitempty"`
}

// phoneCopy is the phone's copy of one action's journal, as read when the
// action began under the phone's journal lock.
type phoneCopy struct {
	notes  device.Notes
	serial string
	// high is the highest lease token the phone has recorded; tokens are
	// the marks the phone listed.
	high   int64
	tokens []int64
}

// phoneFile is the name of the file that keeps id's entry.
func phoneFile(id string) string { return phoneActions + "/" + digest(id) + digest("/"+id) }

// tokenMark is the name of the mark of a lease token.
func tokenMark(t int64) string { return fmt.Sprintf("%s/%019d", phoneTokens, t) }

// ErrTypePhoneJournal is the error type of an action not sent because its
// intent could not be written on the phone (docs/design.md §4).
const ErrTypePhoneJournal = "PhoneJournal"

// readPhone reads what the phone keeps of the action IDs ids and its lease
// tokens: nil when the phone keeps no notes (a test double). A phone that
// cannot be read fails the action before anything is sent.
func readPhone(ctx context.Context, d device.Device, ids []string) (*phoneCopy, map[string]*phoneEntry, error) {
	n, ok := d.(device.Notes)
	if !ok {
		return nil, nil, nil
	}
	files := make([]string, len(ids))
	for i, id := range ids {
		files[i] = phoneFile(id)
	}
	got, listed, err := n.ReadNotes(ctx, files, phoneTokens)
	if errors.Is(err, device.ErrNoNotes) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, deviceError("read the action journal on the phone", err)
	}
	pc := &phoneCopy{notes: n, serial: d.Serial()}
	pc.take(listed)
	entries := map[string]*phoneEntry{}
	for i, id := range ids {
		var e phoneEntry
		// A damaged file, or one of another ID (a digest collision), is
		// as good as none.
		if data, ok := got[files[i]]; ok && json.Unmarshal([]byte(data), &e) == nil && e.ID == id {
			entries[id] = &e
			pc.high = max(pc.high, e.Token)
		}
	}
	return pc, entries, nil
}

// take reads the token marks the phone listed.
func (pc *phoneCopy) take(listed []string) {
	pc.tokens = pc.tokens[:0]
	for _, name := range listed {
		if t, err := strconv.ParseInt(strings.TrimLeft(name, "0"), 10, 64); err == nil && t > 0 {
			pc.tokens = append(pc.tokens, t)
			pc.high = max(pc.high, t)
		}
	}
}

// adopt brings the phone's entry of id into this host's journal when the
// phone knows more of it, so the rest of the action is decided as if this
// host had written it. act is the action being run under id: a hidden
// typed text is its own. It reports whether this host knows more than the
// phone (a result the phone missed), to be written back. Called with the
// journal locked.
func (p *phoneJournal) adopt(pe *phoneEntry, act autoglm.Action, now time.Time) (writeBack bool, err error) {
	l := p.entries[pe.ID]
	switch {
	case pe.Intent == nil:
		return false, nil
	case l != nil && l.Applied != nil && !l.Pending:
		// This host's result is final.
		return pe.Try != l.Try || pe.Applied == nil, nil
	case l == nil || l.Try != pe.Try:
		intent := *pe.Intent
		if pe.Hidden && isType(act) && intent.Action.Name == act.Name {
			intent.Action.Text = act.Text
		}
		if err := p.write(journalRecord{ID: pe.ID, At: now, Try: pe.Try, Intent: &intent, Token: pe.Token}); err != nil {
			return false, err
		}
		if pe.NotSent != "" {
			if err := p.write(journalRecord{ID: pe.ID, At: now, NotSent: pe.NotSent}); err != nil {
				return false, err
			}
		}
		if pe.Applied != nil {
			return false, p.write(journalRecord{ID: pe.ID, At: now, Applied: pe.Applied, Pending: pe.Pending})
		}
		return false, nil
	}
	// The same try: what either side recorded of it counts.
	if pe.Applied != nil && (l.Applied == nil || (l.Pending && !pe.Pending)) {
		return false, p.write(journalRecord{ID: pe.ID, At: now, Applied: pe.Applied, Pending: pe.Pending})
	}
	if pe.NotSent != "" && l.NotSent == "" && l.Applied == nil {
		return false, p.write(journalRecord{ID: pe.ID, At: now, NotSent: pe.NotSent})
	}
	return (l.Applied != nil && pe.Applied == nil) || (l.NotSent != "" && pe.NotSent == "" && pe.Applied == nil), nil
}

// errFencedOnPhone refuses an intent the phone took after a goal with a
// higher lease token had written one: checked after the write, in the same
// round trip, so two hosts never both miss each other's token.
type errFencedOnPhone struct{ high int64 }

func (e errFencedOnPhone) Error() string {
	return fmt.Sprintf("the phone's journal holds lease token %d", e.high)
}

// put writes rec's entry, as this host's journal will hold it, to the
// phone. An intent also marks its lease token (dropping the lower marks
// the phone listed) and is refused when the phone lists a higher token
// after the write. Called with the journal locked.
func (pc *phoneCopy) put(ctx context.Context, p *phoneJournal, rec journalRecord) error {
	e := JournalEntry{ID: rec.ID}
	if l := p.entries[rec.ID]; l != nil {
		e = *l
	}
	applyRecord(&e, rec)
	pe := phoneEntry{ID: e.ID, Try: e.Try, At: rec.At, Token: e.Token, Intent: e.Intent, NotSent: e.NotSent, Applied: e.Applied, Pending: e.Pending}
	if e.Intent != nil && isType(e.Intent.Action) && (e.Intent.Before.FocusedPassword || e.Intent.Before.Sensitive || e.Intent.Secure) {
		pe.Hidden = true
		hidden := *e.Intent
		text := hidden.Action.Text
		hidden.Action.Text, hidden.Before.Focused = "", nil
		pe.Intent = &hidden
		if pe.Applied != nil && text != "" {
			res := *pe.Applied
			res.Result = strings.ReplaceAll(res.Result, text, "•••")
			res.Uncertain = strings.ReplaceAll(res.Uncertain, text, "•••")
			pe.Applied = &res
		}
	}
	if in := pe.Intent; in != nil && in.Commit != nil && (in.Before.Sensitive || in.Secure) {
		// A commit's key holds the texts of its fields: on a secure screen
		// only this host's journal keeps them.
		hidden := *in
		hidden.Commit = nil
		pe.Intent = &hidden
	}
	data, err := json.Marshal(pe)
	if err != nil {
		return err
	}
	w := device.NotesWrite{Files: map[string]string{phoneFile(rec.ID): string(data)}}
	if rec.Intent != nil {
		w.List = phoneTokens
		if rec.Token > 0 && rec.Token >= pc.high {
			w.Marks = []string{tokenMark(rec.Token)}
			for _, t := range pc.tokens {
				if t < rec.Token {
					w.Drop = append(w.Drop, tokenMark(t))
				}
			}
		}
		if p.phoneWrites%phonePruneEvery == 0 {
			w.Prune, w.PruneDays = phoneActions, pruneDays(ctx, pc.notes, rec.At)
		}
		p.phoneWrites++
	}
	listed, err := pc.notes.WriteNotes(ctx, w)
	if err != nil {
		return err
	}
	if rec.Intent != nil {
		pc.take(listed)
		if pc.high > rec.Token {
			return errFencedOnPhone{pc.high}
		}
	}
	return nil
}

// pruneDays is the age, in days of the phone's clock, past which a prune
// removes the phone's entries (find -mtime): PhoneJournalDays, plus the
// days the phone's clock is ahead of the host's (hostNow), so a phone clock
// that jumped forward prunes nothing younger than PhoneJournalDays of the
// host's time (docs/design.md §4). 0 (no prune this time) when the phone's
// clock cannot be read; a phone that cannot tell its clock at all is pruned
// by its own.
func pruneDays(ctx context.Context, notes device.Notes, hostNow time.Time) int {
	c, ok := notes.(device.PhoneClock)
	if !ok {
		return PhoneJournalDays
	}
	t, err := c.PhoneTime(ctx)
	if err != nil {
		return 0
	}
	days := PhoneJournalDays
	if ahead := t.Sub(hostNow); ahead > 0 {
		days += int((ahead + 24*time.Hour - 1) / (24 * time.Hour))
	}
	return days
}

// phoneJournalError is an intent that could not be written on the phone:
// the action is not sent (docs/design.md §4), retried like a device
// error, and the message names the fix.
func phoneJournalError(serial string, err error) error {
	fix := "the connection to the phone failed; it is tried again"
	switch {
	case errors.Is(err, device.ErrNotesRefused) && strings.Contains(err.Error(), "not found"):
		fix = "the phone's shell lacks printf, mv or mkdir (every Android from 6.0 has them): use a newer phone"
	case errors.Is(err, device.ErrNotesRefused):
		fix = fmt.Sprintf("free space on the phone's storage (`adb -s %s shell df /data`) and check that `adb -s %s shell touch %s/x` works", serial, serial, device.NotesDir)
	}
	return deviceError("action journal", fmt.Errorf(
		"the intent could not be written on phone %s (%s), so nothing was sent: any host that reaches the phone must find it there; %s: %w",
		serial, device.NotesDir, fix, err))
}

// newTry names a new try of an action.
func newTry() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
