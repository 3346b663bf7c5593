package device

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Notification is one notification showing on the phone, as `dumpsys
// notification --noredact` lists it.
type Notification struct {
	Package string    `json:"package"`
	Title   string    `json:"title"` // a message's sender
	Text    string    `json:"text"`
	Posted  time.Time `json:"posted"` // the phone's clock; zero when not listed
}

// Notifications lists the notifications showing on the phone. It only
// reads: the screen, the keyguard and the apps are left as they are.
func (d *adbDevice) Notifications(ctx context.Context) ([]Notification, error) {
	out, err := d.shell(ctx, "dumpsys notification --noredact")
	if err != nil {
		return nil, fmt.Errorf("device %s: dumpsys notification: %w", d.serial, err)
	}
	if !strings.Contains(out, "Notification List:") && !strings.Contains(out, "NotificationRecord(") {
		return nil, fmt.Errorf("device %s: cannot read the notifications from `dumpsys notification --noredact` output %q", d.serial, clip(out))
	}
	return parseNotifications(out), nil
}

// parseNotifications reads the NotificationRecords of `dumpsys
// notification --noredact`: the package, the android.title and
// android.text extras, and the post time (mCreationTimeMs, or the
// record's postTime).
func parseNotifications(out string) []Notification {
	var ns []Notification
	recs := strings.Split(out, "NotificationRecord(")
	for _, rec := range recs[1:] {
		var n Notification
		if i := strings.Index(rec, "pkg="); i >= 0 {
			n.Package, _, _ = strings.Cut(rec[i+len("pkg="):], " ")
		}
		n.Title = extra(rec, "android.title=")
		n.Text = firstNonEmpty(extra(rec, "android.bigText="), extra(rec, "android.text="))
		for _, k := range []string{"mCreationTimeMs=", "postTime="} {
			if i := strings.Index(rec, k); i >= 0 {
				v := rec[i+len(k):]
				if j := strings.IndexFunc(v, func(r rune) bool { return r < '0' || r > '9' }); j >= 0 {
					v = v[:j]
				}
				if ms, err := strconv.ParseInt(v, 10, 64); err == nil && ms > 0 {
					n.Posted = time.UnixMilli(ms).UTC()
					break
				}
			}
		}
		if n.Title != "" || n.Text != "" {
			ns = append(ns, n)
		}
	}
	return ns
}

// extra reads one extras line, "android.title=String (Alice Chen)" (or a
// SpannableString, or a bare value), up to the end of its line.
func extra(rec, key string) string {
	i := strings.Index(rec, key)
	if i < 0 {
		return ""
	}
	v, _, _ := strings.Cut(rec[i+len(key):], "\n")
	v = strings.TrimSpace(v)
	if j := strings.Index(v, " ("); j >= 0 && strings.HasSuffix(v, ")") && !strings.Contains(v[:j], " ") {
		v = v[j+2 : len(v)-1]
	}
	if v == "null" {
		return ""
	}
	return v
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
