package device

import (
	"context"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/phonesim"
)

func TestParseNotifications(t *testing.T) {
	out := `Current Notification Manager state:
  Notification List:
    NotificationRecord(0x0f3a91c2: pkg=com.google.android.apps.messaging user=UserHandle{0} id=12 tag=null importance=4 key=0|com.google.android.apps.messaging|12|null|10150: Notification(channel=conversations pri=1))
      uid=10150 userId=0
      notification=
        extras={
          android.title=String (Bank)
          android.text=SpannableString (Your sign-in code is 482913. It expires in 10 minutes.)
          android.subText=null
        }
      mCreationTimeMs=1772442000123
    NotificationRecord(0x0a: pkg=android user=UserHandle{0} id=1 tag=null importance=2 key=0|android|1|null|1000: Notification(channel=usb pri=-2))
      notification=
        extras={
          android.title=String (USB debugging connected)
          android.text=String (Tap to turn off USB debugging)
        }
`
	ns := parseNotifications(out)
	if len(ns) != 2 {
		t.Fatalf("parsed %d notifications: %+v", len(ns), ns)
	}
	n := ns[0]
	if n.Package != "com.google.android.apps.messaging" || n.Title != "Bank" ||
		n.Text != "Your sign-in code is 482913. It expires in 10 minutes." || n.Posted.UnixMilli() != 1772442000123 {
		t.Fatalf("first notification %+v", n)
	}
	if !ns[1].Posted.IsZero() || ns[1].Title != "USB debugging connected" {
		t.Fatalf("second notification %+v", ns[1])
	}
}

// TestNotificationsOverRealADB reads a simulated phone's notifications
// through the real adb server, and reads only: the screen and the lock
// stay as they were.
func TestNotificationsOverRealADB(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st := startStackWith(t, phonesim.Life{PIN: "4827", Manual: true})
	st.phone.Lock()
	st.phone.Advance(time.Minute)
	st.phone.Receive("Alice Chen", "Are you up?")
	d := New(st.client, st.serial, Options{Settle: SettlePolicy{Mode: SettleNone}}).(*adbDevice)
	ns, err := d.Notifications(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(ns) != 1 || ns[0].Title != "Alice Chen" || ns[0].Text != "Are you up?" || !ns[0].Posted.Equal(st.phone.Clock()) {
		t.Fatalf("notifications %+v (phone clock %s)", ns, st.phone.Clock())
	}
	if s := st.phone.State(); s.Awake || !s.Locked || len(s.InputLog) != 0 {
		t.Fatalf("reading the notifications changed the phone: awake %t locked %t inputs %v", s.Awake, s.Locked, s.InputLog)
	}
}
