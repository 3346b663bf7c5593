package device

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// PhoneClock is a phone whose own clock can be read: the clock its files'
// modification times are in, which may differ from the host's (a phone
// without network time, a clock set by hand).
type PhoneClock interface {
	PhoneTime(ctx context.Context) (time.Time, error)
}

var _ PhoneClock = (*adbDevice)(nil)

// PhoneTime reads the phone's clock (`date +%s`, toybox and toolbox alike).
func (d *adbDevice) PhoneTime(ctx context.Context) (time.Time, error) {
	out, err := d.shell(ctx, "date +%s")
	if err != nil {
		return time.Time{}, fmt.Errorf("device %s: read the phone's clock: %w", d.serial, err)
	}
	return parsePhoneTime(out)
}

// parsePhoneTime reads the output of `date +%s`.
func parsePhoneTime(out string) (time.Time, error) {
	s, err := strconv.ParseInt(strings.TrimSpace(out), 10, 64)
	if err != nil || s <= 0 {
		return time.Time{}, fmt.Errorf("the phone's clock: `date +%%s` printed %q", strings.TrimSpace(out))
	}
	return time.Unix(s, 0), nil
}
