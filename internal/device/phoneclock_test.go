package device

import (
	"context"
	"testing"
	"time"
)

func TestParsePhoneTime(t *testing.T) {
	if got, err := parsePhoneTime("1795426920\r\n"); err != nil || !got.Equal(time.Unix(1795426920, 0)) {
		t.Fatalf("parse = %v, %v", got, err)
	}
	for _, bad := range []string{"", "date: unknown option", "%s", "0"} {
		if _, err := parsePhoneTime(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// The phone's clock is read over ADB, and a clock moved on reads later.
func TestPhoneTimeOverRealADB(t *testing.T) {
	s := startStack(t)
	ctx := context.Background()
	c := New(s.client, s.serial, Options{}).(PhoneClock)
	t1, err := c.PhoneTime(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s.phone.Advance(30 * 24 * time.Hour)
	t2, err := c.PhoneTime(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := t2.Sub(t1); d < 30*24*time.Hour || d > 30*24*time.Hour+time.Minute {
		t.Fatalf("the clock moved on by %s, want 30 days", d)
	}
}
