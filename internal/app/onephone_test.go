package app

import "testing"

// A phone worker's identity carries its process, the phone's identity and
// its journal's directory (docs/design.md §5), and reads back.
func TestPhoneWorkerIdentityReadsBack(t *testing.T) {
	id := phoneWorkerIdentity("1234@host-a@", "R58M123ABC", "/var/lib/phoneflow/actions")
	process, phone, journal := splitIdentity(id)
	if process != "1234@host-a" || phone != "R58M123ABC" || len(journal) != 8 {
		t.Fatalf("%q read as %q %q %q", id, process, phone, journal)
	}
	if pid, host := processOf(process); pid != 1234 || host != "host-a" {
		t.Fatalf("process %q read as pid %d host %q", process, pid, host)
	}
	_, _, other := splitIdentity(phoneWorkerIdentity("1234@host-a@", "R58M123ABC", "/home/me/.phoneflow/actions"))
	if other == journal {
		t.Fatal("two journal directories read as one")
	}
	if p, ph, j := splitIdentity("5678@host-b@"); p != "5678@host-b" || ph != "" || j != "" {
		t.Fatalf("a worker without a phone read as %q %q %q", p, ph, j)
	}
}

// Which workers of which hosts a phone is shared with (docs/design.md §5).
func TestMayShare(t *testing.T) {
	_, _, j := splitIdentity(phoneWorkerIdentity("1@h@", "R58", "/data/actions"))
	_, _, j2 := splitIdentity(phoneWorkerIdentity("1@h@", "R58", "/other/actions"))
	dead := func(int) bool { return false }
	live := func(int) bool { return true }
	for _, c := range []struct {
		name               string
		other, phone, jour string
		host               string
		alive              func(int) bool
		want               bool
	}{
		{"same host, same journal", "99@h", "R58", j, "h", live, true},
		{"same host, another journal", "99@h", "R58", j2, "h", live, false},
		{"another host, same journal digest", "99@g", "R58", j, "h", live, false},
		{"same host, process gone", "99@h", "R58", j2, "h", dead, true},
		{"same host, worker of the release before phone names", "99@h", "", "", "h", live, true},
		{"another host, worker of the release before phone names", "99@g", "", "", "h", live, false},
		{"an identity of another shape", "some-worker", "", "", "h", live, false},
	} {
		if got := mayShare(c.other, c.phone, c.jour, "R58", j, c.host, c.alive); got != c.want {
			t.Errorf("%s: mayShare = %v, want %v", c.name, got, c.want)
		}
	}
}
