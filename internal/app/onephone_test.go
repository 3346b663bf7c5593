package app

import "testing"

// A phone worker's identity carries its process, the phone's identity and
// its journal's directory (docs/design.md §24), and reads back.
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
