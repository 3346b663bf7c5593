package activities

import (
	"context"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/waits"
)

// notifyingPhone is a fakePhone that lists notifications.
type notifyingPhone struct {
	*fakePhone
	ns []device.Notification
}

func (p *notifyingPhone) Notifications(context.Context) ([]device.Notification, error) {
	return p.ns, nil
}

type notifyingPool struct{ p *notifyingPhone }

func (f notifyingPool) Get(ctx context.Context, serial string) (device.Device, error) {
	if _, err := (fakePool{f.p.fakePhone}).Get(ctx, serial); err != nil {
		return nil, err
	}
	return f.p, nil
}
func (f notifyingPool) List(ctx context.Context) ([]device.Info, error) {
	return fakePool{f.p.fakePhone}.List(ctx)
}

// TestCheckPhoneFindsWhatCameAfterTheBaseline: what showed at the first
// check does not count; a new message from the sender does, with its text,
// and a code wait takes the digits of a new notification's text. The
// check touches nothing and calls no model.
func TestCheckPhoneFindsWhatCameAfterTheBaseline(t *testing.T) {
	ctx := context.Background()
	a, fp, m := newActivities(t)
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	p := &notifyingPhone{fakePhone: fp, ns: []device.Notification{{Title: "Alice Chen", Text: "old news", Posted: t0}}}
	a.Devices = notifyingPool{p}
	msg := waits.PhoneWait{Kind: waits.PhoneMessage, From: "Alice Chen"}
	base, err := a.CheckPhone(ctx, CheckPhoneInput{Serial: "fake-1", Wait: msg, First: true})
	if err != nil || base.Met || !base.Latest.Equal(t0) {
		t.Fatalf("baseline %+v, %v", base, err)
	}
	p.ns = append(p.ns, device.Notification{Title: "Bob Li", Text: "hi", Posted: t0.Add(time.Minute)})
	res, err := a.CheckPhone(ctx, CheckPhoneInput{Serial: "fake-1", Wait: msg, After: base.Latest})
	if err != nil || res.Met || !res.Latest.Equal(t0.Add(time.Minute)) {
		t.Fatalf("after a message from someone else: %+v, %v", res, err)
	}
	p.ns = append(p.ns, device.Notification{Title: "Alice Chen", Text: "Are you up?", Posted: t0.Add(2 * time.Minute)})
	res, err = a.CheckPhone(ctx, CheckPhoneInput{Serial: "fake-1", Wait: msg, After: res.Latest})
	if err != nil || !res.Met || res.Value != "Are you up?" || res.From != "Alice Chen" {
		t.Fatalf("after Alice's message: %+v, %v", res, err)
	}
	code := waits.PhoneWait{Kind: waits.PhoneCode, From: "Bank"}
	p.ns = append(p.ns, device.Notification{Title: "Bank", Text: "Your sign-in code is 482913. Do not share it.", Posted: t0.Add(3 * time.Minute)})
	res, err = a.CheckPhone(ctx, CheckPhoneInput{Serial: "fake-1", Wait: code, After: t0.Add(2 * time.Minute)})
	if err != nil || !res.Met || res.Value != "482913" {
		t.Fatalf("code: %+v, %v", res, err)
	}
	// A code that came before the wait began (its sign-in sent it) counts
	// at the first check; the newest code wins.
	p.ns = append(p.ns, device.Notification{Title: "Bank", Text: "Your sign-in code is 771204.", Posted: t0.Add(4 * time.Minute)})
	res, err = a.CheckPhone(ctx, CheckPhoneInput{Serial: "fake-1", Wait: code, First: true})
	if err != nil || !res.Met || res.Value != "771204" {
		t.Fatalf("code at the first check: %+v, %v", res, err)
	}
	if len(fp.got()) != 0 || len(m.reqs) != 0 {
		t.Fatalf("checks sent %v and called the model %d times", fp.got(), len(m.reqs))
	}
}
