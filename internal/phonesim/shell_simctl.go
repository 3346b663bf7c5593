package phonesim

import (
	"encoding/json"
	"strings"
	"time"
)

func (p *Phone) cmdSimctl(e *cmdEnv) int {
	args := e.args[1:]
	if len(args) == 0 {
		e.err("usage: simctl state | reset | fault <kind> [arg] | advance <duration> | receive <contact> <text> | lock | unlock\n")
		return 1
	}
	switch args[0] {
	case "state":
		b, err := json.MarshalIndent(p.State(), "", "  ")
		if err != nil {
			e.err("simctl: %v\n", err)
			return 1
		}
		e.stdout.Write(b)
		e.out("\n")
	case "reset":
		p.Reset()
		e.out("reset\n")
	case "advance":
		if len(args) != 2 {
			e.err("usage: simctl advance <duration, like 30s or 5m>\n")
			return 1
		}
		d, err := time.ParseDuration(args[1])
		if err != nil || d < 0 {
			e.err("simctl advance: %q is not a duration like 30s or 5m\n", args[1])
			return 1
		}
		p.Advance(d)
		e.out("clock %s\n", p.Clock().Format(time.DateTime))
	case "receive":
		if len(args) != 3 {
			e.err("usage: simctl receive <contact name> <text>\n")
			return 1
		}
		if _, ok := findContact(args[1]); !ok {
			e.err("simctl receive: no contact %q; the contacts are %s\n", args[1], contactNames())
			return 1
		}
		p.Receive(args[1], args[2])
		e.out("received\n")
	case "lock":
		p.Lock()
		e.out("locked\n")
	case "unlock":
		p.Unlock()
		e.out("unlocked\n")
	case "fault":
		f, err := ParseFault(args[1:])
		if err == nil {
			err = p.SetFault(f)
		}
		if err != nil {
			e.err("%v\n", err)
			return 1
		}
		e.out("fault %s on\n", strings.Join(args[1:], " "))
	default:
		e.err("simctl: unknown command %q; use state, reset, fault, advance, receive, lock or unlock\n", args[0])
		return 1
	}
	return 0
}
