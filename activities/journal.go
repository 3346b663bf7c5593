package activities

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// Journal is the per-phone record of device actions on the worker's host
// (docs/design.md §4): for each action ID, the intent written before the
// action touches the phone and the result written after it. Both writes
// are fsynced. One live worker serves a phone at a time, so the journal
// lives beside it.
//
// Each phone has a file <dir>/<identity>.jsonl and a lock file beside it,
// named by the phone's identity (its ro.serialno, device.IdentityOf), not
// the serial it is listed under, so a phone connected under another serial
// finds its intents, and two phones listed under one serial never share a
// journal.
// The lock is held from the intent to the result, so a phone runs one
// action at a time even across processes sharing the directory, and every
// read first takes in what other processes appended.
type Journal struct {
	dir string
	// Keep is how many action IDs a phone's journal keeps when it is
	// compacted (every 2×Keep records); 0 means DefaultJournalKeep.
	Keep int

	mu     sync.Mutex
	phones map[string]*phoneJournal
}

// DefaultJournalKeep is how many actions a phone's journal remembers: an
// action retried after this many later actions on the same phone is not
// recognised (docs/design.md §4).
const DefaultJournalKeep = 4096

// OpenJournal opens (creating) the journal directory.
func OpenJournal(dir string) (*Journal, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("action journal: %w", err)
	}
	return &Journal{dir: dir, phones: map[string]*phoneJournal{}}, nil
}

// Dir is the journal's directory.
func (j *Journal) Dir() string { return j.dir }

// JournalEntry is what the journal knows of one action ID.
type JournalEntry struct {
	ID      string        `json:"id"`
	Intent  *ActionIntent `json:"intent,omitempty"`
	Applied *ActResult    `json:"applied,omitempty"`
	// NotSent says why the last try's input never reached the phone; a
	// new intent clears it.
	NotSent string `json:"not_sent,omitempty"`
	// Pending says the result recorded is not the decision yet: the
	// phone's own window (the keyguard, a system dialog) covered the
	// screen the action's evidence is on, and the action is judged again
	// before the todo's next commit (docs/design.md §4).
	Pending bool `json:"pending,omitempty"`
	// Try names the intent's try (a new one per intent) and Token the
	// lease token it carried: the phone's copy of the entry is merged by
	// them (docs/design.md §4).
	Try   string `json:"try,omitempty"`
	Token int64  `json:"token,omitempty"`
}

// ActionIntent is written just before an action's input is sent: the
// action and what the phone showed at that moment.
type ActionIntent struct {
	Action autoglm.Action `json:"action"`
	Before Evidence       `json:"before"`
	// Secure says the screen the action was decided on is secure
	// (FLAG_SECURE: its screenshot was refused, StepInput.ScreenSensitive),
	// also when its UI tree reads: text typed there is a secret and is
	// not written on the phone (docs/design.md §4).
	Secure bool `json:"secure,omitempty"`
	// Commit names the commit the action makes when it is a tap on a
	// commit control (ActResult.Commit), as the Step computed it on the
	// screen before the input: a retry of the action, on this host or
	// another, finds the result and the commit it made here, never one
	// computed again on the screen the input left (docs/design.md §4).
	Commit *commitTap `json:"commit,omitempty"`
}

// journalRecord is one line of a phone's journal: an intent, a try that
// never reached the phone, or a result.
type journalRecord struct {
	ID      string        `json:"id"`
	At      time.Time     `json:"at"`
	Intent  *ActionIntent `json:"intent,omitempty"`
	NotSent string        `json:"not_sent,omitempty"`
	Applied *ActResult    `json:"applied,omitempty"`
	// Pending marks a result written while the action's evidence was
	// covered (JournalEntry.Pending).
	Pending bool `json:"pending,omitempty"`
	// Token is the lease token the intent's action carried; a record with
	// a token and no ID keeps the phone's highest token across compaction.
	Token int64 `json:"token,omitempty"`
	// Try names an intent's try (JournalEntry.Try).
	Try string `json:"try,omitempty"`
}

// errResultRecorded refuses a new intent under an ID whose action has a
// recorded result: merged, the new action would inherit the old result.
var errResultRecorded = errors.New("action journal: the action ID already has a recorded result; a new action needs a new ID")

// phoneJournal is one phone's file and what this process has read of it.
type phoneJournal struct {
	path, lockPath string
	keep           int

	mu      sync.Mutex // held with the file lock, between lock and unlock
	entries map[string]*JournalEntry
	order   []string // IDs in the order of their last record
	records int      // records in the file
	offset  int64    // bytes of the file read
	ino     uint64   // the file read (compaction replaces it)
	token   int64    // the highest lease token recorded
	lockf   *os.File
	// onPhone is the phone's copy of the journal while an action holds
	// the lock, nil when the phone keeps none; phoneWrites counts the
	// intents this process wrote to it.
	onPhone     *phoneCopy
	phoneWrites int
}

// phone returns the journal of the phone known as key (its identity, or
// its serial when it has none).
func (j *Journal) phone(key string) *phoneJournal { return j.phoneOf(key, key) }

// phoneOf returns the journal of the phone whose identity is key, listed
// now under serial. A journal kept under the serial (the releases before
// journals were keyed by identity) becomes the identity's when the
// identity has none yet, so its intents are found on a retry.
func (j *Journal) phoneOf(key, serial string) *phoneJournal {
	j.mu.Lock()
	defer j.mu.Unlock()
	if p, ok := j.phones[key]; ok {
		return p
	}
	keep := j.Keep
	if keep <= 0 {
		keep = DefaultJournalKeep
	}
	name := safeFileName(key)
	if key != serial {
		from, to := filepath.Join(j.dir, safeFileName(serial)+".jsonl"), filepath.Join(j.dir, name+".jsonl")
		if _, err := os.Stat(to); errors.Is(err, os.ErrNotExist) {
			if err := os.Rename(from, to); err == nil {
				_ = syncDir(j.dir)
			}
		}
	}
	p := &phoneJournal{
		path: filepath.Join(j.dir, name+".jsonl"), lockPath: filepath.Join(j.dir, name+".lock"),
		keep: keep, entries: map[string]*JournalEntry{},
	}
	// Kept under the identity it is looked up by: a phone reached by
	// another serial (a network phone, whose ro.serialno is not its
	// adb serial) finds the journal this process has read, and its
	// count of intents, instead of reading the file again (and pruning
	// the phone's copy) at every action.
	j.phones[key] = p
	return p
}

// safeFileName turns a serial ("127.0.0.1:5555") into a file name.
func safeFileName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "%%%02x", r)
		}
	}
	if b.Len() == 0 {
		return "phone"
	}
	return b.String()
}

// lock takes the phone's journal: the in-process mutex, then the file lock
// (polled, so ctx can end the wait). It returns the unlock func.
func (p *phoneJournal) lock(ctx context.Context) (func(), error) {
	p.mu.Lock()
	f, err := os.OpenFile(p.lockPath, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		p.mu.Unlock()
		return nil, fmt.Errorf("action journal: %w", err)
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			_ = f.Close()
			p.mu.Unlock()
			return nil, fmt.Errorf("action journal: lock %s: %w", p.lockPath, err)
		}
		select {
		case <-ctx.Done():
			_ = f.Close()
			p.mu.Unlock()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	p.lockf = f
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
		p.lockf = nil
		p.mu.Unlock()
	}, nil
}

// refresh reads what was appended since the last read, or the whole file
// when it was replaced. Called with the lock held.
func (p *phoneJournal) refresh() error {
	f, err := os.Open(p.path)
	if errors.Is(err, os.ErrNotExist) {
		p.reset(0)
		return nil
	}
	if err != nil {
		return fmt.Errorf("action journal: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("action journal: %w", err)
	}
	ino := inode(fi)
	if ino != p.ino || fi.Size() < p.offset {
		p.reset(ino)
	}
	if fi.Size() == p.offset {
		return nil
	}
	if _, err := f.Seek(p.offset, 0); err != nil {
		return fmt.Errorf("action journal: %w", err)
	}
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			p.offset += int64(len(line))
			p.apply(line)
		}
		// A line without its newline is a write cut short by a crash: it
		// was never acknowledged, and the next append starts a new line.
		if err != nil {
			return nil
		}
	}
}

func (p *phoneJournal) reset(ino uint64) {
	p.entries, p.order, p.records, p.offset, p.ino, p.token = map[string]*JournalEntry{}, nil, 0, 0, ino, 0
}

func (p *phoneJournal) apply(line []byte) {
	var rec journalRecord
	if err := json.Unmarshal(bytes.TrimSpace(line), &rec); err != nil {
		return // a damaged line; skip it
	}
	p.token = max(p.token, rec.Token)
	if rec.ID == "" {
		return // the highest token only, or a line that names no action
	}
	p.records++
	e := p.entries[rec.ID]
	if e == nil {
		e = &JournalEntry{ID: rec.ID}
		p.entries[rec.ID] = e
	}
	applyRecord(e, rec)
	p.order = append(p.order, rec.ID)
}

// applyRecord adds a record of e's action to e.
func applyRecord(e *JournalEntry, rec journalRecord) {
	if rec.Intent != nil {
		// An intent starts the entry's try over: an older journal may hold
		// an intent written after a result under a reused ID, and that
		// result is not the new action's.
		e.Intent, e.Applied, e.NotSent, e.Pending, e.Try, e.Token = rec.Intent, nil, "", false, rec.Try, rec.Token
	}
	if rec.NotSent != "" {
		e.NotSent = rec.NotSent
	}
	if rec.Applied != nil {
		e.Applied, e.Pending = rec.Applied, rec.Pending
	}
}

// get returns the entry of id. Called with the lock held.
func (p *phoneJournal) get(id string) (JournalEntry, bool, error) {
	if err := p.refresh(); err != nil {
		return JournalEntry{}, false, err
	}
	e, ok := p.entries[id]
	if !ok {
		return JournalEntry{}, false, nil
	}
	return *e, true, nil
}

// write appends a record and fsyncs it, compacting the file when it has
// grown to twice what it keeps. Called with the lock held.
func (p *phoneJournal) write(rec journalRecord) error {
	if err := p.refresh(); err != nil {
		return err
	}
	if e := p.entries[rec.ID]; rec.Intent != nil && e != nil && e.Applied != nil {
		return fmt.Errorf("%w (%s)", errResultRecorded, rec.ID)
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(p.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("action journal: %w", err)
	}
	fi, err := f.Stat()
	if err == nil && fi.Size() > p.offset {
		// The tail of a write cut short by a crash: end its line so the
		// new record starts on its own.
		data = append([]byte{'\n'}, data...)
	}
	_, err = f.Write(append(data, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("action journal: write %s: %w", p.path, err)
	}
	if err := syncDirOnce(p.path, fi == nil || fi.Size() == 0); err != nil {
		return err
	}
	if err := p.refresh(); err != nil {
		return err
	}
	if p.records >= 2*p.keep {
		return p.compact()
	}
	return nil
}

// syncDirOnce fsyncs the directory after the file was created, so the new
// file's name survives a crash too.
func syncDirOnce(path string, created bool) error {
	if !created {
		return nil
	}
	return syncDir(filepath.Dir(path))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("action journal: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("action journal: sync %s: %w", dir, err)
	}
	return nil
}

// compact rewrites the file with the last Keep action IDs, through a
// temporary file renamed over it. Called with the lock held.
func (p *phoneJournal) compact() error {
	seen := map[string]bool{}
	var ids []string
	for i := len(p.order) - 1; i >= 0 && len(ids) < p.keep; i-- {
		if id := p.order[i]; !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	var b bytes.Buffer
	if p.token > 0 {
		data, err := json.Marshal(journalRecord{Token: p.token})
		if err != nil {
			return err
		}
		b.Write(append(data, '\n'))
	}
	for i := len(ids) - 1; i >= 0; i-- {
		e := p.entries[ids[i]]
		data, err := json.Marshal(journalRecord{ID: e.ID, Intent: e.Intent, NotSent: e.NotSent, Applied: e.Applied, Pending: e.Pending, Try: e.Try, Token: e.Token})
		if err != nil {
			return err
		}
		b.Write(append(data, '\n'))
	}
	tmp := p.path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("action journal: %w", err)
	}
	_, err = f.Write(b.Bytes())
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p.path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("action journal: compact %s: %w", p.path, err)
	}
	if err := syncDir(filepath.Dir(p.path)); err != nil {
		return err
	}
	p.reset(0)
	return p.refresh()
}

func inode(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}

// Lookup returns what the journal knows of an action on the phone known
// as key (its identity, device.IdentityOf).
func (j *Journal) Lookup(ctx context.Context, key, id string) (JournalEntry, bool, error) {
	p := j.phone(key)
	unlock, err := p.lock(ctx)
	if err != nil {
		return JournalEntry{}, false, err
	}
	defer unlock()
	return p.get(id)
}
