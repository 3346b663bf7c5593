package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/phoneflow/phoneflow/internal/device"
)

// One live worker serves a phone (docs/design.md §5): its action journal
// is the one its actions are judged by, and a retry on another worker
// would send again. Before a worker polls a phone's task queue it asks who
// serves that queue now (goalctl's heartbeat check, the one `starter
// devices` shows); another live worker keeps the phone, and this one says
// which worker and what to do, and asks again at every re-listing, so it
// takes the phone over once that worker is gone. A worker of the same host
// on the same journal directory shares the phone: the journal's file lock
// holds across processes.

// phoneWorkerTag joins a worker process's identity and the identity of the
// phone its phone worker serves: "1234@host@phone=R58M123ABC".
const phoneWorkerTag = "phone="

// defaultIdentity is the SDK's own default worker identity, pid@host@.
func defaultIdentity() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%d@%s@", os.Getpid(), host)
}

// journalTag joins a phone worker's identity and a digest of its journal
// directory: two workers of one host on one journal share it safely (its
// file lock holds across processes), so a rolling restart may overlap.
const journalTag = "@journal="

// phoneWorkerIdentity is the identity of the worker that serves the phone
// whose identity is phone, with the journal kept in journalDir.
func phoneWorkerIdentity(base, phone, journalDir string) string {
	if !strings.HasSuffix(base, "@") {
		base += "@"
	}
	id := base + phoneWorkerTag + phone
	if journalDir != "" {
		sum := sha256.Sum256([]byte(journalDir))
		id += journalTag + hex.EncodeToString(sum[:4])
	}
	return id
}

// splitIdentity reads a worker identity as its process's identity (without
// the trailing "@"), the phone's identity ("" for other workers) and the
// digest of its journal directory.
func splitIdentity(id string) (process, phone, journal string) {
	id, journal, _ = strings.Cut(id, journalTag)
	process, phone, _ = strings.Cut(id, "@"+phoneWorkerTag)
	return strings.TrimSuffix(process, "@"), phone, journal
}

// processOf reads "pid@host" (the SDK's default identity); pid 0 when the
// identity has another shape.
func processOf(process string) (pid int, host string) {
	f := strings.Split(process, "@")
	if len(f) < 2 {
		return 0, ""
	}
	pid, _ = strconv.Atoi(f[0])
	return pid, f[1]
}

// processAlive reports whether a process of this host still runs.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// servedElsewhere returns why this worker must not serve the phone listed
// as serial with identity phone, "" when it may: no live worker serves
// the phone's queue, or the one that does is this process, a process of
// this host that is gone (a worker restarted after a crash, before its
// heartbeats went stale), or a worker of this host on the same journal.
func (w *Worker) servedElsewhere(ctx context.Context, serial, phone string) (string, error) {
	svc, err := w.ctl.DeviceService(ctx, serial, time.Now())
	if err != nil {
		return "", err
	}
	if !svc.Served || svc.Worker == "" {
		return "", nil
	}
	other, otherPhone, otherJournal := splitIdentity(svc.Worker)
	self, _, _ := splitIdentity(w.identity)
	_, _, journal := splitIdentity(phoneWorkerIdentity(w.identity, phone, w.journalDir()))
	if other == self {
		return "", nil
	}
	myHost, _ := os.Hostname()
	if mayShare(other, otherPhone, otherJournal, phone, journal, myHost, processAlive) {
		return "", nil
	}
	if otherPhone != "" && otherPhone != phone {
		return fmt.Sprintf("not serving phone %s: worker %s serves another phone listed under the same serial (its ro.serialno is %s, this one's is %s). "+
			"Goals name a phone by its serial, so two phones under one serial cannot both be served: give one of them another serial "+
			"(start the emulator on another port, `emulator -port 5556`, or connect the phone by its address) or leave it out of this host's adb.allow",
			serial, svc.Worker, otherPhone, phone), nil
	}
	alive := "its heartbeats are live"
	if svc.Basis == "poll" {
		alive = "it polled the phone's queue lately"
	}
	return fmt.Sprintf("not serving phone %s (ro.serialno %s): worker %s already serves it (%s). "+
		"One worker serves a phone, so that its action journal is the only one: stop that worker, or take the phone off this host "+
		"(`adb disconnect %s`, or leave it out of adb.allow); this worker serves it once the other is gone",
		serial, phone, svc.Worker, alive, serial), nil
}

// mayShare reports whether this worker (on myHost, serving the phone
// whose identity is phone with its journal's digest journal) may serve a
// phone that the worker other (process identity, and the phone and journal
// its identity names) serves: when other is a process of this host that is
// gone (a worker restarted after a crash, before its heartbeats went
// stale), a worker of this host on the same journal (a rolling restart),
// or a worker of this host from a release before workers named their phone
// (a rolling deploy from that release: it names no phone and no journal,
// and it keeps its journal in the same data_dir as the release that
// replaces it when both are started from the same configuration).
func mayShare(other, otherPhone, otherJournal, phone, journal, myHost string, alive func(int) bool) bool {
	pid, host := processOf(other)
	if host == "" || host != myHost {
		return false
	}
	switch {
	case pid > 0 && pid != os.Getpid() && !alive(pid):
		return true
	case otherPhone == phone && otherJournal != "" && otherJournal == journal:
		return true
	case otherPhone == "" && otherJournal == "":
		return true
	}
	return false
}

// journalDir is the directory of this worker's action journal, "" without one.
func (w *Worker) journalDir() string {
	if w.acts.Journal == nil {
		return ""
	}
	return w.acts.Journal.Dir()
}

// phoneIdentity is the identity of the phone listed as serial, or the
// serial when the phone does not answer (it may still be served: the
// journal reads the identity again before each action). A phone whose
// Android is too old to drive is the error that says so.
func (w *Worker) phoneIdentity(ctx context.Context, serial string) (string, error) {
	d, err := w.acts.Devices.Get(ctx, serial)
	if err != nil {
		return serial, nil
	}
	id, err := device.IdentityOf(ctx, d)
	var ua *device.UnsupportedAndroidError
	if errors.As(err, &ua) {
		return serial, err
	}
	if err != nil {
		return serial, nil
	}
	return id, nil
}

// Refused returns, for each phone this worker does not serve because
// another worker does, why.
func (w *Worker) Refused() map[string]string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[string]string, len(w.refused))
	for k, v := range w.refused {
		out[k] = v
	}
	return out
}
